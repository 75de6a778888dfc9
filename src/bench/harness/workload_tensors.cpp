#include "harness/workload_tensors.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "access.hpp"
#include "rules/compare.hpp"
#include "rules/declarations.hpp"
#include "rules/round_schedule.hpp"
#include "runtime/kernel_calls.hpp"
#include "runtime/timer.hpp"

namespace forge::bench {

namespace {

// Each accumulating output's starting value, on the backend, made once.
void make_output_starts(RunState run, WorkloadTensors& tensors) {
    for (const auto& [name, start] : run.bench.accumulating_outputs()) {
        const TensorSpec& spec = tensors.output_specs.at(name);  // declared_output_specs held it to outputs()
        Tensors host;
        Tensor& value = host.add(name, spec.shape, spec.dtype);
        if (start) start(run.workload, value);
        run.runtime.copy(value, tensors.output_starts.add(run.runtime.allocate(value.spec())));
    }
}

// Inputs from `seed` in pool slot `slot`, on the backend; then the prep step on
// them. The first variant's also name what was made and the prep step's record.
void make_variant(RunState run, WorkloadTensors& tensors, Findings& findings, std::size_t slot, std::uint64_t seed,
                  WorkloadRecord* result) {
    Runtime& runtime = run.runtime;
    const bool first = slot == 0;
    const Tensors made = make_host_inputs(run.bench, run.workload, seed);
    Tensors& pool = tensors.pools[slot];
    pool = Tensors{};
    tensors.prep_checksums[slot].clear();
    for (const Tensor& tensor : made) {
        Tensor& copy = pool.add(runtime.allocate(tensor.spec()));
        runtime.copy(tensor, copy);
    }
    if (first) {
        for (const Tensor& tensor : made) tensors.made_names.push_back(tensor.name());
    }
    const Prep& prep_step = run.bench.prep_step();
    if (!prep_step) return;

    // The prep step: outside every window and before this workload's profiled calls.
    PrepIo io = detail::Access::make_prep_io(
        run.workload, pool, [&runtime](const TensorSpec& spec) { return runtime.allocate(spec); }, runtime.stream());
    runtime.flush_cache();
    const double ms = runtime.time_call([&] { prep_step(io); });
    runtime.synchronize();
    for (const Tensor& produced : detail::Access::produced(io)) {
        if (const std::optional<std::string_view> where = runtime.damaged_guard(produced)) {
            findings.fail("the prep step wrote " + std::string(*where) + " its output '" + produced.name() +
                          "' (the guard bytes around it changed)");
        }
    }
    if (first) tensors.prep_read = detail::Access::inputs_read(io);
    PrepRecord prep;
    prep.ms = ms;
    for (Tensor& produced : detail::Access::produced(io)) {
        if (pool.contains(produced.name())) {
            findings.fail("the prep step produced '" + produced.name() + "', a name the bench's inputs() already made");
        }
        prep.outputs.push_back(produced.spec());
        Tensors scratch;
        tensors.prep_checksums[slot][produced.name()] = checksum(to_host(runtime, produced, scratch));
        if (first) tensors.prep_names.push_back(produced.name());
        pool.add(std::move(produced));
    }
    if (first && result != nullptr) result->prep = std::move(prep);
}

// An input the bench makes that neither side declares and no prep step reads
// reaches no call: most often a name misspelt on one side of the bench/window.toml pair.
void notice_inputs_nobody_receives(RunState run, const WorkloadTensors& tensors, Findings& findings) {
    // An A/A run leaves the other side's inputs out on purpose; the card's own run says this where it is so.
    if (run.against_itself) return;
    for (const std::string& name : tensors.made_names) {
        if (contains(tensors.prep_read, name)) continue;
        if (std::any_of(sides.begin(), sides.end(),
                        [&](Side s) { return contains(declared_inputs(run.contract, s), name); })) {
            continue;
        }
        if (!findings.once_per_run("input made for no call: " + name)) continue;
        findings.notice("the bench's inputs() made '" + name + "', which neither side's inputs in window.toml declare" +
                        (run.bench.prep_step() ? " and the prep step does not read" : "") +
                        ": no call receives it; declare it in [reference].inputs or [student].inputs, "
                        "or stop making it");
    }
}

}  // namespace

WorkloadTensors make_workload_tensors(RunState run, Findings& findings, WorkloadRecord& result) {
    WorkloadTensors tensors;
    tensors.output_specs = declared_output_specs(run.bench, run.contract, run.workload);
    make_output_starts(run, tensors);
    for (int v = 0; v < input_variants; ++v) {
        make_variant(run, tensors, findings, static_cast<std::size_t>(v), variant_seed(run.workload, v), &result);
    }
    return tensors;
}

// How many copies (layouts) of each side's tensors the rounds may rotate through.
// Where a side's tensors sit (the physical pages and cache sets behind them)
// moves its time by several percent, the same for a whole
// run and different in the next: with identical code on both sides, one side
// read faster, consistently within a run and not from run to run
// (docs/lab/README.md, "Layouts"). Rotating several copies per side turns that
// fixed bias into variation the interval sees. As many as fit in a memory
// budget (2 GiB), at most LayoutGrowth::most.
std::size_t most_layouts(RunState run, const WorkloadTensors& tensors) {
    constexpr std::size_t budget_bytes = std::size_t{2} << 30;
    std::size_t bytes = 0;
    for (Side s : sides) {
        for (const std::string& name : declared_inputs(run.contract, s)) {
            if (const Tensor* source = tensors.pools[0].find(name)) bytes += source->bytes();
        }
        for (const std::string& name : declared_outputs(run.contract, s)) {
            bytes += byte_size(tensors.output_specs.at(name));
        }
    }
    return std::clamp<std::size_t>(bytes == 0 ? LayoutGrowth::most : budget_bytes / bytes, 1, LayoutGrowth::most);
}

void make_layouts(RunState run, const WorkloadTensors& tensors, SideStates& states, Findings& findings) {
    for (SideState& state : states) {
        for (const std::string& name : declared_inputs(run.contract, state.side)) {
            if (tensors.pools[0].find(name) == nullptr) {
                findings.fail(unmade_input(state.side, name, tensors.made_names, tensors.prep_names));
            }
            if (contains(tensors.prep_names, name)) state.prep_inputs.push_back(name);
        }
    }
    add_layouts(run, tensors, states, std::min(LayoutGrowth::initial, most_layouts(run, tensors)));
    for (SideState& state : states) state.use_layout(0);
    notice_inputs_nobody_receives(run, tensors, findings);
}

// Each layout's copies, the sides taking turns to allocate first
// (alternating_order) so neither always gets the earlier addresses. A deque's
// elements stay where they are as it grows: the Io stays bound.
void add_layouts(RunState run, const WorkloadTensors& tensors, SideStates& states, std::size_t count) {
    for (std::size_t l = states[Side::reference].layouts.size(); l < count; ++l) {
        for (Side s : alternating_order(l)) {
            SideState& state = states[s];
            Layout& layout = state.layouts.emplace_back();
            for (const std::string& name : declared_inputs(run.contract, state.side)) {
                layout.inputs.add(run.runtime.allocate(tensors.pools[0].at(name).spec()));
            }
            for (const std::string& name : declared_outputs(run.contract, state.side)) {
                layout.outputs.add(run.runtime.allocate(tensors.output_specs.at(name)));
            }
        }
    }
}

double draw_fresh_inputs(RunState run, WorkloadTensors& tensors, Findings& findings) {
    const std::int64_t start = now_ns();
    make_variant(run, tensors, findings, WorkloadTensors::fresh_slot, kernel::random_bits(), nullptr);
    return static_cast<double>(now_ns() - start) * 1e-9;
}

void load(Runtime& runtime, const WorkloadTensors& tensors, SideState& state, int slot) {
    const Tensors& pool = tensors.pools[static_cast<std::size_t>(slot)];
    for (Tensor& input : state.inputs()) runtime.copy_uncached(pool.at(input.name()), input);
    for (Tensor& output : state.outputs()) {
        if (const Tensor* start = tensors.output_starts.find(output.name())) runtime.copy(*start, output);
    }
}

const Tensor& to_host(Runtime& runtime, const Tensor& tensor, Tensors& scratch) {
    if (tensor.place() == Place::host) return tensor;
    Tensor* copy = scratch.find(tensor.name());
    if (copy == nullptr) copy = &scratch.add(tensor.name(), tensor.shape(), tensor.dtype());
    runtime.copy(tensor, *copy);
    return *copy;
}

}  // namespace forge::bench
