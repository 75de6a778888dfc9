// libFuzzer target: window.toml text through `forge check` (parse, rules,
// warnings, both renderings), and a contract that passes through the prep check
// and the credit against a fixed eval, so fuzzed kernel regexes get compiled
// and matched. check_contract_text documents no exception: any escaping one is a
// finding; so is a finding that breaks the documented promises (checked below).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "forge/contract/check.hpp"
#include "forge/contract/rules.hpp"
#include "forge/credit/credit.hpp"
#include "forge/eval/eval.hpp"
#include "forge/prep/prep_check.hpp"
#include "forge/report/findings_view.hpp"
#include "fuzz_invariant.hpp"

namespace {

// Every code `forge check` may print (docs/reference/window-toml.md's table).
const std::set<std::string, std::less<>>& known_codes() {
    static const std::set<std::string, std::less<>> codes{
        "malformed", "contract-absent", "list-empty", "entry-duplicate", "entry-not-listed", "class-invalid",
        "output-symmetrize", "output-both-sides", "symmetrize-one-side", "input-both-sides",
        "produced-by-invalid", "prep-shape-missing", "prep-dtype-missing", "prep-decl-misplaced",
        "regex-wrong-side", "regex-not-price", "regex-invalid", "ref-input-undeclared",
        "student-input-undeclared", "ref-output-undeclared", "student-output-undeclared", "price-unpriced",
        "unknown-key"};
    return codes;
}

// Kernel names the fuzzed regexes are matched against: the seeds' kernels and
// a long templated name, as real tables have.
constexpr std::string_view fixed_eval = R"json({
 "schema_version": 1,
 "correctness": {"passed": true},
 "performance": {
  "reference_ms": 1.0, "student_ms": 1.0,
  "prep": {"outputs": {"A": {"shape": [4, 16, 64, 64], "dtype": "bf16"},
                       "cos_sin": {"shape": [4096, 64], "dtype": "torch.float32"}}, "mutated": []},
  "workloads": [{
   "name": "w0", "reference_ms": 1.0, "student_ms": 1.0,
   "kernels": {
    "reference": [{"name": "layernorm_bwd_ref", "launches": 1, "time_ns": 600000.0},
                  {"name": "chunk_cumsum_fwd", "launches": 2, "time_ns": 400000.0}],
    "student": [{"name": "rebuild_stats", "launches": 1, "time_ns": 200000.0},
                {"name": "void at::native::elementwise_kernel<(int)128, (int)4, void at::native::gpu_kernel_impl_nocast<at::native::CUDAFunctor_add<c10::BFloat16>>(at::TensorIteratorBase &, const T1 &)::[lambda(int) (instance 1)]>(int, T3)", "launches": 3, "time_ns": 800000.0}]},
   "profiler": {"reference": {"total_ns": 1000000.0, "calls": 1}, "student": {"total_ns": 1000000.0, "calls": 1}}
  }]
 }
})json";

const forge::EvalReport& fixed_report() {
    static const forge::EvalReport report = forge::parse_eval(fixed_eval, "fuzz/eval.json");
    return report;
}

void hold_to_spec(const forge::ContractCheck& check) {
    for (const forge::Finding& f : check.findings) {
        FORGE_FUZZ_INVARIANT(known_codes().contains(f.code),
                             "a finding with a code docs/reference/window-toml.md does not list");
        FORGE_FUZZ_INVARIANT(!f.message.empty(), "a finding without a message");
        FORGE_FUZZ_INVARIANT(!f.location || (f.location->line >= 1 && f.location->column >= 1),
                             "a source location that is not 1-based");
        FORGE_FUZZ_INVARIANT(f.is_error() == (f.code != "price-unpriced" && f.code != "unknown-key"),
                             "a finding with the wrong severity for its code");
    }
    FORGE_FUZZ_INVARIANT(check.refused() || check.declared(), "an undeclared contract that is not refused");
    FORGE_FUZZ_INVARIANT(check.contract || check.refused(), "no contract, yet not refused");
}

bool same_finding(const forge::Finding& a, const forge::Finding& b) {
    return a.code == b.code && a.subject == b.subject && a.message == b.message;
}

// Every finding of `part` appears in `whole`, each as often (in any order: the
// check sorts errors into file order).
bool said(const std::vector<forge::Finding>& part, const std::vector<forge::Finding>& whole) {
    for (const forge::Finding& f : part) {
        const auto alike = [&](const forge::Finding& other) { return same_finding(f, other); };
        if (std::count_if(whole.begin(), whole.end(), alike) < std::count_if(part.begin(), part.end(), alike)) {
            return false;
        }
    }
    return true;
}

// Every finding of `part` appears in `whole`, in the same order.
bool said_in_order(const std::vector<forge::Finding>& part, const std::vector<forge::Finding>& whole) {
    auto at = whole.begin();
    for (const forge::Finding& f : part) {
        at = std::find_if(at, whole.end(), [&](const forge::Finding& w) { return same_finding(w, f); });
        if (at == whole.end()) return false;
        ++at;
    }
    return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    const forge::ContractCheck check = forge::check_contract_text(text, "fuzz/window.toml");
    hold_to_spec(check);

    // What `forge check` prints, in both formats.
    for (const forge::Finding& f : check.findings) static_cast<void>(forge::format_finding(f, check.path));
    static_cast<void>(forge::to_json(check).dump());

    if (!check.contract) return 0;
    // The rules on their own are what the check ran: their findings are all reported.
    const auto findings = forge::window_findings(*check.contract);
    const auto warnings = forge::window_warnings(*check.contract);
    FORGE_FUZZ_INVARIANT(said(findings, check.findings), "the check lost a rule's finding");
    FORGE_FUZZ_INVARIANT(said_in_order(warnings, check.findings), "the check lost or reordered a warning");
    if (check.refused()) return 0;

    // A contract every command accepts: its prep entries and priced regexes at work.
    static_cast<void>(forge::problems_json(forge::check_prep(*check.contract, fixed_report())).dump());
    try {
        static_cast<void>(forge::to_json(forge::credit_run(*check.contract, fixed_report())).dump());
    } catch (const forge::CreditError&) {
        // Documented: a regex Boost cannot compile, or matching past Boost's bound.
    }
    return 0;
}
