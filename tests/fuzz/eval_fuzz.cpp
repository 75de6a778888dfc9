// libFuzzer target: eval.json text as `forge prep` and `forge credit` read it:
// parse_eval, then the prep check and the credit against a fixed declared
// contract that has prep-produced symmetrize entries and priced entries on both
// sides (so both paths run on the fuzzed eval), then everything those commands
// print. EvalError and CreditError are documented; any other exception, a
// crash, UB, a leak or a hang is a finding.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>

#include "forge/contract/check.hpp"
#include "forge/credit/credit.hpp"
#include "forge/ctest/measurement.hpp"
#include "forge/eval/eval.hpp"
#include "forge/prep/prep_check.hpp"
#include "forge/report/credit_view.hpp"
#include "fuzz_invariant.hpp"

namespace {

constexpr std::string_view fixed_contract = R"toml(schema_version = 1

[reference]
window = "backward with the forward's saved statistics"
inputs = ["x", "weight", "dy", "mean", "rstd", "cos_sin", "table"]
outputs = ["dx", "dweight", "dbias"]

[student]
window = "backward from raw inputs, with a plan the reference builds itself"
inputs = ["x", "weight", "dy", "cos_sin", "table", "plan"]
outputs = ["dx", "dweight", "dbias", "stats"]

[[asymmetry]]
ref_input = "mean"
class = "price"
produced_by = "forward"
student_kernel_regex = "rebuild_stats"

[[asymmetry]]
ref_input = "rstd"
class = "price"
produced_by = "forward"
student_kernel_regex = "rebuild_stats|rstd_\\w+"

[[asymmetry]]
student_input = "plan"
class = "price"
produced_by = "other"
ref_kernel_regex = "^make_plan"

[[asymmetry]]
ref_input = "cos_sin"
class = "symmetrize"
produced_by = "prep"
shape = [4096, 64]
dtype = "fp32"

[[asymmetry]]
ref_input = "table"
class = "symmetrize"
produced_by = "prep"
shape = [16]
dtype = "bf16"

[[asymmetry]]
student_output = "stats"
class = "accept"
produced_by = "other"
note = "the student also writes its row statistics"
)toml";

// Declared and accepted, or the target would fuzz nothing: checked once.
const forge::WindowContract& fixed() {
    static const forge::WindowContract contract = [] {
        forge::ContractCheck check = forge::check_contract_text(fixed_contract, "fuzz/window.toml");
        if (check.refused() || !check.contract || check.contract->prep_entries().size() != 2 ||
            check.contract->priced_entries().size() != 3) {
            std::fprintf(stderr, "eval_fuzz: the fixed contract no longer declares 2 prep and 3 priced entries\n");
            std::abort();
        }
        return std::move(*check.contract);
    }();
    return contract;
}

const std::set<std::string, std::less<>> prep_codes{
    std::string(forge::prep_code::unreported), std::string(forge::prep_code::mutated),
    std::string(forge::prep_code::missing),    std::string(forge::prep_code::shape),
    std::string(forge::prep_code::dtype),      std::string(forge::prep_code::undeclared),
    std::string(forge::prep_code::eval_incorrect)};

const std::set<std::string, std::less<>> credit_codes{std::string(forge::credit_code::table_missing),
                                                      std::string(forge::credit_code::regex_unmatched),
                                                      std::string(forge::credit_code::coverage_out_of_band)};

void credit_eval(const forge::EvalReport& eval) {
    const forge::RunCredit run = forge::credit_run(fixed(), eval);
    FORGE_FUZZ_INVARIANT(run.workloads.size() == eval.workloads.size(), "a workload lost or added by the credit");
    for (const forge::WorkloadCredit& w : run.workloads) {
        FORGE_FUZZ_INVARIANT(w.credit, "nothing priced, with three priced entries declared");
        FORGE_FUZZ_INVARIANT(w.credit->usable == w.credit->why.empty(), "usable, yet with reasons not to be");
        for (const forge::CreditReason& r : w.credit->why) {
            FORGE_FUZZ_INVARIANT(credit_codes.contains(r.code), "a credit reason with an unknown code");
        }
        FORGE_FUZZ_INVARIANT(!w.ratio || w.credit->usable, "a credited ratio from an unusable credit");
    }
    FORGE_FUZZ_INVARIANT(!run.credited_ratio || !run.workloads.empty(), "a credited ratio without workloads");

    // What `forge credit` prints, in every format.
    static_cast<void>(forge::to_json(run).dump());
    std::ostringstream out;
    forge::render_credit_text(out, eval, run, true);
    forge::render_credit_markdown(out, eval, run);
    if (run.raw_ratio) static_cast<void>(forge::ctest_measurement("raw_ratio", *run.raw_ratio));
    if (run.credited_ratio) static_cast<void>(forge::ctest_measurement("credited_ratio", *run.credited_ratio));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    forge::EvalReport eval;
    try {
        eval = forge::parse_eval(text, "fuzz/eval.json");
    } catch (const forge::EvalError& error) {
        FORGE_FUZZ_INVARIANT(std::string_view(error.what()).starts_with("fuzz/eval.json"),
                             "an eval error that does not name the file");
        return 0;
    }

    const auto problems = forge::check_prep(fixed(), eval);
    for (const forge::PrepProblem& p : problems) {
        FORGE_FUZZ_INVARIANT(prep_codes.contains(p.code), "a prep problem with an unknown code");
    }
    static_cast<void>(forge::problems_json(problems).dump());

    try {
        credit_eval(eval);
    } catch (const forge::CreditError&) {
        // Documented: matching past Boost's complexity bound on a kernel name.
    }
    return 0;
}
