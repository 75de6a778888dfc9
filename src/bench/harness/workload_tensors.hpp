// A workload's tensors, before its first call: each accumulating output's start,
// the inputs of both input variants and the prep step's tensors on them (the
// pools), and each side's own copies of what it declares (its layouts); and,
// between rounds, the inputs of a fresh round.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "harness/findings.hpp"
#include "harness/run_state.hpp"
#include "harness/side_state.hpp"
#include "results/record.hpp"

namespace forge::bench {

struct WorkloadTensors {
    // Every input and prep tensor, per variant, on the backend; the last slot
    // holds the latest fresh round's (draw_fresh_inputs).
    static constexpr std::size_t fresh_slot = input_variants;

    std::map<std::string, TensorSpec> output_specs;
    std::array<Tensors, input_variants + 1> pools;
    Tensors output_starts;  // accumulating outputs' starting values, on the backend
    std::array<std::map<std::string, std::uint64_t>, input_variants + 1> prep_checksums;
    std::vector<std::string> made_names;  // the inputs the bench's inputs() made
    std::vector<std::string> prep_names;  // the tensors the prep step produced
    std::vector<std::string> prep_read;   // the made inputs the prep step read (variant 0)
    std::set<std::string> mutated;        // prep tensors a call changed, reported
};

// The output specs, output starts and pools; the prep step's record goes to
// `result`. A declaration the bench does not keep (an output without a shape, a
// prep step writing outside its output) fails the run.
[[nodiscard]] WorkloadTensors make_workload_tensors(RunState run, Findings& findings, WorkloadRecord& result);

// The most layouts the workload's tensors may have (LayoutGrowth::most, fewer
// where that many copies of both sides' tensors pass 2 GiB).
[[nodiscard]] std::size_t most_layouts(RunState run, const WorkloadTensors& tensors);

// Each side's first layouts (LayoutGrowth::initial, at most most_layouts()),
// the Io bound to the first. An input no one made fails the run.
void make_layouts(RunState run, const WorkloadTensors& tensors, SideStates& states, Findings& findings);

// Each side's layouts, up to `count`: copies allocated as make_layouts' are.
void add_layouts(RunState run, const WorkloadTensors& tensors, SideStates& states, std::size_t count);

// The inputs of a fresh round (fresh_inputs.hpp) in the pool's fresh slot, from a
// seed of the kernel's random source, and the prep step on them; the seconds it took.
double draw_fresh_inputs(RunState run, WorkloadTensors& tensors, Findings& findings);

// A call's inputs from pool slot `slot`, left out of the caches
// (Runtime::copy_uncached), and its accumulating outputs at their start:
// outside the window.
void load(Runtime& runtime, const WorkloadTensors& tensors, SideState& state, int slot);

// `tensor` on the host: itself there, else a copy into `scratch`.
const Tensor& to_host(Runtime& runtime, const Tensor& tensor, Tensors& scratch);

}  // namespace forge::bench
