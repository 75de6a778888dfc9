// How a card's raw ratio moved from one run (OLD) to another (NEW), with an
// interval that holds for two runs, not one.
//
// The reference is timed beside the student in every round, so each run's
// ratio (reference_ms / student_ms) already controls for the machine's speed:
// the change compared is NEW ratio / OLD ratio. Each run's interval covers the
// spread between its own rounds, and says nothing of what stays level through
// one run and moves between runs (a neighbour's load, the memory's speed over
// tens of seconds; forge/stats/between_runs.hpp). Two runs of identical code
// differ by that as well, so the change's log-variance is
//
//     se_old^2 + se_new^2 + 2 tau^2
//
// with se each run's log standard error from its rounds alone and tau the
// standard deviation between runs of one bench's log-ratio: the larger of what
// either run's history measured and a floor learnt on this project's own
// repeated runs (docs/lab/README.md), since a run without a history, or with
// one of two runs, can show none.
//
//     RatioChange c = ratio_change({.within_run = old_interval}, {.within_run = new_interval});
//     c.change;     // 1.12: NEW is 12% faster against its reference than OLD
//     c.verdict();  // Change::improved: the interval's low end is above 1
#pragma once

#include <optional>
#include <string_view>

#include "forge/stats/ratio_interval.hpp"

namespace forge::stats {

// The least standard deviation between runs of one bench's log-ratio that a
// comparison assumes: DerSimonian and Laird's estimate over ten runs of
// identical layernorm_bwd on the project's lab machine (0.0285), rounded up.
// Without it, 14 of those runs' 45 pairs read as a change, the within-run
// intervals missing a spread that each run's own history (one run) could
// not show (docs/lab/README.md, "Comparing runs of identical code").
inline constexpr double between_runs_log_sd_floor = 0.03;

// One run of a card, as the comparison reads it.
struct ComparedRun {
    RatioInterval within_run;  // the ratio and the interval from this run's rounds alone
    // The log-ratio's standard deviation between this bench's kept runs
    // ("between_runs.log_sd"); absent without a history.
    std::optional<double> between_runs_log_sd;
};

enum class Change { improved, regressed, unchanged };

// "improved", "regressed", "unchanged (within noise)"
[[nodiscard]] std::string_view to_string(Change change) noexcept;

struct RatioChange {
    double change = 1.0;  // NEW ratio / OLD ratio: above 1, the student gained on its reference
    double low = 1.0;     // the interval's ends, low <= change <= high
    double high = 1.0;
    double between_runs_log_sd = 0.0;  // the tau assumed for each run (known or the floor)

    // improved when low > 1, regressed when high < 1, otherwise unchanged.
    [[nodiscard]] Change verdict() const noexcept;
    // A regression beyond `threshold` (e.g. 0.95: more than 5% slower
    // against the reference), the interval entirely below it.
    [[nodiscard]] bool regressed_below(double threshold) const noexcept { return high < threshold; }
};

// The change from `old_run` to `new_run` with its `confidence` interval: a
// normal interval on the log scale, exp(log change +- z sqrt(se_old^2 + se_new^2
// + 2 tau^2)), each se read off a run's interval as +-z standard errors
// (run_estimate), tau the largest of either run's between_runs_log_sd and
// `log_sd_floor`. Throws std::invalid_argument on an interval end not > 0, a
// between-runs spread or floor that is negative or not finite, or a confidence
// outside (0, 1).
[[nodiscard]] RatioChange ratio_change(const ComparedRun& old_run, const ComparedRun& new_run,
                                       double log_sd_floor = between_runs_log_sd_floor,
                                       double confidence = default_confidence);

}  // namespace forge::stats
