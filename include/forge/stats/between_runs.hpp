// How far a ratio moves between runs of the same bench on the same machine,
// beyond what each run's own interval allows, and the interval that includes it.
//
// A run's rounds see one stretch of the machine: paired rounds cancel what hits
// both sides of a round, and the interval covers the spread between rounds. What
// stays level for a whole run and moves between runs (a neighbour's load, the
// memory's speed over tens of seconds) shifts the next run's ratio by more than
// its interval allows, and no run sees that from inside. Runs of the same bench
// measure it: the spread of their ratios beyond their intervals is a variance
// between runs, added to each run's own (a random-effects model).
//
//     std::vector<RunEstimate> runs{run_estimate(earlier), run_estimate(now)};
//     double tau = std::sqrt(between_run_variance(runs));  // log scale
//     RatioInterval across = with_between_run_spread(now, runs);
#pragma once

#include <span>

#include "forge/stats/ratio_interval.hpp"

namespace forge::stats {

// One run's ratio on the log scale, with the standard error its interval implies.
struct RunEstimate {
    double log_ratio = 0.0;
    double standard_error = 0.0;
};

// The interval read as +-z standard errors of the log-ratio (its log width / 2z).
// Throws std::invalid_argument on a ratio or end not > 0, or a confidence outside (0, 1).
[[nodiscard]] RunEstimate run_estimate(const RatioInterval& interval, double confidence = default_confidence);

// The interval an estimate stands for, exp(log_ratio +- z standard_error): the
// inverse of run_estimate for an interval symmetric on the log scale (a kept
// run's, drawn from the run history). Throws std::invalid_argument on a
// confidence outside (0, 1), a log-ratio that is not finite or a standard
// error that is negative or not finite.
[[nodiscard]] RatioInterval interval_of(const RunEstimate& run, double confidence = default_confidence);

// DerSimonian and Laird's moment estimate of the variance tau^2 of the runs'
// true log-ratios: the weighted spread Q of the log-ratios beyond the k - 1 their
// standard errors explain, scaled by the weights. 0 with fewer than two runs and
// when the runs agree within their errors. A standard error of 0 (every round
// alike) counts as 1e-9. Throws std::invalid_argument on NaN, infinity or a
// negative standard error.
[[nodiscard]] double between_run_variance(std::span<const RunEstimate> runs);

// `interval` (this run's, from its rounds alone) with the spread between `runs`
// (this one among them) added in quadrature on each side: each log half-width h
// becomes sqrt(h^2 + (t tau)^2), tau^2 from between_run_variance and t Student's
// quantile with (runs - 1) degrees of freedom (tau is estimated from few runs;
// with two, t is 12.7 and the bound below decides). It never
// reaches past the runs' own intervals (the lowest low and the highest high,
// each read as +-z standard errors): runs that measured 1.4 and 2.0 make 1.7
// uncertain, not 0.9 plausible. Never narrower than `interval`. Throws as
// run_estimate and between_run_variance do.
[[nodiscard]] RatioInterval with_between_run_spread(const RatioInterval& interval,
                                                    std::span<const RunEstimate> runs,
                                                    double confidence = default_confidence);

// `interval` reaching every one of `runs`' ratios as well: for a run that
// measured another state of the machine than the runs it is compared with
// (busier), whose ratio tells where the ratio is on this machine no better
// than theirs. Never narrower than `interval`. Throws as run_estimate does
// on an interval end not > 0.
[[nodiscard]] RatioInterval reaching_every_run(const RatioInterval& interval, std::span<const RunEstimate> runs);

}  // namespace forge::stats
