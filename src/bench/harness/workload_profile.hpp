// A workload's profiled calls: each side's per-kernel (HOST: per-region) table,
// taken outside every timed sample, and whether its timed samples' kernel sets
// matched the profiled calls'.
#pragma once

#include "harness/findings.hpp"
#include "harness/run_state.hpp"
#include "harness/side_state.hpp"
#include "harness/workload_tensors.hpp"
#include "results/record.hpp"

namespace forge::bench {

// Several profiled calls per side, interleaved like the rounds; fills each
// side's kernels and kernel_set_changed in `result`, whose rounds (their
// selection) and timed medians say which calls to keep and how many to take.
void profile_sides(RunState run, WorkloadTensors& tensors, SideStates& states, Findings& findings,
                   WorkloadRecord& result);

}  // namespace forge::bench
