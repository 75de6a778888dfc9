// `forge compare OLD NEW`: did a change make each card's student faster
// against its reference than it was? Every card of the OLD run set is matched
// by operator name to the NEW one's, and its raw ratio's change is judged with
// forge/stats/ratio_change.hpp's interval; a card on one side alone is listed
// as added or removed.
#pragma once

#include <filesystem>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "forge/eval/eval.hpp"
#include "forge/stats/ratio_change.hpp"

namespace forge {

// The eval files `path` names: the file itself, or every `eval.json` and
// `*.eval.json` below a directory (a build tree, a copied results folder), in
// path order. Throws std::runtime_error naming the path when it does not exist
// or a directory holds none.
[[nodiscard]] std::vector<std::filesystem::path> eval_files(const std::filesystem::path& path);

// Every eval of one run (eval_files(path), each read): a file eval_files
// names that is not there is an EvalError, not a card that did not run, so a
// comparison never quietly loses it. Throws as eval_files and load_eval do.
[[nodiscard]] std::vector<EvalReport> load_run(const std::filesystem::path& path);

// How a card (or one of its workloads) reads across the two runs.
enum class CardStatus { compared, no_verdict, added, removed };

// One workload of a card in both runs, matched by workload name: its raw
// ratio's change judged as the card's is (the same interval, from the
// workload's own ratio_ci, or between_runs.within_run_ci, and
// between_runs.log_sd). A workload in one run alone is added or removed.
struct WorkloadComparison {
    std::string name;  // the workload's "name"
    std::optional<double> old_ratio;
    std::optional<double> new_ratio;
    CardStatus status = CardStatus::compared;
    std::optional<stats::RatioChange> change;  // when compared
    std::string note;                          // no verdict: why
};

struct CardComparison {
    std::string name;      // the evals' "operator"
    std::string old_eval;  // the files; "" on the side without the card
    std::string new_eval;
    std::optional<double> old_ratio;
    std::optional<double> new_ratio;
    CardStatus status = CardStatus::compared;
    std::optional<stats::RatioChange> change;  // when compared
    std::string note;                          // no verdict: why (a skipped or failed bench, no interval)
    // What tells the two runs' machines apart (machine_changes), for a card in both runs.
    std::vector<std::string> machine_notes;
    // Each workload's change, OLD's workloads first in OLD's order, then those
    // of NEW alone; empty where the card is not in both runs or a run of it was
    // skipped or failed. Information beside the card's: the exit code reads
    // the cards' changes alone.
    std::vector<WorkloadComparison> workloads;
};

struct Comparison {
    std::vector<CardComparison> cards;  // by name
    double threshold = 1.0;             // a regression counts (exit 1) when the change's interval is entirely below it

    // The cards whose change's interval lies entirely below the threshold.
    [[nodiscard]] std::size_t regressions() const noexcept;
    // Whether any card was compared (has a change with its interval).
    [[nodiscard]] bool any_compared() const noexcept;
};

// Why two runs of a card may not have met the same machine, in words: another
// host or device (the reference in each run is the control for the machine's
// speed, not for how each side's work suits another machine), or a run that
// read its machine busier than the bench's earlier runs there. Empty: nothing
// on record tells them apart (older files record neither).
[[nodiscard]] std::vector<std::string> machine_changes(const EvalReport& old_eval, const EvalReport& new_eval);

// Matches the runs' cards by operator name (an eval without one: its file
// name). Throws std::runtime_error naming both files when one side holds two
// evals of the same operator.
[[nodiscard]] Comparison compare_runs(const std::vector<EvalReport>& old_run, const std::vector<EvalReport>& new_run,
                                      double threshold = 1.0);

void render_comparison_text(std::ostream& out, const Comparison& comparison, bool colour);
void render_comparison_markdown(std::ostream& out, const Comparison& comparison);
// One self-contained page (inline CSS and SVG, as forge report's): each card's
// change drawn against 1 with its interval and verdict, and a table whose rows
// carry the figures in data- attributes (data-name, data-verdict,
// data-old-ratio, data-new-ratio, data-change, data-change-low,
// data-change-high, data-counts-as-regression), as the shortest text that
// reads back as the same number.
// Rows of the cards' workloads follow each card's (tr.workload-change, with
// data-card, and no data-counts-as-regression: the exit code reads cards alone).
void render_comparison_html(std::ostream& out, const Comparison& comparison);
// The page's body as a section of another page (forge report --compare-with):
// `heading` (escaped), the counts, the chart and the table, as
// render_comparison_html draws them.
void render_comparison_section(std::ostream& out, const Comparison& comparison, std::string_view heading);
// {"threshold", "between_runs_log_sd_floor", "regressions", "cards": [{"name", "old_eval", "new_eval",
//  "old_ratio", "new_ratio", "status" ("compared" | "no verdict" | "added" | "removed"),
//  "verdict" ("improved" | "regressed" | "unchanged" | null), "change", "change_ci", "between_runs_log_sd",
//  "counts_as_regression", "note", "machine_notes": [...], "workloads": [{"name", "old_ratio", "new_ratio",
//  "status", "verdict", "change", "change_ci", "between_runs_log_sd", "note"}]}]}
[[nodiscard]] nlohmann::json comparison_json(const Comparison& comparison);

}  // namespace forge
