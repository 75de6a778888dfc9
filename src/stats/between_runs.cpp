#include "forge/stats/between_runs.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <vector>

#include <boost/math/distributions/normal.hpp>
#include <boost/math/distributions/students_t.hpp>

namespace forge::stats {

namespace {

// z such that +-z standard errors hold `confidence` of a normal estimate.
double normal_quantile(double confidence) {
    if (!(confidence > 0.0 && confidence < 1.0)) throw std::invalid_argument("confidence outside (0, 1)");
    return boost::math::quantile(boost::math::normal(), 0.5 + confidence / 2.0);
}

// The multiple of tau that holds `confidence` of the runs' spread when tau is
// estimated from `runs` runs: Student's t with runs - 1 degrees of freedom, as
// Hartung and Knapp's interval reads a few studies' spread. z would treat tau
// as known, and too small: of five runs, one that moved by d alone makes a
// standard deviation of 0.447 d, so z tau reaches 0.88 d and that run's
// interval never covers where the other four agree; t (2.78) tau reaches 1.24 d.
// Runs measured beside a noisy neighbour move that way, one busy run at a
// time: over the kept 5-run sets of tools/ratio-stability t covered the median
// more often than z (docs/lab/ratio-stability.md). For a normal spread t is
// conservative (~98%).
double spread_quantile(double confidence, std::size_t runs) {
    if (!(confidence > 0.0 && confidence < 1.0)) throw std::invalid_argument("confidence outside (0, 1)");
    if (runs < 2) return 0.0;  // no spread to scale
    const boost::math::students_t t(static_cast<double>(runs - 1));
    return boost::math::quantile(t, 0.5 + confidence / 2.0);
}

void require_positive(const RatioInterval& interval) {
    if (!(interval.ratio > 0.0 && interval.low > 0.0 && interval.high > 0.0) || !std::isfinite(interval.high)) {
        throw std::invalid_argument("a ratio interval with an end that is not a positive number");
    }
}

}  // namespace

RunEstimate run_estimate(const RatioInterval& interval, double confidence) {
    const double z = normal_quantile(confidence);
    require_positive(interval);
    return {.log_ratio = std::log(interval.ratio),
            .standard_error = std::log(interval.high / interval.low) / (2.0 * z)};
}

RatioInterval interval_of(const RunEstimate& run, double confidence) {
    const double z = normal_quantile(confidence);
    if (!std::isfinite(run.log_ratio) || !std::isfinite(run.standard_error) || run.standard_error < 0.0) {
        throw std::invalid_argument("a run estimate that is not a finite log-ratio with a standard error >= 0");
    }
    return {.ratio = std::exp(run.log_ratio),
            .low = std::exp(run.log_ratio - z * run.standard_error),
            .high = std::exp(run.log_ratio + z * run.standard_error)};
}

double between_run_variance(std::span<const RunEstimate> runs) {
    for (const RunEstimate& run : runs) {
        if (!std::isfinite(run.log_ratio) || !std::isfinite(run.standard_error) || run.standard_error < 0.0) {
            throw std::invalid_argument("a run estimate that is not a finite log-ratio with a standard error >= 0");
        }
    }
    if (runs.size() < 2) return 0.0;
    std::vector<double> weights;  // 1 / se^2
    for (const RunEstimate& run : runs) weights.push_back(1.0 / std::pow(std::max(run.standard_error, 1e-9), 2));
    double total = 0.0;
    double pooled = 0.0;
    for (std::size_t i = 0; i < runs.size(); ++i) {
        total += weights[i];
        pooled += weights[i] * runs[i].log_ratio;
    }
    pooled /= total;
    double q = 0.0;
    for (std::size_t i = 0; i < runs.size(); ++i) q += weights[i] * std::pow(runs[i].log_ratio - pooled, 2);
    // The denominator W - sum(w^2) / W, written sum_i w_i * (W - w_i) / W with
    // W - w_i summed from the other weights: beside a run with a zero-width
    // interval (weight 1e18) the first form cancels every other weight away.
    double denominator = 0.0;
    for (std::size_t i = 0; i < runs.size(); ++i) {
        double others = 0.0;
        for (std::size_t j = 0; j < runs.size(); ++j) others += j == i ? 0.0 : weights[j];
        denominator += weights[i] * others;
    }
    denominator /= total;
    return std::max(0.0, (q - static_cast<double>(runs.size() - 1)) / denominator);
}

RatioInterval with_between_run_spread(const RatioInterval& interval, std::span<const RunEstimate> runs,
                                      double confidence) {
    const double z = normal_quantile(confidence);
    require_positive(interval);
    const double spread = spread_quantile(confidence, runs.size()) * std::sqrt(between_run_variance(runs));
    double lowest = std::log(interval.low);  // the runs' own intervals' hull, log scale
    double highest = std::log(interval.high);
    for (const RunEstimate& run : runs) {
        lowest = std::min(lowest, run.log_ratio - z * run.standard_error);
        highest = std::max(highest, run.log_ratio + z * run.standard_error);
    }
    const double centre = std::log(interval.ratio);
    const double below = std::min(std::hypot(centre - std::log(interval.low), spread), centre - lowest);
    const double above = std::min(std::hypot(std::log(interval.high) - centre, spread), highest - centre);
    // Never narrower than `interval`, even by a rounding of exp(log(x)).
    return {.ratio = interval.ratio,
            .low = std::min(interval.low, std::exp(centre - below)),
            .high = std::max(interval.high, std::exp(centre + above))};
}

RatioInterval reaching_every_run(const RatioInterval& interval, std::span<const RunEstimate> runs) {
    require_positive(interval);
    RatioInterval reached = interval;
    for (const RunEstimate& run : runs) {
        if (!std::isfinite(run.log_ratio)) throw std::invalid_argument("a run estimate that is not a finite log-ratio");
        reached.low = std::min(reached.low, std::exp(run.log_ratio));
        reached.high = std::max(reached.high, std::exp(run.log_ratio));
    }
    return reached;
}

}  // namespace forge::stats
