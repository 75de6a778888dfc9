// What an A/A run (against_itself.hpp) says about the card: identical code on
// both sides, so every interval that leaves out 1 calls identical code faster
// or slower, and how far an interval reaches from its ratio is the smallest
// change the card tells apart at its settings. docs/design/measurement.md.
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

#include "forge/contract/contract.hpp"
#include "forge/stats/ratio_interval.hpp"

namespace forge::bench {

struct NoiseFloor {
    Side side = Side::reference;  // the side timed against itself
    std::size_t workloads = 0;
    std::size_t workloads_called_apart = 0;  // whose interval leaves out 1
    bool run_called_apart = false;           // the geometric mean's interval leaves out 1
    // The farthest any interval's end lies from 1, the true ratio (max of
    // high - 1 and 1 - low, over the workloads and the geometric mean): an
    // interval as wide and as far off as this run's could read a true change
    // of less than that either way, so only a larger one is told apart.
    double resolves = 0.0;
};

[[nodiscard]] NoiseFloor noise_floor(Side side, const std::vector<stats::RatioInterval>& workloads,
                                     const std::optional<stats::RatioInterval>& run);

}  // namespace forge::bench
