// Order statistics of timed samples, and the geometric mean the verdict uses.
#pragma once

#include <cstddef>
#include <span>

namespace forge::bench {

struct SampleSummary {
    std::size_t n = 0;
    double median = 0.0;
    double min = 0.0;
    double q1 = 0.0;
    double q3 = 0.0;
    double max = 0.0;
};

// Quartiles by linear interpolation between order statistics (numpy's default).
// Throws std::invalid_argument on no samples.
[[nodiscard]] SampleSummary summarize(std::span<const double> samples);

// The q-quantile (0 <= q <= 1) of sorted values, by the same interpolation.
[[nodiscard]] double quantile_sorted(std::span<const double> sorted, double q);

// Throws std::invalid_argument on no values or a value <= 0.
[[nodiscard]] double geometric_mean(std::span<const double> values);

}  // namespace forge::bench
