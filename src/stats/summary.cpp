#include "forge/stats/summary.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <vector>

namespace forge::stats {

namespace {

// Sorted copy; NaN is refused before std::sort, whose ordering it would break.
std::vector<double> sorted_copy(std::span<const double> values, const char* what) {
    if (values.empty()) throw std::invalid_argument(std::string(what) + " of no values");
    if (std::any_of(values.begin(), values.end(), [](double v) { return std::isnan(v); })) {
        throw std::invalid_argument(std::string(what) + " of values that include NaN");
    }
    std::vector<double> sorted(values.begin(), values.end());
    std::sort(sorted.begin(), sorted.end());
    return sorted;
}

}  // namespace

double quantile_sorted(std::span<const double> sorted, double q) {
    if (sorted.empty()) throw std::invalid_argument("quantile of no values");
    if (!(q >= 0.0 && q <= 1.0)) throw std::invalid_argument("quantile outside [0, 1]");
    // numpy's "linear": position q * (n - 1), interpolated between its neighbours.
    const double position = q * static_cast<double>(sorted.size() - 1);
    const auto below = static_cast<std::size_t>(std::floor(position));
    const std::size_t above = std::min(below + 1, sorted.size() - 1);
    const double weight = position - static_cast<double>(below);
    const double low = sorted[below];
    const double high = sorted[above];
    if (weight == 0.0 || low == high) return low;
    // An infinite neighbour: the value is that infinity (the nearer one when
    // both are), where low + weight * (high - low) would read inf - inf as NaN.
    if (std::isinf(low) && std::isinf(high)) return weight < 0.5 ? low : high;
    if (std::isinf(low)) return low;
    if (std::isinf(high)) return high;
    return low + weight * (high - low);
}

SampleSummary summarize(std::span<const double> values) {
    const std::vector<double> sorted = sorted_copy(values, "summary");
    return SampleSummary{.n = sorted.size(),
                         .median = quantile_sorted(sorted, 0.5),
                         .min = sorted.front(),
                         .q1 = quantile_sorted(sorted, 0.25),
                         .q3 = quantile_sorted(sorted, 0.75),
                         .max = sorted.back()};
}

double median(std::span<const double> values) { return quantile_sorted(sorted_copy(values, "median"), 0.5); }

double geometric_mean(std::span<const double> values) {
    if (values.empty()) throw std::invalid_argument("geometric mean of no values");
    double log_sum = 0.0;
    for (double value : values) {
        if (!(value > 0.0)) throw std::invalid_argument("geometric mean of a value that is not positive");
        log_sum += std::log(value);
    }
    return std::exp(log_sum / static_cast<double>(values.size()));
}

}  // namespace forge::stats
