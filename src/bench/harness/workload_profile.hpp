// A workload's profiled calls: each side's per-kernel (HOST: per-region) table,
// taken outside every timed sample, and whether its timed samples' kernel sets
// matched the profiled calls'.
#pragma once

#include "harness/workload_context.hpp"
#include "results/record.hpp"

namespace forge::bench {

// Several profiled calls per side, interleaved like the rounds; fills each
// side's kernels and kernel_set_changed in `result`, whose rounds (their
// selection) and timed medians say which calls to keep and how many to take.
void profile_sides(WorkloadContext& context, WorkloadRecord& result);

}  // namespace forge::bench
