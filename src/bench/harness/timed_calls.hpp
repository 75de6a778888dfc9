// A workload's timed calls: the warm-up, the paired rounds the ratio comes from,
// and the pipelined batches.
#pragma once

#include <vector>

#include "harness/findings.hpp"
#include "harness/run_state.hpp"
#include "harness/side_state.hpp"
#include "harness/workload_tensors.hpp"
#include "results/record.hpp"
#include "rules/stopping.hpp"

namespace forge::bench {

// Warm-up, then paired rounds until the ratio's interval is as narrow as
// `stopping` asks. Each round times both sides back to back on the same input
// variant, so a change of machine state (a neighbour, a frequency step) lands on
// both sides of a round; which goes first, the variant and the layout follow
// RoundSchedule. Fills `result`'s rounds, ratio, stop, ms columns and drift.
// `continued`: a retake's first measurement, whose rounds count with these.
// Fresh rounds' output comparisons count in `outputs` (check_fresh_outputs).
void measure_rounds(RunState run, WorkloadTensors& tensors, SideStates& states, Findings& findings,
                    std::vector<OutputCheck>& outputs, const StoppingParameters& stopping,
                    const WorkloadRecord* continued, WorkloadRecord& result);

// Pipelined: N calls back to back on one input set, from a flushed cache, N
// sized from each side's median; fills each side's pipelined_calls and _ms.
void measure_pipelined(RunState run, WorkloadTensors& tensors, SideStates& states, Findings& findings,
                       WorkloadRecord& result);

}  // namespace forge::bench
