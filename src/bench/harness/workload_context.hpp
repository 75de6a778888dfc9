// What the steps of one workload's measurement share (workload_tensors,
// call_checks, paired_rounds, workload_profile; workload_run.cpp runs them in
// order): the bench and its contract, the runtime, the workload's tensors (its
// inputs per variant, each side's own copies) and the record its notices and
// problems go to.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "forge/bench/bench.hpp"
#include "forge/bench/run.hpp"
#include "forge/contract/contract.hpp"

#include "definition.hpp"

#include "harness/findings.hpp"
#include "results/record.hpp"
#include "rules/declarations.hpp"
#include "rules/kernel_sets.hpp"
#include "runtime/preemption.hpp"
#include "runtime/runtime.hpp"

namespace forge::bench {

// One copy of a side's tensors, at addresses of its own.
struct Layout {
    Tensors inputs;   // on the backend
    Tensors outputs;  // on the backend
};

// One side's own tensors for a workload, the Io its calls see, and the kernels
// its timed samples ran.
struct SideState {
    SideState(Side which, Io side_io) : side(which), io(std::move(side_io)) {}

    [[nodiscard]] Tensors& inputs() { return layouts[layout].inputs; }
    [[nodiscard]] Tensors& outputs() { return layouts[layout].outputs; }
    [[nodiscard]] const Tensors& inputs() const { return layouts[layout].inputs; }
    [[nodiscard]] const Tensors& outputs() const { return layouts[layout].outputs; }

    Side side;
    std::deque<Layout> layouts;               // the side's copies; the Io sees layouts[layout]
    std::size_t layout = 0;
    Io io;
    std::vector<std::string> prep_inputs;     // the prep tensors among its inputs
    std::array<Tensors, input_variants> expected;  // host copies of its untimed outputs
    Tensors host_inputs;                      // download scratch (CUDA)
    Tensors host_outputs;
    std::vector<KernelNames> sample_kernels;  // the distinct kernel sets of its timed samples
    bool unlogged_samples = false;            // samples whose kernels the backend could not see
};

// Lives and runs on the timing thread (its scheduler watch is that thread's).
class WorkloadContext {
public:
    WorkloadContext(const BenchDefinition& bench, const WindowContract& contract, Runtime& runtime,
                    const RunOptions& options, const Workload& workload, RunRecord& record);

    [[nodiscard]] static std::size_t index_of(Side s) { return s == Side::reference ? 0 : 1; }
    [[nodiscard]] SideState& side(Side s) { return sides[index_of(s)]; }

    // `tensor` on the host: itself there, else a copy into `scratch`.
    const Tensor& to_host(const Tensor& tensor, Tensors& scratch);
    // Points the side's Io at one of its layouts, in the declared order.
    void use_layout(SideState& state, std::size_t layout);
    // A call's inputs, and its accumulating outputs at their start: outside the window.
    void load(SideState& state, int variant);
    // The caches before a call of the side: the runtime's flush (unless a
    // SweptRound stands in for it), then evict_tensors.
    void flush_caches(SideState& state);
    // The side's own tensors out of the caches (Runtime::evict), and its threads
    // given the process's CPUs (Runtime::release_side_threads).
    void evict_tensors(SideState& state);

    // One flush for a round of calls, each side's at most one, where the
    // runtime evicts each side's tensors itself (Runtime::evicts_tensors): the
    // flush is most of a HOST round's cost (twice a last-level cache that can be
    // hundreds of MiB). While it lives, flush_caches only evicts.
    class SweptRound {
    public:
        // `sweep_s`: where given, the sweep's seconds are added to it.
        explicit SweptRound(WorkloadContext& context, double* sweep_s = nullptr);
        SweptRound(const SweptRound&) = delete;
        SweptRound& operator=(const SweptRound&) = delete;
        ~SweptRound() { context_.round_swept_ = false; }

    private:
        WorkloadContext& context_;
    };
    // The side's call; a refusal (a tensor read as another dtype, an undeclared
    // name) or its own exception fails the run naming the workload and the side.
    void call(SideState& state);

    const BenchDefinition bench;
    const WindowContract& contract;
    Runtime& runtime;
    const RunOptions& options;
    const Workload& workload;
    RunRecord& record;
    Findings findings;  // to `record`
    std::array<SideState, 2> sides;
    std::map<std::string, TensorSpec> output_specs;
    // Every input and prep tensor, per variant, on the backend; the last slot
    // holds the latest fresh round's (draw_fresh_inputs).
    static constexpr std::size_t fresh_slot = input_variants;
    std::array<Tensors, input_variants + 1> pools;
    Tensors output_starts;  // accumulating outputs' starting values, on the backend
    std::array<std::map<std::string, std::uint64_t>, input_variants + 1> prep_checksums;
    std::vector<std::string> made_names;  // the inputs the bench's inputs() made
    std::vector<std::string> prep_names;  // the tensors the prep step produced
    std::vector<std::string> prep_read;   // the made inputs the prep step read (variant 0)
    std::set<std::string> mutated;        // prep tensors a call changed, reported
    const SchedulerWatch scheduler;       // the timing thread's

private:
    bool round_swept_ = false;  // while a SweptRound lives
};

}  // namespace forge::bench
