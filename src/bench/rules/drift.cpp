#include "rules/drift.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include <boost/math/distributions/chi_squared.hpp>

#include "forge/stats/summary.hpp"

namespace forge::bench {

Drift calibration_drift(std::span<const double> calibration_ms, double threshold, std::size_t blocks) {
    Drift drift;
    blocks = std::min(blocks, calibration_ms.size() / 3);
    if (blocks < 2) return drift;
    const std::size_t per_block = calibration_ms.size() / blocks;
    for (std::size_t b = 0; b < blocks; ++b) {
        // The last block takes the remainder.
        const std::size_t end = b + 1 == blocks ? calibration_ms.size() : (b + 1) * per_block;
        drift.block_medians_ms.push_back(stats::median(calibration_ms.subspan(b * per_block, end - b * per_block)));
    }
    const auto [fastest, slowest] = std::minmax_element(drift.block_medians_ms.begin(), drift.block_medians_ms.end());
    if (*fastest > 0.0) drift.moved = *slowest / *fastest - 1.0;
    drift.flagged = drift.moved > threshold;
    return drift;
}

RatioDrift ratio_drift(std::span<const double> log_ratios, std::size_t blocks, double alpha, double threshold) {
    RatioDrift drift;
    const std::size_t n = log_ratios.size();
    blocks = std::min(blocks, n / 4);
    if (blocks < 2) return drift;
    // Average ranks, ties sharing theirs, and the ties' correction of H.
    std::vector<std::size_t> order(n);
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return log_ratios[a] < log_ratios[b]; });
    std::vector<double> rank(n);
    double ties = 0.0;
    for (std::size_t i = 0; i < n;) {
        std::size_t j = i;
        while (j + 1 < n && log_ratios[order[j + 1]] == log_ratios[order[i]]) ++j;
        const double shared = static_cast<double>(i + j) / 2.0 + 1.0;
        for (std::size_t k = i; k <= j; ++k) rank[order[k]] = shared;
        const auto t = static_cast<double>(j - i + 1);
        ties += t * t * t - t;
        i = j + 1;
    }
    const auto count = static_cast<double>(n);
    double h = 0.0;
    for (std::size_t b = 0; b < blocks; ++b) {
        const std::size_t begin = b * n / blocks;
        const std::size_t end = (b + 1) * n / blocks;
        const std::span<const double> block = log_ratios.subspan(begin, end - begin);
        double rank_sum = 0.0;
        for (std::size_t r = begin; r < end; ++r) rank_sum += rank[r];
        h += rank_sum * rank_sum / static_cast<double>(block.size());
        drift.block_ratios.push_back(std::exp(stats::median(block)));
    }
    h = 12.0 / (count * (count + 1.0)) * h - 3.0 * (count + 1.0);
    if (const double correction = 1.0 - ties / (count * count * count - count); correction > 0.0) h /= correction;
    drift.kruskal_wallis_h = std::max(h, 0.0);
    const boost::math::chi_squared chi_squared(static_cast<double>(blocks - 1));
    drift.p_value = boost::math::cdf(boost::math::complement(chi_squared, drift.kruskal_wallis_h));
    const auto [lowest, highest] = std::minmax_element(drift.block_ratios.begin(), drift.block_ratios.end());
    drift.moved = *highest / *lowest - 1.0;
    drift.flagged = drift.p_value < alpha && drift.moved > threshold;
    return drift;
}

}  // namespace forge::bench
