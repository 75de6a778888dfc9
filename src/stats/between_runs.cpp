#include "forge/stats/between_runs.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include <boost/math/distributions/normal.hpp>

namespace forge::stats {

namespace {

// z such that +-z standard errors hold `confidence` of a normal estimate.
double normal_quantile(double confidence) {
    if (!(confidence > 0.0 && confidence < 1.0)) throw std::invalid_argument("confidence outside (0, 1)");
    return boost::math::quantile(boost::math::normal(), 0.5 + confidence / 2.0);
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

double between_run_variance(std::span<const RunEstimate> runs) {
    for (const RunEstimate& run : runs) {
        if (!std::isfinite(run.log_ratio) || !std::isfinite(run.standard_error) || run.standard_error < 0.0) {
            throw std::invalid_argument("a run estimate that is not a finite log-ratio with a standard error >= 0");
        }
    }
    if (runs.size() < 2) return 0.0;
    double weights = 0.0;
    double squared_weights = 0.0;
    double weighted_sum = 0.0;
    for (const RunEstimate& run : runs) {
        const double se = std::max(run.standard_error, 1e-9);
        const double w = 1.0 / (se * se);
        weights += w;
        squared_weights += w * w;
        weighted_sum += w * run.log_ratio;
    }
    const double pooled = weighted_sum / weights;
    double q = 0.0;
    for (const RunEstimate& run : runs) {
        const double se = std::max(run.standard_error, 1e-9);
        q += (run.log_ratio - pooled) * (run.log_ratio - pooled) / (se * se);
    }
    const double scale = weights - squared_weights / weights;
    return std::max(0.0, (q - static_cast<double>(runs.size() - 1)) / scale);
}

RatioInterval with_between_run_spread(const RatioInterval& interval, double tau, double confidence) {
    const double z = normal_quantile(confidence);
    require_positive(interval);
    if (!(tau >= 0.0) || !std::isfinite(tau)) throw std::invalid_argument("a between-run spread that is not >= 0");
    const double spread = z * tau;
    const double below = std::log(interval.ratio / interval.low);
    const double above = std::log(interval.high / interval.ratio);
    // Never narrower than `interval`, even by a rounding of exp(log(x)).
    return {.ratio = interval.ratio,
            .low = std::min(interval.low, interval.ratio * std::exp(-std::hypot(below, spread))),
            .high = std::max(interval.high, interval.ratio * std::exp(std::hypot(above, spread)))};
}

}  // namespace forge::stats
