#define BOOST_TEST_MODULE vectors
// The reference's verdicts (tests/vectors/*.jsonl, written by generate.py from
// run_oracle.py) must be ForgeKernel's: same codes and subjects, same numbers.
// A disagreement prints the case's input and both answers on a few lines; the
// first FORGE_VECTORS_SHOW (default 20) per file in full, the rest counted by tag.
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "forge/contract/check.hpp"
#include "forge/contract/finding.hpp"
#include "forge/credit/credit.hpp"
#include "forge/eval/eval.hpp"
#include "forge/prep/prep_check.hpp"
#include "forge/table/kernel_table.hpp"

namespace {

using nlohmann::json;

const std::filesystem::path vectors_dir{FORGE_VECTORS_DIR};

std::vector<json> read_vectors(const std::string& file) {
    const std::filesystem::path path = vectors_dir / file;
    std::ifstream in(path);
    BOOST_REQUIRE_MESSAGE(in, "cannot open " << path.string() << " (written by tests/vectors/generate.py)");
    std::vector<json> out;
    std::string line;
    for (int number = 1; std::getline(in, line); ++number) {
        if (line.empty()) continue;
        json vec = json::parse(line, nullptr, /*allow_exceptions=*/false);
        BOOST_REQUIRE_MESSAGE(vec.is_object(), path.string() << ":" << number << ": not a JSON object");
        out.push_back(std::move(vec));
    }
    return out;
}

std::size_t shown_limit() {
    const char* env = std::getenv("FORGE_VECTORS_SHOW");
    return env != nullptr ? static_cast<std::size_t>(std::strtoul(env, nullptr, 10)) : 20;
}

// Cases whose answer differs from the reference's, reported compactly.
class Disagreements {
public:
    explicit Disagreements(std::string file) : file_(std::move(file)) {}

    void add(const json& vec, const std::string& input, const std::string& expected, const std::string& actual) {
        const std::string tag = vec.value("tag", std::string{"-"});
        ++by_tag_[tag.substr(0, tag.find(':'))];
        if (++count_ > limit_) return;
        std::ostringstream out;
        out << vec.value("id", std::string{"?"}) << " (" << tag << ")";
        if (vec.contains("difference")) out << " [" << vec["difference"].get<std::string>() << "]";
        out << "\n  input:    " << input << "\n  expected: " << expected << "\n  actual:   " << actual;
        BOOST_ERROR(out.str());
    }

    void report(std::size_t total) const {
        std::ostringstream out;
        out << file_ << ": " << count_ << " of " << total << " cases disagree with the reference";
        if (count_ > limit_) out << " (" << count_ - limit_ << " not shown; set FORGE_VECTORS_SHOW)";
        for (const auto& [tag, n] : by_tag_) out << "\n  " << tag << ": " << n;
        BOOST_CHECK_MESSAGE(count_ == 0, out.str());
    }

private:
    std::string file_;
    std::size_t limit_ = shown_limit();
    std::size_t count_ = 0;
    std::map<std::string, std::size_t> by_tag_;
};

std::string joined(const std::vector<std::string>& items) {
    std::string out = "[";
    for (const std::string& item : items) out += (out.size() > 1 ? ", " : "") + item;
    return out + "]";
}

// "code[subject]", warnings marked "/w": the unit a multiset of findings compares.
std::string finding_item(std::string_view code, std::string_view severity, const std::optional<std::string>& subject) {
    std::string out{code};
    if (subject) out += "[" + *subject + "]";
    if (severity == "warning") out += "/w";
    return out;
}

std::optional<std::string> optional_string(const json& value) {
    return value.is_null() ? std::nullopt : std::optional<std::string>{value.get<std::string>()};
}

// The contract a prep or credit case holds its report to (its TOML always parses).
forge::WindowContract contract_of(const json& vec) {
    forge::ContractCheck check = forge::check_contract_text(vec["toml"].get<std::string>(), "window.toml");
    if (!check.contract) throw std::runtime_error("the case's contract was refused as malformed");
    return std::move(*check.contract);
}

// "code[subject]@w1,w2": a prep problem as the multiset compares it.
std::string problem_item(std::string_view code, const std::optional<std::string>& subject,
                         const std::vector<std::string>& workloads) {
    std::string out = finding_item(code, "error", subject);
    for (std::size_t i = 0; i < workloads.size(); ++i) out += (i == 0 ? "@" : ",") + workloads[i];
    return out;
}

bool close(double expected, double actual) {
    const double scale = std::max(std::fabs(expected), std::fabs(actual));
    return std::fabs(expected - actual) <= std::max(1e-9 * scale, 1e-12);
}

// Rows and digests the KernelTable / ProfilerDigest model holds as written;
// the others (a name that is not a string, a time written as text, ...) reach
// the credit only through the eval reader, which coerces them as Python does.
bool model_holds(const json& vec) {
    for (const std::string side : {"student", "ref"}) {
        if (const json& rows = vec[side + "_kernels"]; rows.is_array()) {
            for (const json& row : rows) {
                if (!(row.contains("name") && row["name"].is_string() && row.contains("launches") &&
                      row["launches"].is_number_integer() && row.contains("time_ns") && row["time_ns"].is_number() &&
                      row.contains("pct") && row["pct"].is_number())) {
                    return false;
                }
            }
        }
        if (const json& digest = vec[side + "_profiler"]; !digest.is_null()) {
            const json calls = digest.value("calls", json(1));
            if (!(digest.contains("total_ns") && digest["total_ns"].is_number() && calls.is_number_integer() &&
                  calls.get<std::int64_t>() > 0)) {
                return false;
            }
        }
    }
    return true;
}

// The case as one workload of an eval.json, the bench's report.
std::string eval_text(const json& vec) {
    const json workload = {
        {"name", "w0"},
        {"reference_ms", vec["ref_ms"]},
        {"student_ms", vec["student_ms"]},
        {"kernels", {{"reference", vec["ref_kernels"]}, {"student", vec["student_kernels"]}}},
        {"profiler", {{"reference", vec["ref_profiler"]}, {"student", vec["student_profiler"]}}}};
    return json{{"schema_version", 1}, {"performance", {{"workloads", json::array({workload})}}}}.dump();
}

// One side's readings as the eval reader hands them to the credit.
forge::SideReading reading(const json& vec, const std::string& side) {
    forge::SideReading out;
    if (const json& ms = vec[side + "_ms"]; !ms.is_null()) out.ms = ms.get<double>();
    if (const json& rows = vec[side + "_kernels"]; !rows.is_null()) {
        forge::KernelTable table;
        for (const json& row : rows) {
            table.kernels.push_back({.name = row["name"].get<std::string>(),
                                     .launches = row["launches"].get<std::int64_t>(),
                                     .time_ns = row["time_ns"].get<double>(),
                                     .pct = row["pct"].get<double>()});
        }
        out.kernels = std::move(table);
    }
    if (const json& digest = vec[side + "_profiler"]; !digest.is_null()) {
        out.profiler = forge::ProfilerDigest{.total_ns = digest["total_ns"].get<double>(),
                                             .calls = digest.value("calls", std::int64_t{1})};
    }
    return out;
}

// What differs between the reference's credit and ours, one "key: expected vs actual" each.
class CreditDiff {
public:
    explicit CreditDiff(std::string path) : path_(std::move(path)) {}

    void number(const std::string& key, const json& expected, std::optional<double> actual) {
        if (expected.is_null() != !actual || (actual && !close(expected.get<double>(), *actual))) {
            differ(key, expected.dump(), actual ? json(*actual).dump() : "null");
        }
    }
    void names(const std::string& key, const json& expected, const std::vector<std::string>& actual) {
        if (expected.get<std::vector<std::string>>() != actual) differ(key, expected.dump(), json(actual).dump());
    }
    void flag(const std::string& key, const json& expected, bool actual) {
        if (expected.get<bool>() != actual) differ(key, expected.dump(), json(actual).dump());
    }
    void side(const std::string& key, const json& expected, const forge::SideCredit& actual) {
        number(key + ".fraction", expected["fraction"], actual.fraction);
        names(key + ".matched", expected["matched"], actual.matched);
        number(key + ".matched_ns", expected["matched_ns"], actual.matched_ns);
        number(key + ".total_ns", expected["total_ns"], actual.total_ns);
        names(key + ".priced", expected["priced"], actual.priced);
        names(key + ".unmatched", expected["unmatched"], actual.unmatched);
        flag(key + ".table", expected["table"], actual.table);
    }
    void differ(const std::string& key, const std::string& expected, const std::string& actual) {
        text_ += (text_.empty() ? "" : "; ") + path_ + key + ": " + expected + " vs " + actual;
    }
    [[nodiscard]] const std::string& text() const noexcept { return text_; }

private:
    std::string path_;  // which way the case went through the API: "" or "eval: "
    std::string text_;
};

void compare_credit(CreditDiff& diff, const json& expected, const std::optional<forge::Credit>& actual) {
    if (expected.is_null() || !actual) {
        if (expected.is_null() != !actual) diff.differ("credit", expected.is_null() ? "null" : "a credit",
                                                       actual ? "a credit" : "null");
        return;
    }
    diff.side("student", expected["student"], actual->student);
    diff.side("reference", expected["reference"], actual->reference);
    diff.flag("usable", expected["usable"], actual->usable);
    std::vector<std::string> want_why;
    std::vector<std::string> got_why;
    for (const json& why : expected["why"]) want_why.push_back(why["code"].get<std::string>());
    for (const forge::CreditReason& why : actual->why) got_why.push_back(why.code);
    std::sort(want_why.begin(), want_why.end());
    std::sort(got_why.begin(), got_why.end());
    if (want_why != got_why) diff.differ("why", json(want_why).dump(), json(got_why).dump());
    diff.names("unpriced", expected["unpriced"], actual->unpriced);
    const json recon = expected.value("reconciliation", json::object());
    diff.number("reconciliation.student", recon.value("student", json()), actual->reconciliation.student);
    diff.number("reconciliation.reference", recon.value("reference", json()), actual->reconciliation.reference);
}

void compare_ratio(CreditDiff& diff, const json& expected, const std::optional<forge::CreditedRatio>& actual) {
    if (expected.is_null() || !actual) {
        if (expected.is_null() != !actual) diff.differ("ratio", expected.dump(), actual ? "a ratio" : "null");
        return;
    }
    diff.number("ratio.credited_student_ms", expected["credited_student_ms"], actual->credited_student_ms);
    diff.number("ratio.credited_ref_ms", expected["credited_ref_ms"], actual->credited_ref_ms);
    diff.number("ratio.student_ms", expected["student_ms"], actual->student_ms);
    diff.number("ratio.ref_ms", expected["ref_ms"], actual->ref_ms);
    diff.number("ratio.credited_ratio", expected["credited_ratio"], actual->credited_ratio);
    diff.number("ratio.raw_ratio", expected["raw_ratio"], actual->raw_ratio);
    diff.number("ratio.student_fraction", expected["student_fraction"], actual->student_fraction);
    diff.number("ratio.reference_fraction", expected["reference_fraction"], actual->reference_fraction);
}

std::optional<double> optional_number(const json& value) {
    return value.is_null() ? std::nullopt : std::optional<double>{value.get<double>()};
}

}  // namespace

BOOST_AUTO_TEST_CASE(findings_match_the_reference) {
    const std::vector<json> vectors = read_vectors("findings.jsonl");
    BOOST_TEST(vectors.size() >= 1000u);
    Disagreements bad("findings.jsonl");
    for (const json& vec : vectors) {
        const json& expect = vec["expect"];
        std::vector<std::string> want;
        bool want_refused = false;
        for (const json& f : expect["findings"]) {
            const std::string severity = f["severity"].get<std::string>();
            want.push_back(finding_item(f["code"].get<std::string>(), severity, optional_string(f["subject"])));
            want_refused = want_refused || severity == "error";
        }
        std::sort(want.begin(), want.end());

        std::vector<std::string> got;
        std::string detail;
        bool agrees = false;
        try {
            const forge::ContractCheck check =
                vec["toml"].is_null() ? forge::check_contract(vectors_dir / "no-such-card")
                                      : forge::check_contract_text(vec["toml"].get<std::string>(), "window.toml");
            for (const forge::Finding& f : check.findings) {
                got.push_back(finding_item(f.code, forge::to_string(f.severity), f.subject));
                detail += "\n    " + got.back() + ": " + f.message;
            }
            std::sort(got.begin(), got.end());
            agrees = got == want && check.declared() == expect["declared"].get<bool>() &&
                     check.refused() == want_refused;
            detail = joined(got) + " declared=" + (check.declared() ? "true" : "false") +
                     " refused=" + (check.refused() ? "true" : "false") + detail;
        } catch (const std::exception& e) {
            detail = std::string{"threw: "} + e.what();
        }
        if (!agrees) {
            bad.add(vec, vec["toml"].dump(),
                    joined(want) + " declared=" + (expect["declared"].get<bool>() ? "true" : "false") +
                        " refused=" + (want_refused ? "true" : "false"),
                    detail);
        }
    }
    bad.report(vectors.size());
}

BOOST_AUTO_TEST_CASE(prep_problems_match_the_reference) {
    const std::vector<json> vectors = read_vectors("prep.jsonl");
    BOOST_TEST(vectors.size() >= 300u);
    Disagreements bad("prep.jsonl");
    for (const json& vec : vectors) {
        std::vector<std::string> want;
        for (const json& p : vec["expect"]["problems"]) {
            const json& workloads = p["workloads"];
            want.push_back(problem_item(p["code"].get<std::string>(), optional_string(p["subject"]),
                                        workloads.is_null() ? std::vector<std::string>{}
                                                            : workloads.get<std::vector<std::string>>()));
        }
        std::sort(want.begin(), want.end());

        std::vector<std::string> got;
        std::string detail;
        try {
            for (const forge::PrepProblem& p : forge::check_prep_report(contract_of(vec), vec["report"])) {
                got.push_back(problem_item(p.code, p.subject, p.workloads));
                detail += "\n    " + got.back() + ": " + p.message;
            }
            std::sort(got.begin(), got.end());
            detail = joined(got) + detail;
        } catch (const std::exception& e) {
            detail = std::string{"threw: "} + e.what();
        }
        if (got != want || detail.starts_with("threw: ")) {
            bad.add(vec, "toml=" + vec["toml"].dump() + " report=" + vec["report"].dump(), joined(want), detail);
        }
    }
    bad.report(vectors.size());
}

BOOST_AUTO_TEST_CASE(credit_matches_the_reference) {
    const std::vector<json> vectors = read_vectors("credit.jsonl");
    BOOST_TEST(vectors.size() >= 300u);
    Disagreements bad("credit.jsonl");
    std::size_t through_model = 0;
    for (const json& vec : vectors) {
        const json& expect = vec["expect"];
        std::string actual;
        std::string differs;
        auto check = [&](CreditDiff& diff, const std::optional<forge::Credit>& credit,
                         const std::optional<forge::CreditedRatio>& ratio) {
            compare_credit(diff, expect["credit"], credit);
            compare_ratio(diff, expect["ratio"], ratio);
            if (diff.text().empty()) return;
            differs += (differs.empty() ? "" : "; ") + diff.text();
            actual = "credit=" + (credit ? forge::to_json(*credit).dump() : "null") +
                     " ratio=" + (ratio ? forge::to_json(*ratio).dump() : "null");
        };
        // Straight through the API, where the model holds the case's rows as written.
        if (model_holds(vec)) {
            ++through_model;
            CreditDiff diff("");
            try {
                const std::optional<forge::Credit> credit =
                    forge::window_credit(contract_of(vec), reading(vec, "student"), reading(vec, "ref"));
                check(diff, credit,
                      forge::credited_ratio(credit, optional_number(vec["student_ms"]), optional_number(vec["ref_ms"])));
            } catch (const std::exception& e) {
                diff.differ("exception", "none", e.what());
                differs += diff.text();
            }
        }
        // As `forge credit` reads it: an eval.json with the case as its one workload.
        CreditDiff diff("eval: ");
        try {
            const forge::RunCredit run = forge::credit_run(contract_of(vec), forge::parse_eval(eval_text(vec), "eval.json"));
            if (run.workloads.size() != 1) throw std::runtime_error("credit_run did not give the one workload");
            check(diff, run.workloads.front().credit, run.workloads.front().ratio);
        } catch (const std::exception& e) {
            diff.differ("exception", "none", e.what());
            differs += (differs.empty() ? "" : "; ") + diff.text();
        }
        if (!differs.empty()) {
            json input = vec;
            input.erase("expect");
            input.erase("reference");
            bad.add(vec, input.dump(), expect.dump(), actual + "\n  differs:  " + differs);
        }
    }
    BOOST_TEST(through_model >= vectors.size() * 3 / 4);
    bad.report(vectors.size());
}
