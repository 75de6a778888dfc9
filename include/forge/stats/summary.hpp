// Order statistics of timed readings, and the geometric mean a verdict over
// workloads uses: the one copy every part of ForgeKernel uses.
//
//     std::vector<double> ms{7, 1, 3, 5, 9};
//     forge::stats::summarize(ms);   // n 5, min 1, q1 3, median 5, q3 7, max 9
#pragma once

#include <cstddef>
#include <span>

namespace forge::stats {

struct SampleSummary {
    std::size_t n = 0;
    double median = 0.0;
    double min = 0.0;
    double q1 = 0.0;
    double q3 = 0.0;
    double max = 0.0;
};

// Quartiles by linear interpolation between order statistics (numpy's default).
// Throws std::invalid_argument on no values or a NaN among them.
[[nodiscard]] SampleSummary summarize(std::span<const double> values);

// The q-quantile of sorted values, by the same interpolation; beside an
// infinite value, that infinity. Throws std::invalid_argument on no values or
// q outside [0, 1] (NaN included).
[[nodiscard]] double quantile_sorted(std::span<const double> sorted, double q);

// The median of values in any order. Throws as summarize() does.
[[nodiscard]] double median(std::span<const double> values);

// Throws std::invalid_argument on no values or a value that is not > 0 (NaN included).
[[nodiscard]] double geometric_mean(std::span<const double> values);

}  // namespace forge::stats
