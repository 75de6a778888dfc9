// Whether the machine's speed moved during a workload's rounds. Paired rounds
// cancel a change that hits both sides of a round alike, but a reader should
// know the machine was not steady: a short calibration of fixed work is timed
// between rounds (runtime/calibration.hpp), and a run whose calibration moved
// is marked.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

namespace forge::bench {

struct Drift {
    std::vector<double> block_medians_ms;  // the calibration's median in each block of rounds, in order
    double moved = 0.0;                    // slowest block / fastest block - 1
    bool flagged = false;                  // moved more than the threshold
};

// Rounds are split into `blocks` consecutive blocks (fewer when there are fewer
// than 3 readings a block; none below 2 blocks: nothing is flagged). A block's
// median ignores a single slow reading; a step or a trend moves whole blocks.
[[nodiscard]] Drift calibration_drift(std::span<const double> calibration_ms, double threshold = 0.05,
                                      std::size_t blocks = 4);

}  // namespace forge::bench
