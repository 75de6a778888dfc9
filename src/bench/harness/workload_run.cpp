#include "workload_run.hpp"

#include <algorithm>
#include <array>
#include <deque>
#include <exception>
#include <map>
#include <memory>
#include <optional>
#include <ostream>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "forge/stats/summary.hpp"

#include "access.hpp"
#include "compare.hpp"
#include "device_clocks.hpp"
#include "declarations.hpp"
#include "drift.hpp"
#include "kernel_sets.hpp"
#include "preemption.hpp"
#include "profiled_calls.hpp"
#include "record.hpp"
#include "regions.hpp"
#include "retake.hpp"
#include "round_schedule.hpp"
#include "round_notices.hpp"
#include "runtime.hpp"
#include "side_call_error.hpp"
#include "stopping.hpp"
#include "timer.hpp"

namespace forge::bench {

namespace {

// Every output byte before a correctness call: NaN in every float dtype, so an
// output the call never writes cannot match.
constexpr unsigned char poison_byte = 0xFF;

// Where inputs hold no NaN, a NaN output most often read one: the guard bytes
// around every tensor read as NaN.
constexpr std::string_view non_finite_hint =
    " (where the inputs hold no NaN, a side read past the end or before the start of an input, whose guard bytes "
    "read as NaN: check the shapes the bench declares against what each side reads)";

// A checked call, as its problem names it: `before` number `after`.
struct CheckedCall {
    std::string_view before;
    std::size_t number = 0;
    std::string_view after;

    [[nodiscard]] std::string text() const { return std::string(before) + std::to_string(number) + std::string(after); }
};

std::string format_ms(double ms) {
    std::ostringstream out;
    out.precision(4);
    out << ms << " ms";
    return out.str();
}

// One copy of a side's tensors, at addresses of its own.
struct Layout {
    Tensors inputs;   // on the backend
    Tensors outputs;  // on the backend
};

// One side's own tensors for a workload and the Io its calls see.
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
    bool cached_outputs_reported = false;
    // Its call left output elements unwritten or changed an input: a problem
    // named once, and the cause of any timed output unlike its untimed one.
    bool unwritten_outputs = false;
    bool changed_inputs = false;
    bool unbalanced_c_regions = false;  // named once
    std::set<std::string_view> untimed_work_reported;  // late / early work already a problem
    std::vector<KernelNames> sample_kernels;  // the distinct kernel sets of its timed samples
    bool unlogged_samples = false;            // samples whose kernels the backend could not see
};

class WorkloadRun {
public:
    // `stopping`: the run's (record.stopping), or a retake's; `continued`: for a
    // retake, the workload's first measurement, whose rounds it pools with its own.
    WorkloadRun(const Bench& bench, const WindowContract& contract, Runtime& runtime, const RunOptions& options,
                const Workload& workload, RunRecord& record, const StoppingParameters& stopping,
                const WorkloadRecord* continued)
        : bench_(bench), contract_(contract), runtime_(runtime), options_(options), workload_(workload),
          record_(record), stopping_(stopping), continued_(continued),
          sides_{SideState{Side::reference, detail::Access::make_io(Side::reference, workload, runtime.stream())},
                 SideState{Side::student, detail::Access::make_io(Side::student, workload, runtime.stream())}} {}

    WorkloadRecord run() {
        WorkloadRecord result;
        result.workload = &workload_;
        declare_outputs();
        make_output_starts();
        for (int v = 0; v < input_variants; ++v) make_variant(v, result);
        bind_layouts();
        set_up_sides();
        for (int v = 0; v < input_variants; ++v) correctness(v);
        measure_rounds(result);
        measure_pipelined(result);
        profile(result);
        tear_down_sides();
        log_workload(result);
        if (result.prep) result.prep->mutated.assign(mutated_.begin(), mutated_.end());
        return result;
    }

private:
    static std::size_t index_of(Side s) { return s == Side::reference ? 0 : 1; }
    static SideRecord& record_of(WorkloadRecord& result, Side s) {
        return s == Side::reference ? result.reference : result.student;
    }
    SideState& side(Side s) { return sides_[index_of(s)]; }

    [[noreturn]] void fail(const std::string& message) const { fail_in(workload_, message); }

    void notice(const std::string& message) {
        record_.notices.push_back("workload '" + workload_.name + "': " + message);
    }

    void problem(const std::string& message) { record_.problems.push_back("workload '" + workload_.name + "': " + message); }

    void declare_outputs() { output_specs_ = declared_output_specs(bench_, contract_, workload_); }

    // Each accumulating output's starting value, on the backend, made once.
    void make_output_starts() {
        for (const auto& [name, start] : bench_.accumulating_outputs()) {
            const TensorSpec& spec = output_specs_.at(name);  // declared_output_specs held it to outputs()
            Tensors host;
            Tensor& value = host.add(name, spec.shape, spec.dtype);
            if (start) start(workload_, value);
            runtime_.copy(value, output_starts_.add(runtime_.allocate(value.spec())));
        }
    }

    // Inputs from the variant's seed, on the backend; then the prep step on them.
    void make_variant(int v, WorkloadRecord& result) {
        const Tensors made = make_host_inputs(bench_, workload_, variant_seed(workload_, v));
        Tensors& pool = pools_[static_cast<std::size_t>(v)];
        for (const Tensor& tensor : made) {
            Tensor& copy = pool.add(runtime_.allocate(tensor.spec()));
            runtime_.copy(tensor, copy);
        }
        if (v == 0) {
            for (const Tensor& tensor : made) made_names_.push_back(tensor.name());
        }
        if (!bench_.prep_step()) return;

        // The prep step: outside every window and before this workload's profiled calls.
        PrepIo io = detail::Access::make_prep_io(
            workload_, pool, [this](TensorSpec spec) { return runtime_.allocate(spec); }, runtime_.stream());
        runtime_.flush_cache();
        const double ms = runtime_.time_call([&] { bench_.prep_step()(io); });
        runtime_.synchronize();
        for (const Tensor& produced : detail::Access::produced(io)) {
            if (const std::optional<std::string_view> where = runtime_.damaged_guard(produced)) {
                fail("the prep step wrote " + std::string(*where) + " its output '" + produced.name() +
                     "' (the guard bytes around it changed)");
            }
        }
        if (v == 0) prep_read_ = detail::Access::inputs_read(io);
        PrepRecord prep;
        prep.ms = ms;
        for (Tensor& produced : detail::Access::produced(io)) {
            if (pool.contains(produced.name())) {
                fail("the prep step produced '" + produced.name() + "', a name the bench's inputs() already made");
            }
            prep.outputs.push_back(produced.spec());
            Tensors scratch;
            prep_checksums_[static_cast<std::size_t>(v)][produced.name()] = checksum(to_host(produced, scratch));
            if (v == 0) prep_names_.push_back(produced.name());
            pool.add(std::move(produced));
        }
        if (v == 0) result.prep = std::move(prep);
    }

    // How many copies (layouts) of each side's tensors the rounds rotate through.
    // Where a side's tensors sit (their page offsets, the physical pages and cache
    // sets behind them) moves its time by several percent, the same for a whole
    // run and different in the next: with identical code on both sides, one side
    // read 2-9% faster, consistently within a run and not from run to run. Rotating
    // several copies per side turns that fixed bias into variation the interval
    // sees. As many as fit in a memory budget (2 GiB), at most 8.
    std::size_t layout_count() const {
        constexpr std::size_t max_layouts = 8;
        constexpr std::size_t budget_bytes = std::size_t{2} << 30;
        std::size_t bytes = 0;
        for (Side s : sides) {
            for (const std::string& name : declared_inputs(contract_, s)) {
                if (const Tensor* source = pools_[0].find(name)) bytes += source->bytes();
            }
            for (const std::string& name : declared_outputs(contract_, s)) bytes += byte_size(output_specs_.at(name));
        }
        return std::clamp<std::size_t>(bytes == 0 ? max_layouts : budget_bytes / bytes, 1, max_layouts);
    }

    // Each side's own copies of its declared inputs and its declared outputs, one
    // set per layout, allocated alternately for the two sides so neither always
    // gets the earlier addresses.
    void bind_layouts() {
        const std::size_t count = layout_count();
        for (SideState& state : sides_) {
            state.layouts.resize(count);
            for (const std::string& name : declared_inputs(contract_, state.side)) {
                if (pools_[0].find(name) == nullptr) fail(unmade_input(state.side, name, made_names_, prep_names_));
                if (contains(prep_names_, name)) state.prep_inputs.push_back(name);
            }
        }
        for (std::size_t l = 0; l < count; ++l) {
            for (SideState& state : sides_) {
                Layout& layout = state.layouts[l];
                for (const std::string& name : declared_inputs(contract_, state.side)) {
                    layout.inputs.add(runtime_.allocate(pools_[0].at(name).spec()));
                }
                for (const std::string& name : declared_outputs(contract_, state.side)) {
                    layout.outputs.add(runtime_.allocate(output_specs_.at(name)));
                }
            }
        }
        for (SideState& state : sides_) use_layout(state, 0);
        notice_inputs_nobody_receives();
    }

    // An input the bench makes that neither side declares and no prep step reads
    // reaches no call: most often a name misspelt on one side of the bench/window.toml pair.
    void notice_inputs_nobody_receives() {
        for (const std::string& name : made_names_) {
            if (contains(prep_read_, name)) continue;
            if (std::any_of(sides.begin(), sides.end(),
                            [&](Side s) { return contains(declared_inputs(contract_, s), name); })) {
                continue;
            }
            const std::string text = "the bench's inputs() made '" + name +
                                     "', which neither side's inputs in window.toml declare" +
                                     (bench_.prep_step() ? " and the prep step does not read" : "") +
                                     ": no call receives it; declare it in [reference].inputs or [student].inputs, "
                                     "or stop making it";
            // Once per run: every workload makes it alike.
            if (std::none_of(record_.notices.begin(), record_.notices.end(),
                             [&](const std::string& earlier) { return earlier.ends_with(text); })) {
                notice(text);
            }
        }
    }

    // Each side's setup (Bench::setup), after the runtime chose the device and
    // before the workload's first call; the device is synchronized after it so
    // none of its work runs into a window.
    void set_up_sides() {
        for (SideState& state : sides_) {
            const SideSetup& setup = bench_.side_setup(state.side);
            if (!setup.make) continue;
            std::shared_ptr<void> made;
            try {
                made = setup.make(workload_, runtime_.stream());
                runtime_.synchronize();
            } catch (const std::exception& e) {
                fail("the " + side_name(state.side) + "'s setup failed: " + e.what());
            }
            detail::Access::set_state(state.io, std::move(made), *setup.state_type);
        }
    }

    // After the workload's last call: the device finishes its work, then each
    // side's State is destroyed (its destructor is the side's teardown).
    void tear_down_sides() {
        runtime_.synchronize();
        for (SideState& state : sides_) detail::Access::drop_state(state.io);
    }

    // Points the side's Io at one of its layouts, in the declared order.
    void use_layout(SideState& state, std::size_t layout) {
        state.layout = layout;
        detail::Access::unbind_all(state.io);
        for (const std::string& name : declared_inputs(contract_, state.side)) {
            detail::Access::bind_input(state.io, name, state.inputs().at(name));
        }
        for (const std::string& name : declared_outputs(contract_, state.side)) {
            detail::Access::bind_output(state.io, name, state.outputs().at(name));
        }
    }

    const Tensor& to_host(const Tensor& tensor, Tensors& scratch) {
        if (tensor.place() == Place::host) return tensor;
        Tensor* copy = scratch.find(tensor.name());
        if (copy == nullptr) copy = &scratch.add(tensor.name(), tensor.shape(), tensor.dtype());
        runtime_.copy(tensor, *copy);
        return *copy;
    }

    // A call's inputs, and its accumulating outputs at their start: outside the window.
    void load(SideState& state, int v) {
        const Tensors& pool = pools_[static_cast<std::size_t>(v)];
        for (Tensor& input : state.inputs()) runtime_.copy(pool.at(input.name()), input);
        for (Tensor& output : state.outputs()) {
            if (const Tensor* start = output_starts_.find(output.name())) runtime_.copy(*start, output);
        }
    }

    // A call the harness refused (a tensor read as another dtype, an undeclared
    // name), or that threw on its own, fails the run naming the workload and the side.
    void call(SideState& state) {
        try {
            bench_.call(state.side)(state.io);
        } catch (const SideCallError& e) {
            fail(e.what());
        } catch (const BenchError& e) {
            fail("the " + side_name(state.side) + "'s call: " + e.what());
        } catch (const std::exception& e) {
            fail("the " + side_name(state.side) + "'s call threw: " + e.what());
        } catch (...) {
            fail("the " + side_name(state.side) + "'s call threw something that is not a std::exception");
        }
    }

    // A call that wrote outside its own tensors (HOST: the poisoned guards around
    // each one changed). Fatal: the bytes it hit may be anyone's.
    void check_guards(const SideState& state) const {
        for (const auto& [kind, tensors] : {std::pair{"output", &state.outputs()}, std::pair{"input", &state.inputs()}}) {
            for (const Tensor& tensor : *tensors) {
                const std::optional<std::string_view> where = runtime_.damaged_guard(tensor);
                if (!where) continue;
                fail("the " + side_name(state.side) + "'s call wrote " + std::string(*where) + " " + kind + " '" +
                     tensor.name() + "' (the guard bytes around it changed): a call must write only inside its "
                     "declared outputs");
            }
        }
    }

    // The cache flush evicted the harness's own bookkeeping too (the Io's names and
    // tensor handles, the call object); reading it back keeps those misses out of the
    // window. The call's own code and data stay cold.
    void touch_bookkeeping(const SideState& state) const {
        std::uintptr_t sum = 0;
        for (const auto* bound : {&detail::Access::inputs(state.io), &detail::Access::outputs(state.io)}) {
            for (const auto& [name, tensor] : *bound) {
                sum += name.size() + static_cast<unsigned char>(name.empty() ? 0 : name.front());
                sum += tensor->shape().size() + reinterpret_cast<std::uintptr_t>(tensor->raw());
            }
        }
        const auto* call_bytes = reinterpret_cast<const unsigned char*>(&bench_.call(state.side));
        for (std::size_t i = 0; i < sizeof(Call); i += 8) sum += call_bytes[i];
        [[maybe_unused]] volatile std::uintptr_t sink = sum;
    }

    // Prep tensors the side's last call changed.
    void check_mutation(SideState& state, int v) {
        for (const std::string& name : state.prep_inputs) {
            const std::uint64_t now = checksum(to_host(state.inputs().at(name), state.host_inputs));
            if (now == prep_checksums_[static_cast<std::size_t>(v)].at(name)) continue;
            if (mutated_.insert(name).second) {
                problem("the " + side_name(state.side) + "'s call changed the prep tensor '" + name +
                        "': prep tensors are handed to every call and must stay read-only");
            }
        }
    }

    // Output elements the untimed call left at the poison (a NaN in every float
    // dtype; in an integer dtype all-ones bytes are a value a call may write).
    void check_written(SideState& state, const Tensor& output, int v) {
        if (state.unwritten_outputs || output_starts_.contains(output.name()) || !is_floating(output.dtype())) return;
        const std::int64_t unwritten = elements_filled_with(output, poison_byte);
        if (unwritten == 0) return;
        state.unwritten_outputs = true;
        problem("the " + side_name(state.side) + "'s call left " + std::to_string(unwritten) + " of " +
                std::to_string(output.numel()) + " elements of '" + output.name() +
                "' unwritten when it returned (they still held the NaN the harness fills an output with before "
                "the call), on input variant " + std::to_string(v) +
                ": a call must write every element of its declared outputs before it returns; one that adds into "
                "it (+=) or leaves elements on purpose (a mask) declares its start with bench.accumulates(\"" +
                output.name() + "\") (zeros) or bench.accumulates(\"" + output.name() + "\", start)");
    }

    // Inputs the side's untimed call changed (its prep tensors: check_mutation).
    // Every timed call gets them afresh, but a pipelined batch's later calls would
    // not, and the bench's inputs are the same for both sides only unchanged.
    void check_inputs_kept(SideState& state, int v) {
        if (state.changed_inputs) return;
        const Tensors& pool = pools_[static_cast<std::size_t>(v)];
        for (const Tensor& input : state.inputs()) {
            if (contains(state.prep_inputs, input.name())) continue;
            Tensors scratch;
            if (identical(to_host(input, state.host_inputs), to_host(pool.at(input.name()), scratch))) continue;
            state.changed_inputs = true;
            problem("the " + side_name(state.side) + "'s call changed its input '" + input.name() +
                    "' (on input variant " + std::to_string(v) +
                    "): inputs must stay read-only; a tensor a call updates in place is one of its outputs");
            return;
        }
    }

    // C regions (region.h) pair up by hand: one a call leaves open, or an end
    // without its begin, would shift every later region's time to another row.
    void check_c_regions_balanced(SideState& state) {
        const UnbalancedCRegions c_regions = take_unbalanced_c_regions();
        if (state.unbalanced_c_regions || (c_regions.open == 0 && c_regions.unmatched_ends == 0)) return;
        state.unbalanced_c_regions = true;
        const std::string call = "the " + side_name(state.side) + "'s call";
        if (c_regions.open > 0) {
            problem(call + " returned with " + std::to_string(c_regions.open) +
                    " region(s) begun by forge_region_begin() and not ended: end each with forge_region_end() "
                    "before the call returns");
        }
        if (c_regions.unmatched_ends > 0) {
            problem(call + " called forge_region_end() " + std::to_string(c_regions.unmatched_ends) +
                    " time(s) with no region begun on its thread: each end needs its forge_region_begin()");
        }
    }

    // A declared input the call never asked for: a side handed a tensor that
    // computes it again (a symmetrized row max it also recomputes) does work the
    // contract says it receives. A notice, once per side and input in the run:
    // a call may have reasons to skip an input in some workload.
    void notice_unread_inputs(const SideState& state) {
        for (const std::string& name : detail::Access::unread_inputs(state.io)) {
            const std::string side = side_name(state.side);
            const std::string unread = "the " + side + "'s call did not read its declared input '" + name + "'";
            if (std::any_of(record_.notices.begin(), record_.notices.end(),
                            [&](const std::string& notice) { return notice.starts_with(unread); })) {
                continue;
            }
            record_.notices.push_back(unread + " (no io.in(\"" + name + "\") in its untimed call on workload '" +
                                      workload_.name + "'): a side handed a tensor that computes it again does "
                                      "work window.toml says it receives; read it, or take it off [" + side +
                                      "].inputs");
        }
    }

    // One untimed call per side on input variant v; the outputs both sides produce
    // are compared, and each side's outputs kept to check its timed calls against.
    void correctness(int v) {
        for (SideState& state : sides_) {
            load(state, v);
            for (Tensor& output : state.outputs()) {
                if (!output_starts_.contains(output.name())) runtime_.fill_bytes(output, poison_byte);
            }
            detail::Access::forget_reads(state.io);
            // C regions the timed calls before this one left open (unchecked): not this call's.
            (void)take_unbalanced_c_regions();
            call(state);
            runtime_.synchronize();
            check_guards(state);
            check_c_regions_balanced(state);
            notice_unread_inputs(state);
            Tensors& expected = state.expected[static_cast<std::size_t>(v)];
            for (const Tensor& output : state.outputs()) {
                const Tensor& written = expected.add(to_host(output, state.host_outputs).clone());
                check_written(state, written, v);
            }
            check_mutation(state, v);
            check_inputs_kept(state, v);
        }
        const Tensors& reference = side(Side::reference).expected[static_cast<std::size_t>(v)];
        const Tensors& student = side(Side::student).expected[static_cast<std::size_t>(v)];
        for (const Tensor& expected : reference) {
            const Tensor* actual = student.find(expected.name());
            if (actual == nullptr) continue;  // a one-sided output: a declared asymmetry
            OutputCheck& check = output_check(expected.name());
            // This workload's own dtype's tolerance: another workload's may differ.
            const ComparisonResult comparison =
                compare(*actual, expected, bench_.comparison_for(output_specs_.at(expected.name())));
            check.comparison.merge(comparison);
            const auto [measured, first] = check.workloads.try_emplace(workload_.name, comparison);
            if (!first) measured->second.merge(comparison);
            if (comparison.passed()) continue;
            if (!comparison.shape_problem.empty()) {
                problem("output '" + expected.name() + "': the student's " + comparison.shape_problem +
                        " (the reference's)");
            } else {
                problem("output '" + expected.name() + "' differs between the student and the reference: " +
                        comparison.failure("reference") + ", on input variant " + std::to_string(v) +
                        std::string(comparison.non_finite > 0 ? non_finite_hint : ""));
            }
        }
    }

    OutputCheck& output_check(const std::string& name) {
        const TensorSpec& spec = output_specs_.at(name);
        for (OutputCheck& check : record_.outputs) {
            if (check.spec.name != name) continue;
            check.dtype_varies = check.dtype_varies || check.spec.dtype != spec.dtype;
            return check;
        }
        const auto accumulating = bench_.accumulating_outputs().find(name);
        const std::string start = accumulating == bench_.accumulating_outputs().end() ? "poisoned"
                                  : accumulating->second                           ? "accumulates from the bench's start"
                                                                                    : "accumulates from zero";
        OutputCheck check;
        check.spec = spec;
        check.comparison.applied = bench_.comparison_for(spec);
        check.start = start;
        return record_.outputs.emplace_back(std::move(check));
    }

    // A timed call's outputs against the side's own untimed call on the same inputs.
    // Outputs first, right after the call returns: work the call left running on
    // a thread of its own has had the least time to finish.
    //
    // A call that returns before its work is done: the HOST window ends when the
    // call returns, and the harness cannot wait for (or time) threads it does not
    // own. What it does catch is the result: outputs that such a thread has not yet
    // written when the call returns differ from the side's untimed outputs and fail
    // the run. A thread that finishes between the return and this check (a few
    // microseconds) escapes, and so does work the next call waits for while the
    // outputs it is checked on are already complete. On CUDA the window ends
    // device-wide, so outputs are complete here; work that outlived the window is
    // caught in the profiled call (check_untimed_work).
    // `calls` > 1: the calls ran back to back on one load, so accumulating
    // outputs hold that many contributions and are not compared.
    // `which`: the call, as its message names it ("timed call (eval.json rounds[12])").
    void check_timed_outputs(SideState& state, int v, const CheckedCall& which, int calls = 1) {
        check_outputs_match(state, v, which, calls);
        check_guards(state);
        check_mutation(state, v);
    }

    void check_outputs_match(SideState& state, int v, const CheckedCall& which, int calls) {
        if (state.cached_outputs_reported || state.unwritten_outputs || state.changed_inputs) return;
        const Tensors& expected = state.expected[static_cast<std::size_t>(v)];
        for (const Tensor& output : state.outputs()) {
            if (calls > 1 && output_starts_.contains(output.name())) continue;
            const Tensor& want = expected.at(output.name());
            const Tensor& got = to_host(output, state.host_outputs);
            // Most calls repeat their untimed call bit for bit; only the others need the
            // elementwise pass, which took half of a HOST bench's time.
            if (identical(got, want)) continue;
            const ComparisonResult comparison = compare(got, want, bench_.comparison_for(want.spec()));
            if (comparison.passed()) continue;
            state.cached_outputs_reported = true;
            problem("the " + side_name(state.side) + "'s " + which.text() + " produced '" + output.name() +
                    "' unlike its own untimed call on the same inputs (" +
                    comparison.failure("untimed output") +
                    "): its outputs depend on an earlier call (outputs cached between calls?)");
            return;
        }
    }

    // A changed kernel set is flagged in eval.json (changed_kernel_set), not failed.
    bool kernel_set_changed(const SideState& state, const std::set<std::string>& profiled) {
        std::optional<std::string> changed = changed_kernel_set(state.side, state.sample_kernels, profiled);
        if (changed) notice(*changed);
        return changed.has_value();
    }

    // One problem per side and kind of untimed work, from the first profiled call that shows it.
    void check_untimed_work(SideState& state, const Profile& profile) {
        for (UntimedWork& work : untimed_work(state.side, profile)) {
            if (state.untimed_work_reported.insert(work.kind).second) problem(work.problem);
        }
    }

    // Whether timed samples' kernels can be compared with the profiled call's, said once per run.
    void notice_unchecked_kernel_sets() {
        const std::string text = "the kernel sets of timed samples were not checked: " + runtime_.why_no_launch_log();
        if (std::find(record_.notices.begin(), record_.notices.end(), text) == record_.notices.end()) {
            record_.notices.push_back(text);
        }
    }

    struct Sample {
        double ms = 0.0;
        bool preempted = false;  // the timing thread was descheduled during the call
        std::optional<double> wait_ms;  // how long another process kept it from its CPU inside the reading, where known
    };

    // A reading of `timed` (ms), with whether the scheduler preempted it and,
    // where the reading is the thread's own time, the wait inside it.
    Sample scheduled_reading(const std::function<double()>& timed) {
        const WatchedReading reading = scheduler_.watch(timed);
        Sample sample;
        sample.ms = reading.ms;
        sample.preempted = reading.preempted();
        if (runtime_.reads_thread_time()) sample.wait_ms = reading.foreign_wait_ms();
        return sample;
    }

    // One timed call of a side on input variant v, from a flushed cache; its
    // outputs, guards and prep tensors checked right after.
    Sample timed_sample(SideState& state, int v, std::size_t round) {
        load(state, v);
        runtime_.flush_cache();
        touch_bookkeeping(state);
        std::unique_ptr<LaunchLog> launches = runtime_.log_launches();
        const Sample sample = scheduled_reading([&] { return runtime_.time_call([&] { call(state); }); });
        if (launches) {
            note_kernel_set(state.sample_kernels, launches->names());
            launches.reset();
        } else {
            state.unlogged_samples = true;
            notice_unchecked_kernel_sets();
        }
        check_timed_outputs(state, v, {"timed call (eval.json rounds[", round, "])"});
        return sample;
    }

    // Untimed calls of both sides in turn, from flushed caches, for at least the
    // warm-up time: page faults, lazy initialisation and frequency ramps land
    // here, on both sides alike, not in the first rounds. On the variant the
    // first round on each layout does not use (RoundSchedule).
    void warm_up(const StoppingParameters& stopping) {
        const std::int64_t deadline = now_ns() + static_cast<std::int64_t>(stopping.warmup_s * 1e9);
        const std::size_t layouts = sides_[0].layouts.size();
        // At least two calls per side on every layout, so no layout meets its first call in a round.
        for (std::size_t calls = 0; calls < 2 * layouts || now_ns() < deadline; ++calls) {
            for (SideState& state : sides_) {
                use_layout(state, calls % layouts);
                load(state, RoundSchedule::warm_up_variant);
                runtime_.flush_cache();
                call(state);
                runtime_.synchronize();
                check_guards(state);
            }
        }
    }

    // Paired rounds until the ratio's interval is as narrow as the stopping rule
    // asks. Each round times both sides back to back on the same input variant,
    // so a change of machine state (a neighbour, a frequency step) lands on both
    // sides of a round; which goes first, the variant and the layout follow
    // RoundSchedule.
    void measure_rounds(WorkloadRecord& result) {
        // The run's other readings of the machine: a workload that ran entirely in a
        // busy stretch is then judged against the quietest the machine was.
        PrecisionCriterion criterion(stopping_, machine_readings(record_.workloads));
        ClockWatch clock_watch;
        const MemoryCalibration memory_calibration;
        warm_up(stopping_);
        double memory_before = memory_calibration.time_ms();
        result.memory_calibration_before_ms = memory_before;
        // A retake continues the first measurement: its rounds count with these,
        // whose layouts (other copies of the tensors) are numbered on from its.
        std::size_t layout_offset = 0;
        if (continued_ != nullptr) {
            add_rounds(criterion, *continued_);
            result.rounds = continued_->rounds;
            result.memory_calibration_before_ms = continued_->memory_calibration_before_ms;
            for (const Round& round : continued_->rounds) layout_offset = std::max(layout_offset, round.layout + 1);
        }
        const RoundSchedule schedule(sides_[0].layouts.size());
        const std::int64_t start = now_ns();
        for (std::size_t r = 0;; ++r) {
            Round round;
            round.first = RoundSchedule::first(r);
            round.input_variant = RoundSchedule::variant(r);
            const std::size_t layout = schedule.layout(r);
            round.layout = layout_offset + layout;
            for (SideState& state : sides_) {
                if (state.layout != layout) use_layout(state, layout);
            }
            round.t_s = static_cast<double>(now_ns() - start) * 1e-9;
            const Side second = round.first == Side::reference ? Side::student : Side::reference;
            for (Side s : {round.first, second}) {
                const Sample sample = timed_sample(side(s), round.input_variant, result.rounds.size());
                (s == Side::reference ? round.reference_ms : round.student_ms) = sample.ms;
                (s == Side::reference ? round.reference_wait_ms : round.student_wait_ms) = sample.wait_ms;
                round.preempted = round.preempted || sample.preempted;
            }
            round.clocks = runtime_.read_clocks();
            round.throttled = round.clocks && clock_watch.throttled(*round.clocks);
            round.calibration_ms = time_calibration_ms();
            round.memory_calibration_ms = memory_calibration.time_ms();
            result.rounds.push_back(round);
            // The machine around the round: the slower of the readings before and after it.
            const double machine_ms = std::max(round.memory_calibration_ms, memory_before);
            memory_before = round.memory_calibration_ms;
            criterion.add_round(round.log_ratio(), round.layout, round.reference_ms + round.student_ms,
                                round.preempted || round.throttled, machine_ms);
            if (criterion.done(static_cast<double>(now_ns() - start) * 1e-9)) break;
        }
        result.ratio = criterion.interval();
        result.estimated_rounds = criterion.estimated_rounds();
        result.selection = criterion.selection();
        const std::vector<bool> used = criterion.selected();
        for (std::size_t r = 0; r < result.rounds.size(); ++r) result.rounds[r].used = used[r];
        result.stop = criterion.reason().value_or(StopReason::round_cap);
        // A retake that pools a first measurement's rounds also pools its wait.
        result.waited_for_quiet =
            criterion.waited_for_quiet() || (continued_ != nullptr && continued_->waited_for_quiet);
        result.rounds_wall_s = static_cast<double>(now_ns() - start) * 1e-9 +
                               (continued_ != nullptr ? continued_->rounds_wall_s : 0.0);
        result.measured_s = criterion.measured_s();

        // The ms columns come from the same rounds and readings as the ratio.
        std::vector<double> reference_ms;
        std::vector<double> student_ms;
        std::vector<double> calibration_ms;
        for (const Round& round : result.rounds) {
            calibration_ms.push_back(round.calibration_ms);
            if (!round.used) continue;
            reference_ms.push_back(round.reference_call_ms());
            student_ms.push_back(round.student_call_ms());
        }
        result.reference.samples = stats::summarize(reference_ms);
        result.student.samples = stats::summarize(student_ms);
        result.drift = calibration_drift(calibration_ms);
        // The run's parameters: a retake's own wait no longer (quiet_wait_s 0), and
        // the wait its record says it made was its first measurement's.
        for (const std::string& message : round_notices(result, record_.stopping, criterion.quiet_rounds())) {
            notice(message);
        }
    }

    // Pipelined: N calls back to back on one input set, from a flushed cache;
    // the sides' repeats interleaved in alternating order, like the rounds, so a
    // change of machine state does not land on one side's block only; each
    // batch less its wait for its CPU, as the ms columns.
    void measure_pipelined(WorkloadRecord& result) {
        const double target_ms = options_.quick ? 2.0 : 20.0;
        const int repeats = options_.quick ? 1 : 3;
        std::array<std::vector<double>, 2> per_call_ms;
        for (SideState& state : sides_) {
            SideRecord& record = record_of(result, state.side);
            const double per_call = std::max(record.samples.median, 1e-6);
            record.pipelined_calls = static_cast<int>(std::clamp(std::round(target_ms / per_call), 2.0, 1000.0));
        }
        for (int r = 0; r < repeats; ++r) {
            const Side first = r % 2 == 0 ? Side::reference : Side::student;
            for (Side s : {first, first == Side::reference ? Side::student : Side::reference}) {
                SideState& state = side(s);
                const int calls = record_of(result, s).pipelined_calls;
                load(state, 0);
                runtime_.flush_cache();
                const Sample batch =
                    scheduled_reading([&] { return runtime_.time_calls([&] { call(state); }, calls); });
                per_call_ms[index_of(s)].push_back((batch.ms - batch.wait_ms.value_or(0.0)) / calls);
            }
        }
        for (SideState& state : sides_) {
            SideRecord& record = record_of(result, state.side);
            record.pipelined_ms = stats::median(per_call_ms[index_of(state.side)]);
            check_timed_outputs(state, 0, {"pipelined batch of ", static_cast<std::size_t>(record.pipelined_calls),
                                           " calls"},
                                record.pipelined_calls);
        }
    }

    // Several profiled calls per side, interleaved like the rounds, outside every
    // timed sample; the table is each kernel's median per call, so one noisy
    // call cannot move a credit. The calls are chosen as the rounds the ms
    // columns come from were: where those left out rounds with a preempted call,
    // a preempted profiled call is retaken (beside a busy neighbour two of three
    // could be preempted, and their median then read 1.3x the timed median);
    // where they kept them all, so do the calls, whose regions leave out their
    // waits as the rounds' readings do (beside a neighbour that never stops,
    // retaking kept only the calls no neighbour evicted, 0.78x the median). A
    // side the contract prices takes more calls while its table does not
    // reconcile with its timed median (ProfiledCallCount).
    void profile(WorkloadRecord& result) {
        const ProfiledCallCount count;
        std::array<ProfiledSide, 2> profiled;
        for (ProfiledSide& p : profiled) {
            p.wanted = count.first;
            p.retakes_preempted = result.selection != RoundSelection::all;
        }
        take_profiled_calls(profiled);
        for (;;) {
            bool more = false;
            for (SideState& state : sides_) {
                ProfiledSide& p = profiled[index_of(state.side)];
                if (!priced_side(state.side) || p.attempts >= 4 * p.wanted) continue;
                const double timed_ms = record_of(result, state.side).samples.median;
                const std::size_t wanted = count.wanted(p.table(), p.wanted, timed_ms);
                more = more || wanted > p.wanted;
                p.wanted = std::max(p.wanted, wanted);
            }
            if (!more) break;
            take_profiled_calls(profiled);
        }
        for (SideState& state : sides_) {
            ProfiledSide& p = profiled[index_of(state.side)];
            SideRecord& record = record_of(result, state.side);
            if (!state.unlogged_samples && p.launched) {
                record.kernel_set_changed = kernel_set_changed(state, *p.launched);
            }
            record.kernels = p.table();
        }
    }

    // One side's profiled calls so far: those the scheduler left alone (or all,
    // where preempted ones are not retaken), and the preempted ones that make
    // up the number when too few were.
    struct ProfiledSide {
        std::size_t wanted = 0;
        bool retakes_preempted = true;  // as the rounds the ms columns come from set them aside
        std::size_t attempts = 0;  // preempted ones included; at most 4 x wanted
        std::vector<KernelTable> tables;
        std::vector<KernelTable> preempted;
        std::optional<std::set<std::string>> launched;  // the first profiled call's kernels

        [[nodiscard]] KernelTable table() const {
            std::vector<KernelTable> calls = tables;
            for (std::size_t i = 0; i < preempted.size() && calls.size() < wanted; ++i) calls.push_back(preempted[i]);
            return median_per_call(calls);
        }
    };

    // Calls, the sides alternating which goes first, until each side has its
    // wanted undisturbed ones or has made 4x as many attempts.
    void take_profiled_calls(std::array<ProfiledSide, 2>& profiled) {
        for (std::size_t c = 0;; ++c) {
            bool took = false;
            for (std::size_t i = 0; i < 2; ++i) {
                SideState& state = sides_[c % 2 == 0 ? i : 1 - i];
                ProfiledSide& p = profiled[index_of(state.side)];
                if (p.tables.size() >= p.wanted || p.attempts >= 4 * p.wanted) continue;
                took = true;
                ++p.attempts;
                // Variants alternate as in the rounds, so no call repeats its previous one's inputs.
                const int variant = static_cast<int>(p.attempts % input_variants);
                load(state, variant);
                runtime_.flush_cache();
                const SchedulerReading before = scheduler_.read();
                const std::int64_t start = now_ns();
                Profile profile = runtime_.profile_call([&] { call(state); },
                                                        "forge/" + side_name(state.side) + "/" + workload_.name);
                const bool was_preempted =
                    preempted(before, scheduler_.read(), static_cast<double>(now_ns() - start) * 1e-6);
                check_timed_outputs(state, variant, {"profiled call ", p.attempts, ""});
                check_untimed_work(state, profile);
                // A call the profiler could not read says nothing of the kernel set.
                if (profile.kernels.profiler && !p.launched) {
                    p.launched = profile.launched;  // the samples are held to the first read call's
                } else if (profile.kernels.profiler) {
                    // A profiled call unlike the first is a changed kernel set too.
                    note_kernel_set(state.sample_kernels, KernelNames{std::move(profile.launched), true});
                }
                (was_preempted && p.retakes_preempted ? p.preempted : p.tables).push_back(std::move(profile.kernels));
            }
            if (!took) return;
        }
    }

    // Whether the contract prices work off this side: its credit then depends on
    // its table reconciling with its timed median.
    [[nodiscard]] bool priced_side(Side s) const {
        const std::vector<const Asymmetry*> priced = contract_.priced_entries();
        return std::any_of(priced.begin(), priced.end(), [s](const Asymmetry* a) { return a->payer() == s; });
    }

    void log_workload(const WorkloadRecord& result) const {
        if (options_.log == nullptr) return;
        for (const auto* side_record : {&result.reference, &result.student}) {
            const bool reference = side_record == &result.reference;
            *options_.log << "[forge bench] " << workload_.name << " " << (reference ? "reference" : "student")
                          << ": median " << format_ms(side_record->samples.median) << ", pipelined "
                          << format_ms(side_record->pipelined_ms) << "\n";
        }
        *options_.log << "[forge bench] " << workload_.name << " ratio " << result.ratio.ratio << " [" << result.ratio.low
                      << ", " << result.ratio.high << "] (" << stats::to_string(result.ratio.verdict()) << ") over "
                      << result.rounds.size() << " rounds, " << to_string(result.stop) << "\n";
    }

    const Bench& bench_;
    const WindowContract& contract_;
    Runtime& runtime_;
    const RunOptions& options_;
    const Workload& workload_;
    RunRecord& record_;
    const StoppingParameters stopping_;  // this measurement's: a retake waits for no quiet rounds
    const WorkloadRecord* continued_;    // a retake's first measurement, or null
    std::array<SideState, 2> sides_;
    std::map<std::string, TensorSpec> output_specs_;
    std::array<Tensors, input_variants> pools_;  // every input and prep tensor, per variant, on the backend
    Tensors output_starts_;                      // accumulating outputs' starting values, on the backend
    std::array<std::map<std::string, std::uint64_t>, input_variants> prep_checksums_;
    std::vector<std::string> made_names_;
    std::vector<std::string> prep_names_;
    std::vector<std::string> prep_read_;  // the made inputs the prep step read (variant 0)
    std::set<std::string> mutated_;
    const SchedulerWatch scheduler_;  // the timing thread's: this object lives and runs on it
};

}  // namespace

WorkloadRecord measure_workload(const Bench& bench, const WindowContract& contract, Runtime& runtime,
                                const RunOptions& options, const Workload& workload, RunRecord& record,
                                const StoppingParameters& stopping, const WorkloadRecord* continued) {
    return WorkloadRun(bench, contract, runtime, options, workload, record, stopping, continued).run();
}

}  // namespace forge::bench
