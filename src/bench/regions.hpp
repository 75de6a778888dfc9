// Recording the named regions (forge/bench/region.hpp) of one profiled HOST call.
#pragma once

#include <vector>

#include "forge/table/kernel_table.hpp"

namespace forge::bench {

// While one exists, regions entered on any thread record their exclusive time.
// One at a time: the harness profiles one call at a time.
class RegionRecording {
public:
    RegionRecording();
    ~RegionRecording();
    RegionRecording(const RegionRecording&) = delete;
    RegionRecording& operator=(const RegionRecording&) = delete;

    // One row per region exit (name, 1 launch, exclusive ns), in exit order.
    [[nodiscard]] std::vector<KernelRow> rows() const;
};

}  // namespace forge::bench
