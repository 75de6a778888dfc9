#include "statistics.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <vector>

namespace forge::bench {

double quantile_sorted(std::span<const double> sorted, double q) {
    if (sorted.empty()) throw std::invalid_argument("quantile of no samples");
    const double position = q * static_cast<double>(sorted.size() - 1);
    const auto below = static_cast<std::size_t>(std::floor(position));
    const std::size_t above = std::min(below + 1, sorted.size() - 1);
    const double weight = position - static_cast<double>(below);
    return sorted[below] + weight * (sorted[above] - sorted[below]);
}

SampleSummary summarize(std::span<const double> samples) {
    if (samples.empty()) throw std::invalid_argument("summary of no samples");
    std::vector<double> sorted(samples.begin(), samples.end());
    std::sort(sorted.begin(), sorted.end());
    return SampleSummary{.n = sorted.size(),
                         .median = quantile_sorted(sorted, 0.5),
                         .min = sorted.front(),
                         .q1 = quantile_sorted(sorted, 0.25),
                         .q3 = quantile_sorted(sorted, 0.75),
                         .max = sorted.back()};
}

double geometric_mean(std::span<const double> values) {
    if (values.empty()) throw std::invalid_argument("geometric mean of no values");
    double log_sum = 0.0;
    for (double value : values) {
        if (!(value > 0.0)) throw std::invalid_argument("geometric mean of a value that is not positive");
        log_sum += std::log(value);
    }
    return std::exp(log_sum / static_cast<double>(values.size()));
}

}  // namespace forge::bench
