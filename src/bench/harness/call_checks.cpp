#include "harness/call_checks.hpp"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>
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
bool outputs_in_doubt(const Findings& findings, Side side) {
    return findings.said(finding_key(side, unwritten_outputs)) || findings.said(finding_key(side, changed_inputs));
}

// Prep tensors the side's last call changed.
void check_mutation(RunState run, WorkloadTensors& tensors, SideState& state, Findings& findings, int v) {
    for (const std::string& name : state.prep_inputs) {
        const std::uint64_t now = checksum(to_host(run.runtime, state.inputs().at(name), state.host_inputs));
        if (now == tensors.prep_checksums[static_cast<std::size_t>(v)].at(name)) continue;
        if (tensors.mutated.insert(name).second) {
            findings.problem("the " + side_name(state.side) + "'s call changed the prep tensor '" + name +
                             "': prep tensors are handed to every call and must stay read-only");
        }
    }
}

// Output elements the untimed call left at the poison (a NaN in every float
// dtype; in an integer dtype all-ones bytes are a value a call may write).
void check_written(const WorkloadTensors& tensors, const SideState& state, Findings& findings, const Tensor& output,
                   int v) {
    const std::string key = finding_key(state.side, unwritten_outputs);
    if (findings.said(key) || tensors.output_starts.contains(output.name()) || !is_floating(output.dtype())) {
        return;
    }
    const std::int64_t unwritten = elements_filled_with(output, poison_byte);
    if (unwritten == 0 || !findings.once(key)) return;
    findings.problem("the " + side_name(state.side) + "'s call left " + std::to_string(unwritten) + " of " +
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
void check_inputs_kept(RunState run, const WorkloadTensors& tensors, SideState& state, Findings& findings, int v) {
    const std::string key = finding_key(state.side, changed_inputs);
    if (findings.said(key)) return;
    const Tensors& pool = tensors.pools[static_cast<std::size_t>(v)];
    for (const Tensor& input : state.inputs()) {
        if (contains(state.prep_inputs, input.name())) continue;
        Tensors scratch;
        if (identical(to_host(run.runtime, input, state.host_inputs),
                      to_host(run.runtime, pool.at(input.name()), scratch))) {
            continue;
        }
        (void)findings.once(key);
        findings.problem("the " + side_name(state.side) + "'s call changed its input '" + input.name() +
                         "' (on input variant " + std::to_string(v) +
                         "): inputs must stay read-only; a tensor a call updates in place is one of its outputs");
        return;
    }
}

// C regions (region.h) pair up by hand: one a call leaves open, or an end
// without its begin, would shift every later region's time to another row.
void check_c_regions_balanced(const SideState& state, Findings& findings) {
    const UnbalancedCRegions c_regions = take_unbalanced_c_regions();
    if (c_regions.open == 0 && c_regions.unmatched_ends == 0) return;
    if (!findings.once(finding_key(state.side, "unbalanced C regions"))) return;
    const std::string call = "the " + side_name(state.side) + "'s call";
    if (c_regions.open > 0) {
        findings.problem(call + " returned with " + std::to_string(c_regions.open) +
                         " region(s) begun by forge_region_begin() and not ended: end each with forge_region_end() "
                         "before the call returns");
    }
    if (c_regions.unmatched_ends > 0) {
        findings.problem(call + " called forge_region_end() " + std::to_string(c_regions.unmatched_ends) +
                         " time(s) with no region begun on its thread: each end needs its forge_region_begin()");
    }
}

// A declared input the call never asked for: a side handed a tensor that
// computes it again (a symmetrized row max it also recomputes) does work the
// contract says it receives. A notice, once per side and input in the run:
// a call may have reasons to skip an input in some workload.
void notice_unread_inputs(RunState run, const SideState& state, Findings& findings) {
    for (const std::string& name : detail::Access::unread_inputs(state.io)) {
        const std::string side = side_name(state.side);
        if (!findings.once_per_run(finding_key(state.side, "unread input " + name))) continue;
        findings.run_notice("the " + side + "'s call did not read its declared input '" + name + "' (no io.in(\"" +
                            name + "\") in its untimed call on workload '" + run.workload.name +
                            "'): a side handed a tensor that computes it "
                            "again does work window.toml says it receives; read it, or take it off [" +
                            side + "].inputs");
    }
}

// A timed output within the tolerance of its untimed call's and yet not the same
// bits: said once per side and run. Sums that reorder from call to call are fine,
// but a loose tolerance (a quantized side's) also passes a deterministic side
// that reads past an input's end, whose bytes differ from copy to copy.
void notice_varying_outputs(const SideState& state, Findings& findings, const std::string& output,
                            const ComparisonResult& comparison) {
    if (!findings.once_per_run(finding_key(state.side, "varying outputs"))) return;
    std::ostringstream difference;
    difference << comparison.max_abs_error;
    findings.notice("the " + side_name(state.side) +
                    "'s timed calls' outputs are not bit for bit its untimed call's on the same inputs ('" + output +
                    "': max abs difference " + difference.str() +
                    ", within its tolerance): expected of a side whose sums reorder from call to "
                    "call (atomics, an OpenMP reduction); a side that should repeat itself exactly reads something "
                    "besides its inputs, such as memory past an input's end (each copy of an input has other bytes "
                    "past it)");
}

// Whether a timed output holds its untimed call's bytes, the comparison shared
// among the threads the runtime keeps for such work (Runtime::share_lines).
bool same_bytes(Runtime& runtime, const Tensor& got, const Tensor& want) {
    if (got.shape() != want.shape() || got.dtype() != want.dtype()) return false;
    std::atomic<bool> same{true};
    runtime.share_lines(got.raw(), got.bytes(), [&](std::size_t begin, std::size_t end) {
        if (same.load(std::memory_order_relaxed) &&
            std::memcmp(got.raw() + begin, want.raw() + begin, end - begin) != 0) {
            same.store(false, std::memory_order_relaxed);
        }
    });
    return same.load();
}

// An elementwise comparison, its parts on the runtime's threads.
ComparisonResult compare_on(Runtime& runtime, const Tensor& actual, const Tensor& expected,
                            const Comparison& comparison) {
    return compare(actual, expected, comparison,
                   [&runtime](std::size_t parts, const auto& part) { runtime.run_parts(parts, part); });
}

// The run's entry for an output, made on its first comparison.
OutputCheck& output_check(RunState run, const WorkloadTensors& tensors, std::vector<OutputCheck>& outputs,
                          const std::string& name) {
    const TensorSpec& spec = tensors.output_specs.at(name);
    for (OutputCheck& check : outputs) {
        if (check.spec.name != name) continue;
        check.dtype_varies = check.dtype_varies || check.spec.dtype != spec.dtype;
        return check;
    }
    const auto& accumulating = run.bench.accumulating_outputs();
    const auto start = accumulating.find(name);
    OutputCheck check;
    check.spec = spec;
    check.comparison.applied = run.bench.comparison_for(spec);
    check.start = start == accumulating.end() ? "poisoned"
                  : start->second             ? "accumulates from the bench's start"
                                              : "accumulates from zero";
    return outputs.emplace_back(std::move(check));
}

// The student's output against the reference's, to this workload's own dtype's
// tolerance (another workload's may differ), counted in the output's errors.
ComparisonResult compare_to_reference(RunState run, const WorkloadTensors& tensors, std::vector<OutputCheck>& outputs,
                                      const Tensor& actual, const Tensor& expected) {
    const ComparisonResult comparison =
        compare_on(run.runtime, actual, expected, run.bench.comparison_for(tensors.output_specs.at(expected.name())));
    OutputCheck& check = output_check(run, tensors, outputs, expected.name());
    check.comparison.merge(comparison);
    const auto [measured, first] = check.workloads.try_emplace(run.workload.name, comparison);
    if (!first) measured->second.merge(comparison);
    return comparison;
}

// Both sides' untimed outputs on variant v, compared to the declared tolerance.
void compare_sides(RunState run, const WorkloadTensors& tensors, const SideStates& states, Findings& findings,
                   std::vector<OutputCheck>& outputs, int v) {
    const Tensors& reference = states[Side::reference].expected[static_cast<std::size_t>(v)];
    const Tensors& student = states[Side::student].expected[static_cast<std::size_t>(v)];
    for (const Tensor& expected : reference) {
        const Tensor* actual = student.find(expected.name());
        if (actual == nullptr) continue;  // a one-sided output: a declared asymmetry
        const ComparisonResult comparison = compare_to_reference(run, tensors, outputs, *actual, expected);
        if (comparison.passed()) continue;
        if (!comparison.shape_problem.empty()) {
            findings.problem("output '" + expected.name() + "': the student's " + comparison.shape_problem +
                             " (the reference's)");
        } else {
            findings.problem("output '" + expected.name() + "' differs between the student and the reference: " +
                             comparison.failure("reference") + ", on input variant " + std::to_string(v) +
                             std::string(comparison.non_finite > 0 ? non_finite_hint : ""));
        }
    }
}

void check_outputs_match(RunState run, const WorkloadTensors& tensors, SideState& state, Findings& findings, int v,
                         const CheckedCall& which, int calls) {
    if (findings.said(finding_key(state.side, cached_outputs)) || outputs_in_doubt(findings, state.side)) {
        return;
    }
    // Fresh inputs had no untimed call: check_fresh_outputs holds the sides to each other.
    if (static_cast<std::size_t>(v) == WorkloadTensors::fresh_slot) return;
    const Tensors& expected = state.expected[static_cast<std::size_t>(v)];
    for (const Tensor& output : state.outputs()) {
        if (calls > 1 && tensors.output_starts.contains(output.name())) continue;
        const Tensor& want = expected.at(output.name());
        const Tensor& got = to_host(run.runtime, output, state.host_outputs);
        // Most calls repeat their untimed call bit for bit; only the others need the
        // elementwise pass, far slower (docs/lab/README.md, "Output checks").
        if (same_bytes(run.runtime, got, want)) continue;
        const ComparisonResult comparison = compare_on(run.runtime, got, want, run.bench.comparison_for(want.spec()));
        if (comparison.passed()) {
            notice_varying_outputs(state, findings, output.name(), comparison);
            continue;
        }
        (void)findings.once(finding_key(state.side, cached_outputs));
        findings.problem("the " + side_name(state.side) + "'s " + which.text() + " produced '" + output.name() +
                         "' unlike its own untimed call on the same inputs (" + comparison.failure("untimed output") +
                         "): its outputs depend on something besides its inputs: an earlier call (outputs cached "
                         "between calls?) or memory past an input's end (an input's shape declared shorter than the "
                         "side reads: each copy of an input has other guard bytes past its end)");
        return;
    }
}

}  // namespace

void check_untimed_calls(RunState run, WorkloadTensors& tensors, SideStates& states, Findings& findings,
                         std::vector<OutputCheck>& outputs, int v) {
    for (SideState& state : states) {
        load(run.runtime, tensors, state, v);
        for (Tensor& output : state.outputs()) {
            if (!tensors.output_starts.contains(output.name())) run.runtime.fill_bytes(output, poison_byte);
        }
        detail::Access::forget_reads(state.io);
        // C regions the timed calls before this one left open (unchecked): not this call's.
        (void)take_unbalanced_c_regions();
        call_side(run.bench, state, findings);
        run.runtime.synchronize();
        check_guards(run.runtime, state, findings);
        check_c_regions_balanced(state, findings);
        notice_unread_inputs(run, state, findings);
        Tensors& expected = state.expected[static_cast<std::size_t>(v)];
        for (const Tensor& output : state.outputs()) {
            const Tensor& written = expected.add(to_host(run.runtime, output, state.host_outputs).clone());
            check_written(tensors, state, findings, written, v);
        }
        check_mutation(run, tensors, state, findings, v);
        check_inputs_kept(run, tensors, state, findings, v);
    }
    compare_sides(run, tensors, states, findings, outputs, v);
}

void check_fresh_outputs(RunState run, const WorkloadTensors& tensors, SideStates& states, Findings& findings,
                         std::vector<OutputCheck>& outputs, std::size_t round) {
    SideState& student = states[Side::student];
    const std::string key = finding_key(Side::student, "unlike the reference on fresh inputs");
    if (findings.said(key) || outputs_in_doubt(findings, Side::student)) return;
    const SideState& reference = states[Side::reference];
    for (const Tensor& expected_there : reference.outputs()) {
        const Tensor* actual_there = student.outputs().find(expected_there.name());
        if (actual_there == nullptr) continue;  // a one-sided output: a declared asymmetry
        Tensors reference_scratch;
        const Tensor& expected = to_host(run.runtime, expected_there, reference_scratch);
        const Tensor& actual = to_host(run.runtime, *actual_there, student.host_outputs);
        const ComparisonResult comparison = compare_to_reference(run, tensors, outputs, actual, expected);
        if (comparison.passed()) continue;
        (void)findings.once(key);
        findings.problem("output '" + expected.name() +
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

void check_guards(Runtime& runtime, const SideState& state, const Findings& findings) {
    for (const auto& [kind, tensors] : {std::pair{"output", &state.outputs()}, std::pair{"input", &state.inputs()}}) {
        for (const Tensor& tensor : *tensors) {
            const std::optional<std::string_view> where = runtime.damaged_guard(tensor);
            if (!where) continue;
            findings.fail("the " + side_name(state.side) + "'s call wrote " + std::string(*where) + " " + kind + " '" +
                          tensor.name() +
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
void check_timed_outputs(RunState run, WorkloadTensors& tensors, SideState& state, Findings& findings, int v,
                         const CheckedCall& which, int calls) {
    check_outputs_match(run, tensors, state, findings, v, which, calls);
    check_guards(run.runtime, state, findings);
    check_mutation(run, tensors, state, findings, v);
}

}  // namespace forge::bench
