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
void make_output_starts(WorkloadContext& context) {
    for (const auto& [name, start] : context.bench.accumulating_outputs()) {
        const TensorSpec& spec = context.output_specs.at(name);  // declared_output_specs held it to outputs()
        Tensors host;
        Tensor& value = host.add(name, spec.shape, spec.dtype);
        if (start) start(context.workload, value);
        context.runtime.copy(value, context.output_starts.add(context.runtime.allocate(value.spec())));
    }
}

// Inputs from `seed` in pool slot `slot`, on the backend; then the prep step on
// them. The first variant's also name what was made and the prep step's record.
void make_variant(WorkloadContext& context, std::size_t slot, std::uint64_t seed, WorkloadRecord* result) {
    Runtime& runtime = context.runtime;
    const bool first = slot == 0;
    const Tensors made = make_host_inputs(context.bench, context.workload, seed);
    Tensors& pool = context.pools[slot];
    pool = Tensors{};
    context.prep_checksums[slot].clear();
    for (const Tensor& tensor : made) {
        Tensor& copy = pool.add(runtime.allocate(tensor.spec()));
        runtime.copy(tensor, copy);
    }
    if (first) {
        for (const Tensor& tensor : made) context.made_names.push_back(tensor.name());
    }
    const Prep& prep_step = context.bench.prep_step();
    if (!prep_step) return;

    // The prep step: outside every window and before this workload's profiled calls.
    PrepIo io = detail::Access::make_prep_io(
        context.workload, pool, [&runtime](TensorSpec spec) { return runtime.allocate(spec); }, runtime.stream());
    runtime.flush_cache();
    const double ms = runtime.time_call([&] { prep_step(io); });
    runtime.synchronize();
    for (const Tensor& produced : detail::Access::produced(io)) {
        if (const std::optional<std::string_view> where = runtime.damaged_guard(produced)) {
            context.findings.fail("the prep step wrote " + std::string(*where) + " its output '" + produced.name() +
                                  "' (the guard bytes around it changed)");
        }
    }
    if (first) context.prep_read = detail::Access::inputs_read(io);
    PrepRecord prep;
    prep.ms = ms;
    for (Tensor& produced : detail::Access::produced(io)) {
        if (pool.contains(produced.name())) {
            context.findings.fail("the prep step produced '" + produced.name() +
                                  "', a name the bench's inputs() already made");
        }
        prep.outputs.push_back(produced.spec());
        Tensors scratch;
        context.prep_checksums[slot][produced.name()] = checksum(context.to_host(produced, scratch));
        if (first) context.prep_names.push_back(produced.name());
        pool.add(std::move(produced));
    }
    if (first && result != nullptr) result->prep = std::move(prep);
}

// How many copies (layouts) of each side's tensors the rounds rotate through.
// Where a side's tensors sit (their page offsets, the physical pages and cache
// sets behind them) moves its time by several percent, the same for a whole
// run and different in the next: with identical code on both sides, one side
// read faster, consistently within a run and not from run to run
// (docs/lab/README.md, "Layouts"). Rotating several copies per side turns that
// fixed bias into variation the interval sees. As many as fit in a memory
// budget (2 GiB), at most 8.
std::size_t layout_count(const WorkloadContext& context) {
    constexpr std::size_t max_layouts = 8;
    constexpr std::size_t budget_bytes = std::size_t{2} << 30;
    std::size_t bytes = 0;
    for (Side s : sides) {
        for (const std::string& name : declared_inputs(context.contract, s)) {
            if (const Tensor* source = context.pools[0].find(name)) bytes += source->bytes();
        }
        for (const std::string& name : declared_outputs(context.contract, s)) {
            bytes += byte_size(context.output_specs.at(name));
        }
    }
    return std::clamp<std::size_t>(bytes == 0 ? max_layouts : budget_bytes / bytes, 1, max_layouts);
}

// An input the bench makes that neither side declares and no prep step reads
// reaches no call: most often a name misspelt on one side of the bench/window.toml pair.
void notice_inputs_nobody_receives(WorkloadContext& context) {
    for (const std::string& name : context.made_names) {
        if (contains(context.prep_read, name)) continue;
        if (std::any_of(sides.begin(), sides.end(),
                        [&](Side s) { return contains(declared_inputs(context.contract, s), name); })) {
            continue;
        }
        if (!context.findings.once_per_run("input made for no call: " + name)) continue;
        context.findings.notice("the bench's inputs() made '" + name +
                                "', which neither side's inputs in window.toml declare" +
                                (context.bench.prep_step() ? " and the prep step does not read" : "") +
                                ": no call receives it; declare it in [reference].inputs or [student].inputs, "
                                "or stop making it");
    }
}

// Each side's own copies of its declared inputs and its declared outputs, one
// set per layout, the sides taking turns to allocate first (alternating_order)
// so neither always gets the earlier addresses.
void bind_layouts(WorkloadContext& context) {
    const std::size_t count = layout_count(context);
    for (SideState& state : context.sides) {
        state.layouts.resize(count);
        for (const std::string& name : declared_inputs(context.contract, state.side)) {
            if (context.pools[0].find(name) == nullptr) {
                context.findings.fail(unmade_input(state.side, name, context.made_names, context.prep_names));
            }
            if (contains(context.prep_names, name)) state.prep_inputs.push_back(name);
        }
    }
    for (std::size_t l = 0; l < count; ++l) {
        for (Side s : alternating_order(l)) {
            SideState& state = context.side(s);
            Layout& layout = state.layouts[l];
            for (const std::string& name : declared_inputs(context.contract, state.side)) {
                layout.inputs.add(context.runtime.allocate(context.pools[0].at(name).spec()));
            }
            for (const std::string& name : declared_outputs(context.contract, state.side)) {
                layout.outputs.add(context.runtime.allocate(context.output_specs.at(name)));
            }
        }
    }
    for (SideState& state : context.sides) context.use_layout(state, 0);
    notice_inputs_nobody_receives(context);
}

}  // namespace

void make_workload_tensors(WorkloadContext& context, WorkloadRecord& result) {
    context.output_specs = declared_output_specs(context.bench, context.contract, context.workload);
    make_output_starts(context);
    for (int v = 0; v < input_variants; ++v) {
        make_variant(context, static_cast<std::size_t>(v), variant_seed(context.workload, v), &result);
    }
    bind_layouts(context);
}

double draw_fresh_inputs(WorkloadContext& context) {
    const std::int64_t start = now_ns();
    make_variant(context, WorkloadContext::fresh_slot, kernel::random_bits(), nullptr);
    return static_cast<double>(now_ns() - start) * 1e-9;
}

}  // namespace forge::bench
