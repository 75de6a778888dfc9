// A workload's tensors, before its first call: each accumulating output's start,
// the inputs of both input variants and the prep step's tensors on them (the
// pools), and each side's own copies of what it declares (its layouts); and,
// between rounds, the inputs of a fresh round.
#pragma once

#include "harness/workload_context.hpp"
#include "results/record.hpp"

namespace forge::bench {

// Fills the context's output specs, output starts, pools and each side's
// layouts (the Io bound to the first); the prep step's record goes to `result`.
// A declaration the bench does not keep (an output without a shape, a prep step
// writing outside its output, an input no one made) fails the run.
void make_workload_tensors(WorkloadContext& context, WorkloadRecord& result);

// The inputs of a fresh round (fresh_inputs.hpp) in the pool's fresh slot, from a
// seed of the kernel's random source, and the prep step on them; the seconds it took.
double draw_fresh_inputs(WorkloadContext& context);

}  // namespace forge::bench
