// One side's state for a workload's calls: its own copies of its tensors (its
// layouts), the Io its calls see, its untimed outputs and the kernels its timed
// samples ran; and what is done with it before and at a call.
#pragma once

#include <array>
#include <cstddef>
#include <deque>
#include <string>
#include <utility>
#include <vector>

#include "forge/bench/bench.hpp"

#include "definition.hpp"

#include "harness/findings.hpp"
#include "rules/declarations.hpp"
#include "rules/kernel_sets.hpp"
#include "runtime/runtime.hpp"

namespace forge::bench {

// One copy of a side's tensors, at addresses of its own.
struct Layout {
    Tensors inputs;   // on the backend
    Tensors outputs;  // on the backend
};

struct SideState {
    SideState(Side which, Io side_io) : side(which), io(std::move(side_io)) {}

    [[nodiscard]] Tensors& inputs() { return layouts[layout].inputs; }
    [[nodiscard]] Tensors& outputs() { return layouts[layout].outputs; }
    [[nodiscard]] const Tensors& inputs() const { return layouts[layout].inputs; }
    [[nodiscard]] const Tensors& outputs() const { return layouts[layout].outputs; }

    // Points the Io at layouts[l]: its inputs and outputs, in the declared order.
    void use_layout(std::size_t l);

    Side side;
    std::deque<Layout> layouts;  // the side's copies; the Io sees layouts[layout]
    std::size_t layout = 0;
    Io io;
    std::vector<std::string> prep_inputs;          // the prep tensors among its inputs
    std::array<Tensors, input_variants> expected;  // host copies of its untimed outputs
    Tensors host_inputs;                           // download scratch (CUDA)
    Tensors host_outputs;
    std::vector<KernelNames> sample_kernels;  // the distinct kernel sets of its timed samples
    bool unlogged_samples = false;            // samples whose kernels the backend could not see
};

// Both sides' states, the reference's first.
class SideStates {
public:
    SideStates(const Workload& workload, Stream stream);

    [[nodiscard]] static std::size_t index_of(Side s) { return s == Side::reference ? 0 : 1; }
    [[nodiscard]] SideState& operator[](Side s) { return states_[index_of(s)]; }
    [[nodiscard]] const SideState& operator[](Side s) const { return states_[index_of(s)]; }
    [[nodiscard]] auto begin() noexcept { return states_.begin(); }
    [[nodiscard]] auto end() noexcept { return states_.end(); }
    [[nodiscard]] auto begin() const noexcept { return states_.begin(); }
    [[nodiscard]] auto end() const noexcept { return states_.end(); }

private:
    std::array<SideState, 2> states_;
};

// After load(), which left the side's inputs out of the caches: its outputs
// and the memory the sides keep besides their tensors out of them too
// (Runtime::evict, Runtime::evict_side_memory), and its threads given the
// process's CPUs (Runtime::release_side_threads).
void evict_before_call(Runtime& runtime, SideState& state);

// The side's call; a refusal (a tensor read as another dtype, an undeclared
// name) or its own exception fails the run naming the workload and the side.
void call_side(const BenchDefinition& bench, SideState& state, const Findings& findings);

}  // namespace forge::bench
