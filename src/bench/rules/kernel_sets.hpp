// What makes a side's per-kernel table describe something other than its timed
// call: timed samples that ran another set of kernels (HOST: regions) than the
// profiled calls, and device work of a profiled call outside its window.
#pragma once

#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "forge/bench/bench.hpp"

#include "runtime/regions.hpp"
#include "runtime/runtime.hpp"

namespace forge::bench {

// Adds `names` to `seen`, the distinct kernel sets of a side's calls so far,
// unless an equal set is there.
void note_kernel_set(std::vector<KernelNames>& seen, KernelNames names);

// The notice when one of `samples` (a side's timed samples' kernel sets) differs
// from `profiled` (its first profiled call's kernels); nullopt when none does. A
// changed set is flagged, not failed: a data-dependent path (another algorithm
// for some inputs) can be legitimate, but the per-kernel table, and the credit
// priced from it, then describe only the profiled calls.
[[nodiscard]] std::optional<std::string> changed_kernel_set(Side side, const std::vector<KernelNames>& samples,
                                                            const std::set<std::string>& profiled);

// One kind of work a profiled call ran outside its window, as a problem.
struct UntimedWork {
    std::string_view kind;  // one problem per side and kind is reported
    std::string problem;
};

// Device work of a profiled call outside its window was not timed: left running
// past the window's end, or begun before its start (CUDA: a kernel on a stream
// that does not wait for the bench's, overlapping the input load and the flush).
// Each kind names its first kernel and says how to fix it.
[[nodiscard]] std::vector<UntimedWork> untimed_work(Side side, const Profile& profile);

}  // namespace forge::bench
