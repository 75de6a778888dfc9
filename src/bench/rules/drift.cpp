#include "rules/drift.hpp"

#include <algorithm>

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

}  // namespace forge::bench
