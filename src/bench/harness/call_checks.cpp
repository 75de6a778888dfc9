#include "harness/call_checks.hpp"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <sstream>
#include <string>
#include <utility>

#include "access.hpp"
#include "rules/compare.hpp"
#include "rules/declarations.hpp"
#include "runtime/regions.hpp"

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

// What a side's calls did that the checks say once per workload, by key (findings.hpp).
constexpr std::string_view unwritten_outputs = "unwritten outputs";
constexpr std::string_view changed_inputs = "changed inputs";
constexpr std::string_view cached_outputs = "outputs unlike its untimed call's";

// A call that left output elements unwritten or changed an input was named for
// it already, and that is the cause of any output unlike another call's.
bool outputs_in_doubt(const WorkloadContext& context, Side side) {
    return context.findings.said(finding_key(side, unwritten_outputs)) ||
           context.findings.said(finding_key(side, changed_inputs));
}

// Prep tensors the side's last call changed.
void check_mutation(WorkloadContext& context, SideState& state, int v) {
    for (const std::string& name : state.prep_inputs) {
        const std::uint64_t now = checksum(context.to_host(state.inputs().at(name), state.host_inputs));
        if (now == context.prep_checksums[static_cast<std::size_t>(v)].at(name)) continue;
        if (context.mutated.insert(name).second) {
            context.findings.problem("the " + side_name(state.side) + "'s call changed the prep tensor '" + name +
                                     "': prep tensors are handed to every call and must stay read-only");
        }
    }
}

// Output elements the untimed call left at the poison (a NaN in every float
// dtype; in an integer dtype all-ones bytes are a value a call may write).
void check_written(WorkloadContext& context, SideState& state, const Tensor& output, int v) {
    const std::string key = finding_key(state.side, unwritten_outputs);
    if (context.findings.said(key) || context.output_starts.contains(output.name()) || !is_floating(output.dtype())) {
        return;
    }
    const std::int64_t unwritten = elements_filled_with(output, poison_byte);
    if (unwritten == 0 || !context.findings.once(key)) return;
    context.findings.problem(
        "the " + side_name(state.side) + "'s call left " + std::to_string(unwritten) + " of " +
        std::to_string(output.numel()) + " elements of '" + output.name() +
        "' unwritten when it returned (they still held the NaN the harness fills an output with before "
        "the call), on input variant " +
        std::to_string(v) +
        ": a call must write every element of its declared outputs before it returns; one that adds "
        "into it (+=) or leaves elements on purpose (a mask) declares its start with "
        "bench.accumulates(\"" +
        output.name() + "\") (zeros) or bench.accumulates(\"" + output.name() + "\", start)");
}

// Inputs the side's untimed call changed (its prep tensors: check_mutation).
// Every timed call gets them afresh, but a pipelined batch's later calls would
// not, and the bench's inputs are the same for both sides only unchanged.
void check_inputs_kept(WorkloadContext& context, SideState& state, int v) {
    const std::string key = finding_key(state.side, changed_inputs);
    if (context.findings.said(key)) return;
    const Tensors& pool = context.pools[static_cast<std::size_t>(v)];
    for (const Tensor& input : state.inputs()) {
        if (contains(state.prep_inputs, input.name())) continue;
        Tensors scratch;
        if (identical(context.to_host(input, state.host_inputs), context.to_host(pool.at(input.name()), scratch))) {
            continue;
        }
        (void)context.findings.once(key);
        context.findings.problem(
            "the " + side_name(state.side) + "'s call changed its input '" + input.name() + "' (on input variant " +
            std::to_string(v) +
            "): inputs must stay read-only; a tensor a call updates in place is one of its outputs");
        return;
    }
}

// C regions (region.h) pair up by hand: one a call leaves open, or an end
// without its begin, would shift every later region's time to another row.
void check_c_regions_balanced(WorkloadContext& context, SideState& state) {
    const UnbalancedCRegions c_regions = take_unbalanced_c_regions();
    if (c_regions.open == 0 && c_regions.unmatched_ends == 0) return;
    if (!context.findings.once(finding_key(state.side, "unbalanced C regions"))) return;
    const std::string call = "the " + side_name(state.side) + "'s call";
    if (c_regions.open > 0) {
        context.findings.problem(
            call + " returned with " + std::to_string(c_regions.open) +
            " region(s) begun by forge_region_begin() and not ended: end each with forge_region_end() "
            "before the call returns");
    }
    if (c_regions.unmatched_ends > 0) {
        context.findings.problem(
            call + " called forge_region_end() " + std::to_string(c_regions.unmatched_ends) +
            " time(s) with no region begun on its thread: each end needs its forge_region_begin()");
    }
}

// A declared input the call never asked for: a side handed a tensor that
// computes it again (a symmetrized row max it also recomputes) does work the
// contract says it receives. A notice, once per side and input in the run:
// a call may have reasons to skip an input in some workload.
void notice_unread_inputs(WorkloadContext& context, const SideState& state) {
    for (const std::string& name : detail::Access::unread_inputs(state.io)) {
        const std::string side = side_name(state.side);
        if (!context.findings.once_per_run(finding_key(state.side, "unread input " + name))) continue;
        context.findings.run_notice("the " + side + "'s call did not read its declared input '" + name +
                                    "' (no io.in(\"" + name + "\") in its untimed call on workload '" +
                                    context.workload.name +
                                    "'): a side handed a tensor that computes it "
                                    "again does work window.toml says it receives; read it, or take it off [" +
                                    side + "].inputs");
    }
}

// A timed output within the tolerance of its untimed call's and yet not the same
// bits: said once per side and run. Sums that reorder from call to call are fine,
// but a loose tolerance (a quantized side's) also passes a deterministic side
// that reads past an input's end, whose bytes differ from copy to copy.
void notice_varying_outputs(WorkloadContext& context, const SideState& state, const std::string& output,
                            const ComparisonResult& comparison) {
    if (!context.findings.once_per_run(finding_key(state.side, "varying outputs"))) return;
    std::ostringstream difference;
    difference << comparison.max_abs_error;
    context.findings.notice(
        "the " + side_name(state.side) +
        "'s timed calls' outputs are not bit for bit its untimed call's on the same inputs ('" + output +
        "': max abs difference " + difference.str() +
        ", within its tolerance): expected of a side whose sums reorder from call to "
        "call (atomics, an OpenMP reduction); a side that should repeat itself exactly reads something "
        "besides its inputs, such as memory past an input's end (each copy of an input has other bytes "
        "past it)");
}

// The run's entry for an output, made on its first comparison.
OutputCheck& output_check(WorkloadContext& context, const std::string& name) {
    const TensorSpec& spec = context.output_specs.at(name);
    for (OutputCheck& check : context.record.outputs) {
        if (check.spec.name != name) continue;
        check.dtype_varies = check.dtype_varies || check.spec.dtype != spec.dtype;
        return check;
    }
    const auto& accumulating = context.bench.accumulating_outputs();
    const auto start = accumulating.find(name);
    OutputCheck check;
    check.spec = spec;
    check.comparison.applied = context.bench.comparison_for(spec);
    check.start = start == accumulating.end() ? "poisoned"
                  : start->second             ? "accumulates from the bench's start"
                                              : "accumulates from zero";
    return context.record.outputs.emplace_back(std::move(check));
}

// The student's output against the reference's, to this workload's own dtype's
// tolerance (another workload's may differ), counted in the output's errors.
ComparisonResult compare_to_reference(WorkloadContext& context, const Tensor& actual, const Tensor& expected) {
    const ComparisonResult comparison =
        compare(actual, expected, context.bench.comparison_for(context.output_specs.at(expected.name())));
    OutputCheck& check = output_check(context, expected.name());
    check.comparison.merge(comparison);
    const auto [measured, first] = check.workloads.try_emplace(context.workload.name, comparison);
    if (!first) measured->second.merge(comparison);
    return comparison;
}

// Both sides' untimed outputs on variant v, compared to the declared tolerance.
void compare_sides(WorkloadContext& context, int v) {
    const Tensors& reference = context.side(Side::reference).expected[static_cast<std::size_t>(v)];
    const Tensors& student = context.side(Side::student).expected[static_cast<std::size_t>(v)];
    for (const Tensor& expected : reference) {
        const Tensor* actual = student.find(expected.name());
        if (actual == nullptr) continue;  // a one-sided output: a declared asymmetry
        const ComparisonResult comparison = compare_to_reference(context, *actual, expected);
        if (comparison.passed()) continue;
        if (!comparison.shape_problem.empty()) {
            context.findings.problem("output '" + expected.name() + "': the student's " + comparison.shape_problem +
                                     " (the reference's)");
        } else {
            context.findings.problem("output '" + expected.name() +
                                     "' differs between the student and the reference: " +
                                     comparison.failure("reference") + ", on input variant " + std::to_string(v) +
                                     std::string(comparison.non_finite > 0 ? non_finite_hint : ""));
        }
    }
}

void check_outputs_match(WorkloadContext& context, SideState& state, int v, const CheckedCall& which, int calls) {
    if (context.findings.said(finding_key(state.side, cached_outputs)) || outputs_in_doubt(context, state.side)) {
        return;
    }
    // Fresh inputs had no untimed call: check_fresh_outputs holds the sides to each other.
    if (static_cast<std::size_t>(v) == WorkloadContext::fresh_slot) return;
    const Tensors& expected = state.expected[static_cast<std::size_t>(v)];
    for (const Tensor& output : state.outputs()) {
        if (calls > 1 && context.output_starts.contains(output.name())) continue;
        const Tensor& want = expected.at(output.name());
        const Tensor& got = context.to_host(output, state.host_outputs);
        // Most calls repeat their untimed call bit for bit; only the others need the
        // elementwise pass, far slower (docs/lab/README.md, "Output checks").
        if (identical(got, want)) continue;
        const ComparisonResult comparison = compare(got, want, context.bench.comparison_for(want.spec()));
        if (comparison.passed()) {
            notice_varying_outputs(context, state, output.name(), comparison);
            continue;
        }
        (void)context.findings.once(finding_key(state.side, cached_outputs));
        context.findings.problem(
            "the " + side_name(state.side) + "'s " + which.text() + " produced '" + output.name() +
            "' unlike its own untimed call on the same inputs (" + comparison.failure("untimed output") +
            "): its outputs depend on something besides its inputs: an earlier call (outputs cached "
            "between calls?) or memory past an input's end (an input's shape declared shorter than the "
            "side reads: each copy of an input has other guard bytes past its end)");
        return;
    }
}

}  // namespace

void check_untimed_calls(WorkloadContext& context, int v) {
    for (SideState& state : context.sides) {
        context.load(state, v);
        for (Tensor& output : state.outputs()) {
            if (!context.output_starts.contains(output.name())) context.runtime.fill_bytes(output, poison_byte);
        }
        detail::Access::forget_reads(state.io);
        // C regions the timed calls before this one left open (unchecked): not this call's.
        (void)take_unbalanced_c_regions();
        context.call(state);
        context.runtime.synchronize();
        check_guards(context, state);
        check_c_regions_balanced(context, state);
        notice_unread_inputs(context, state);
        Tensors& expected = state.expected[static_cast<std::size_t>(v)];
        for (const Tensor& output : state.outputs()) {
            const Tensor& written = expected.add(context.to_host(output, state.host_outputs).clone());
            check_written(context, state, written, v);
        }
        check_mutation(context, state, v);
        check_inputs_kept(context, state, v);
    }
    compare_sides(context, v);
}

void check_fresh_outputs(WorkloadContext& context, std::size_t round) {
    SideState& student = context.side(Side::student);
    const std::string key = finding_key(Side::student, "unlike the reference on fresh inputs");
    if (context.findings.said(key) || outputs_in_doubt(context, Side::student)) return;
    const SideState& reference = context.side(Side::reference);
    for (const Tensor& expected_there : reference.outputs()) {
        const Tensor* actual_there = student.outputs().find(expected_there.name());
        if (actual_there == nullptr) continue;  // a one-sided output: a declared asymmetry
        Tensors reference_scratch;
        const Tensor& expected = context.to_host(expected_there, reference_scratch);
        const Tensor& actual = context.to_host(*actual_there, student.host_outputs);
        const ComparisonResult comparison = compare_to_reference(context, actual, expected);
        if (comparison.passed()) continue;
        (void)context.findings.once(key);
        context.findings.problem(
            "output '" + expected.name() +
            "' differs between the student and the reference on the "
            "fresh inputs of timed round " +
            std::to_string(round) + " (eval.json rounds[" + std::to_string(round) +
            "], inputs drawn for that round alone): " + comparison.failure("reference") +
            ": the student's answer depends on more than its inputs' contents, such as an answer kept "
            "from an earlier call and keyed by where its inputs are or by a few of their values" +
            std::string(comparison.non_finite > 0 ? non_finite_hint : ""));
        return;
    }
}

void check_guards(const WorkloadContext& context, const SideState& state) {
    for (const auto& [kind, tensors] : {std::pair{"output", &state.outputs()}, std::pair{"input", &state.inputs()}}) {
        for (const Tensor& tensor : *tensors) {
            const std::optional<std::string_view> where = context.runtime.damaged_guard(tensor);
            if (!where) continue;
            context.findings.fail("the " + side_name(state.side) + "'s call wrote " + std::string(*where) + " " + kind +
                                  " '" + tensor.name() +
                                  "' (the guard bytes around it changed): a call must write only "
                                  "inside its declared outputs");
        }
    }
}

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
// caught in the profiled calls (untimed_work).
void check_timed_outputs(WorkloadContext& context, SideState& state, int v, const CheckedCall& which, int calls) {
    check_outputs_match(context, state, v, which, calls);
    check_guards(context, state);
    check_mutation(context, state, v);
}

}  // namespace forge::bench
