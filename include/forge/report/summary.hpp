// `forge report`: one line per operator over many eval.json files: the raw
// ratio (the verdict) with its interval and verdict word, the credited ratio
// beside it, the prep check and the bench's correctness; each side's GFLOP/s and
// GB/s where a bench declared its work. A skipped bench is listed with its reason.
#pragma once

#include <cstddef>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "forge/credit/credit.hpp"
#include "forge/eval/eval.hpp"
#include "forge/eval/run_history.hpp"

namespace forge {

struct OperatorSummary {
    std::string name;           // the eval's operator, else its path; an A/A run's says so
    std::string operator_name;  // the eval's operator ("" when it names none)
    std::string eval_path;
    std::string backend;    // "host", "cuda", or "" when not reported
    bool ran = false;       // an eval file exists and the bench was not skipped
    std::optional<std::string> skipped;  // why the bench skipped itself ("skipped.reason")
    std::size_t workloads = 0;
    std::optional<double> reference_ms;
    std::optional<double> student_ms;
    Throughput reference_throughput;         // over the workloads, where the bench declared its work
    Throughput student_throughput;
    std::optional<double> raw_ratio;
    std::optional<RatioCi> ratio_ci;         // the raw ratio's 95% interval (older evals: none)
    std::optional<std::string> verdict;      // faster / slower / indistinguishable
    std::optional<bool> precision_reached;   // false: the time cap came before the precision target
    bool quick = false;                      // a --quick run: fewer rounds, a looser precision target
    std::optional<double> credited_ratio;
    // An A/A run (the bench's --a-a): one side timed against itself; its row
    // is the card's noise floor, and a row of the same operator shows it.
    std::optional<NoiseFloorReading> a_a;
    std::string prep;         // "held", "not needed", "2 problems", "no contract", "contract refused", ...
    std::string correctness;  // "passed", "FAILED", "not reported", "not run"
    std::vector<std::string> notes;  // why a figure is missing; what the bench caught or flagged

    [[nodiscard]] bool healthy() const noexcept;  // ran, correct, prep held or not needed
};

// An operator's summary with the readings it was made from, for a report that
// shows more than one row per operator (the HTML page's workloads and credit).
struct OperatorReport {
    OperatorSummary summary;
    std::optional<EvalReport> eval;  // absent: no eval file at the path
    // Each workload's credit; absent where the contract was not held to the eval
    // (none named, refused, changed since the run, a skipped bench) or a regex failed.
    std::optional<RunCredit> credit;
    // The bench's kept runs beside the eval (forge/eval/run_history.hpp); absent
    // without a history file, for a bench that did not measure, or where the
    // file could not be read (a note on the summary then names it).
    std::optional<RunHistory> history;
};

// The widest noise floor (NoiseFloorReading::resolves) that an A/A row of
// `row`'s operator among `rows` gives it; none for an A/A row itself, a row
// that did not run, or an operator with no A/A row.
[[nodiscard]] std::optional<double> noise_floor_for(const OperatorSummary& row,
                                                    const std::vector<OperatorSummary>& rows);

// Reads the eval (absent: a row saying the bench did not run) and the contract
// it names ("contract" key) for the prep check and the credit. Throws EvalError
// when the eval is malformed.
[[nodiscard]] OperatorReport read_operator(const std::string& eval_path);
// read_operator(eval_path).summary
[[nodiscard]] OperatorSummary summarize_eval(const std::string& eval_path);

void render_summary_text(std::ostream& out, const std::vector<OperatorSummary>& rows, bool colour);
void render_summary_markdown(std::ostream& out, const std::vector<OperatorSummary>& rows);
// {"operators": [{"name", "eval", "backend", "ran", "skipped", "workloads", "reference_ms", "student_ms",
//  "throughput" ({"reference": {"gflops", "gbps", "peak_dram_bandwidth_fraction"}, "student": {...}} or null),
//  "raw_ratio", "ratio_ci", "verdict", "precision_reached", "quick", "credited_ratio", "prep", "correctness",
//  "notes"}]}
[[nodiscard]] nlohmann::json summary_json(const std::vector<OperatorSummary>& rows);

}  // namespace forge
