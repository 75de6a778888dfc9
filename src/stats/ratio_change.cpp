#include "forge/stats/ratio_change.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include <boost/math/distributions/normal.hpp>

#include "forge/stats/between_runs.hpp"

namespace forge::stats {

namespace {

double checked_spread(double log_sd) {
    if (!std::isfinite(log_sd) || log_sd < 0.0) {
        throw std::invalid_argument("a between-runs standard deviation that is not a finite number >= 0");
    }
    return log_sd;
}

}  // namespace

std::string_view to_string(Change change) noexcept {
    switch (change) {
        case Change::improved: return "improved";
        case Change::regressed: return "regressed";
        case Change::unchanged: break;
    }
    return "unchanged (within noise)";
}

Change RatioChange::verdict() const noexcept {
    if (low > 1.0) return Change::improved;
    if (high < 1.0) return Change::regressed;
    return Change::unchanged;
}

RatioChange ratio_change(const ComparedRun& old_run, const ComparedRun& new_run, double log_sd_floor,
                         double confidence) {
    // run_estimate checks both the intervals and the confidence.
    const RunEstimate before = run_estimate(old_run.within_run, confidence);
    const RunEstimate after = run_estimate(new_run.within_run, confidence);
    // Both runs moved by the spread between runs, whichever history saw it:
    // OLD's history holds runs like NEW's and the reverse.
    double tau = checked_spread(log_sd_floor);
    for (const ComparedRun* run : {&old_run, &new_run}) {
        if (run->between_runs_log_sd) tau = std::max(tau, checked_spread(*run->between_runs_log_sd));
    }
    const double z = boost::math::quantile(boost::math::normal(), 0.5 + confidence / 2.0);
    const double log_change = after.log_ratio - before.log_ratio;
    const double half_width = z * std::sqrt(before.standard_error * before.standard_error +
                                            after.standard_error * after.standard_error + 2.0 * tau * tau);
    return {.change = new_run.within_run.ratio / old_run.within_run.ratio,
            .low = std::exp(log_change - half_width),
            .high = std::exp(log_change + half_width),
            .between_runs_log_sd = tau};
}

}  // namespace forge::stats
