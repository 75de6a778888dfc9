// Recording the named regions (forge/bench/region.hpp, region.h) of one profiled HOST call.
#pragma once

#include <set>
#include <string>
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
    // The time the regions' own readings (and the recording of their rows) took
    // on the recording thread, which no row holds.
    [[nodiscard]] double readings_ns() const;
};

// The distinct kernels (HOST: regions) a call ran; `complete` is false when the
// log saw only a part of them (more than it holds, or launches without a name).
struct KernelNames {
    std::set<std::string> names;
    bool complete = true;

    friend bool operator==(const KernelNames&, const KernelNames&) = default;
};

// While one exists, regions entered on any thread note their names but not their
// time: a few relaxed atomic loads per region, cheap enough inside a timed call.
// Shares RegionRecording's slot: one of either at a time.
class RegionNameLog {
public:
    RegionNameLog();
    ~RegionNameLog();
    RegionNameLog(const RegionNameLog&) = delete;
    RegionNameLog& operator=(const RegionNameLog&) = delete;

    [[nodiscard]] KernelNames names() const;
};

// What a call left unbalanced of the C regions (forge/bench/region.h) on the
// calling thread: regions begun and not ended, and ends with no region begun.
struct UnbalancedCRegions {
    int open = 0;
    int unmatched_ends = 0;
};

// Reads and clears them, closing the open ones, so that the next call starts balanced.
[[nodiscard]] UnbalancedCRegions take_unbalanced_c_regions() noexcept;

}  // namespace forge::bench
