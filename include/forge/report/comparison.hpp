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

// How a card reads across the two runs.
enum class CardStatus { compared, no_verdict, added, removed };

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
void render_comparison_html(std::ostream& out, const Comparison& comparison);
// {"threshold", "between_runs_log_sd_floor", "regressions", "cards": [{"name", "old_eval", "new_eval",
//  "old_ratio", "new_ratio", "status" ("compared" | "no verdict" | "added" | "removed"),
//  "verdict" ("improved" | "regressed" | "unchanged" | null), "change", "change_ci", "between_runs_log_sd",
//  "counts_as_regression", "note", "machine_notes": [...]}]}
[[nodiscard]] nlohmann::json comparison_json(const Comparison& comparison);

}  // namespace forge
