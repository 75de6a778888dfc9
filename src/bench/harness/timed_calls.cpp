#include "harness/timed_calls.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "forge/stats/summary.hpp"

#include "access.hpp"
#include "harness/call_checks.hpp"
#include "harness/swept_round.hpp"
#include "harness/workload_tensors.hpp"
#include "results/round_notices.hpp"
#include "rules/drift.hpp"
#include "rules/fresh_inputs.hpp"
#include "rules/kernel_sets.hpp"
#include "rules/retake.hpp"
#include "rules/round_schedule.hpp"
#include "runtime/calibration.hpp"
#include "runtime/device_clocks.hpp"
#include "runtime/timer.hpp"

namespace forge::bench {

namespace {

struct Sample {
    double ms = 0.0;
    bool preempted = false;  // the timing thread was descheduled during the call
    std::optional<double> wait_ms;  // how long another process kept it from its CPU inside the reading, where known
};

// A reading of `timed` (ms), with whether the scheduler preempted it and,
// where the reading is the thread's own time, the wait inside it.
Sample scheduled_reading(RunState run, const std::function<double()>& timed) {
    const WatchedReading reading = run.scheduler.watch(timed);
    Sample sample;
    sample.ms = reading.ms;
    sample.preempted = reading.preempted();
    if (run.runtime.reads_thread_time()) sample.wait_ms = reading.foreign_wait_ms();
    return sample;
}

// The cache flush evicted the harness's own bookkeeping too (the Io's names and
// tensor handles, the call object); reading it back keeps those misses out of the
// window. The call's own code and data stay cold.
void touch_bookkeeping(RunState run, const SideState& state) {
    std::uintptr_t sum = 0;
    for (const auto* bound : {&detail::Access::inputs(state.io), &detail::Access::outputs(state.io)}) {
        for (const auto& [name, tensor] : *bound) {
            sum += name.size() + static_cast<unsigned char>(name.empty() ? 0 : name.front());
            sum += tensor->shape().size() + reinterpret_cast<std::uintptr_t>(tensor->raw());
        }
    }
    const auto* call_bytes = reinterpret_cast<const unsigned char*>(&run.bench.call(state.side));
    for (std::size_t i = 0; i < sizeof(Call); i += 8) sum += call_bytes[i];
    [[maybe_unused]] volatile std::uintptr_t sink = sum;
}

// Whether timed samples' kernels can be compared with the profiled call's, said once per run.
void notice_unchecked_kernel_sets(Findings& findings, const std::string& why) {
    if (findings.once_per_run("kernel sets unchecked: " + why)) {
        findings.run_notice("the kernel sets of timed samples were not checked: " + why);
    }
}

// One timed call of a side on input variant v, from a cold cache; its
// outputs, guards and prep tensors checked right after.
Sample timed_sample(RunState run, WorkloadTensors& tensors, const SweptRound& swept, SideState& state,
                    Findings& findings, int v, std::size_t round, WallTime& wall) {
    Runtime& runtime = run.runtime;
    {
        const Stopwatch loading(wall.loads_s);
        load(run.runtime, tensors, state, v);
    }
    {
        const Stopwatch flushing(wall.flushes_s);
        swept.flush_caches(state);
    }
    touch_bookkeeping(run, state);
    std::unique_ptr<LaunchLog> launches = runtime.log_launches();
    const Sample sample =
        scheduled_reading(run, [&] { return runtime.time_call([&] { call_side(run.bench, state, findings); }); });
    if (!launches) {
        state.unlogged_samples = true;
        notice_unchecked_kernel_sets(findings, runtime.why_no_launch_log());
    } else if (KernelNames names = launches->names(); !names.complete && names.names.empty()) {
        // Launches the log could name none of (a graph, a profiler that gives no
        // names): every profiled set includes the empty one, so no check at all.
        state.unlogged_samples = true;
        notice_unchecked_kernel_sets(findings, "the launch log named none of a timed call's launches");
    } else {
        note_kernel_set(state.sample_kernels, std::move(names));
    }
    launches.reset();
    const Stopwatch checking(wall.output_checks_s);
    check_timed_outputs(run, tensors, state, findings, v, {"timed call (eval.json rounds[", round, "])"});
    return sample;
}

// Untimed calls of both sides in turn, for at least `warmup_s`: page faults,
// lazy initialisation and frequency ramps land here, on both sides alike, not
// in the first rounds. On the variant the first round on each layout does not
// use (RoundSchedule). Their tensors come from memory as the rounds' do, but
// no cache is swept: none of that depends on it, and a sweep before each of
// these calls was most of a workload's wall time where the last-level cache
// is large.
void warm_up(RunState run, const WorkloadTensors& tensors, SideStates& states, Findings& findings, double warmup_s) {
    const std::int64_t deadline = now_ns() + static_cast<std::int64_t>(warmup_s * 1e9);
    const std::size_t layouts = states[Side::reference].layouts.size();
    if (layouts == 0) return;  // no tensors made: no call to warm
    // At least one call per side on every layout, so no layout meets its first
    // call in a round; a second per layout cost a workload of 30 ms calls 0.4 s.
    for (std::size_t calls = 0; calls < layouts || now_ns() < deadline; ++calls) {
        for (SideState& state : states) {
            state.use_layout(calls % layouts);
            load(run.runtime, tensors, state, RoundSchedule::warm_up_variant);
            evict_before_call(run.runtime, state);
            call_side(run.bench, state, findings);
            run.runtime.synchronize();
            check_guards(run.runtime, state, findings);
        }
    }
}

// Untimed calls of both sides on the layouts from `from` on, one a side each:
// layouts added after the first pass meet no first call in a round. One is
// enough for that; the frequency and lazy initialisation the warm-up is also
// for are behind the rounds already. Between rounds, each pair of calls from a
// swept cache as a round's, so no call of a side runs on what its last left.
void warm_up_layouts(RunState run, const WorkloadTensors& tensors, SideStates& states, Findings& findings,
                     std::size_t from) {
    const std::size_t layouts = states[Side::reference].layouts.size();
    for (std::size_t l = from; l < layouts; ++l) {
        const SweptRound swept(run.runtime);
        for (Side s : alternating_order(l)) {
            SideState& state = states[s];
            state.use_layout(l);
            load(run.runtime, tensors, state, RoundSchedule::warm_up_variant);
            swept.flush_caches(state);
            call_side(run.bench, state, findings);
            run.runtime.synchronize();
            check_guards(run.runtime, state, findings);
        }
    }
}

std::string times(double factor) {
    std::ostringstream out;
    out.precision(3);
    out << factor << "x";
    return out.str();
}

// A side faster on the inputs it has seen than on fresh ones: the student's is
// a problem (its ratio measures the reuse, not the work), the reference's a
// notice (its ratio understates the student, whose work it measures).
void judge_reuse(Findings& findings, const Reuse& reuse) {
    const std::string rounds = std::to_string(reuse.fresh_rounds) + " fresh rounds (inputs drawn for that round "
                               "alone) against " + std::to_string(reuse.seen_rounds) + " on the two input variants";
    if (reuse.student_gained()) {
        findings.problem("the student's calls read faster on inputs they had seen before than on fresh ones: the "
                         "ratio on seen inputs was " +
                         times(reuse.gain) + " the ratio on fresh inputs, over " + rounds +
                         ", where the rounds tell apart " + times(reuse.resolves) +
                         ": a call that keeps work from an earlier call (its answer kept and keyed by its inputs' "
                         "address or contents) is measured by what it kept, not by its work; compute every call's "
                         "outputs from its inputs");
    } else if (reuse.reference_gained()) {
        findings.notice("the reference's calls read faster on inputs they had seen before than on fresh ones: the "
                        "ratio on fresh inputs was " +
                        times(1.0 / reuse.gain) + " the ratio on seen inputs, over " + rounds +
                        ": the reference keeps work between calls keyed by its inputs (a library's "
                        "cache?), which the student is measured against");
    }
}

// After the first pass over the layouts: all the layouts the workload may
// have where its interval needs and the rounds' pace gives each enough rounds
// (LayoutGrowth), made and warmed up here, their cost in the workload's setup
// and warm-up time.
void add_layouts_for_need(RunState run, const WorkloadTensors& tensors, SideStates& states, Findings& findings,
                          RoundSchedule& schedule, StoppingCriterion& criterion, std::size_t rounds, std::int64_t start,
                          WorkloadRecord& result) {
    const std::size_t layouts = states[Side::reference].layouts.size();
    const StoppingParameters& stopping = criterion.parameters();
    const std::size_t wanted = LayoutGrowth::after_first_pass(
        layouts, most_layouts(run, tensors), rounds, static_cast<double>(now_ns() - start) * 1e-9, stopping.max_wall_s,
        criterion.relative_half_width(), stopping.precision);
    if (wanted == layouts) return;
    {
        const Stopwatch setting_up(result.wall.setup_s);
        add_layouts(run, tensors, states, wanted);
    }
    {
        const Stopwatch warming_up(result.wall.warm_up_s);
        warm_up_layouts(run, tensors, states, findings, layouts);
    }
    schedule.use_layouts(wanted);
    criterion.use_clusters(wanted);
}

}  // namespace

void measure_rounds(RunState run, WorkloadTensors& tensors, SideStates& states, Findings& findings,
                    std::vector<OutputCheck>& outputs, const StoppingParameters& stopping,
                    const WorkloadRecord* continued, WorkloadRecord& result) {
    // The run's other readings of the machine: a workload that ran entirely in a
    // busy stretch is then judged against the quietest the machine was.
    StoppingCriterion criterion(stopping, machine_readings(run.earlier));
    ClockWatch clock_watch;
    const MemoryCalibration memory_calibration;
    {
        // The time only before the run's first rounds: a later workload's (or a
        // retake's) follow the earlier workloads' calls with no pause, past the
        // frequency ramp; one call per side on every layout is its warm-up.
        const Stopwatch warming_up(result.wall.warm_up_s);
        warm_up(run, tensors, states, findings, run.earlier.empty() ? stopping.warmup_s : 0.0);
    }
    // A retake continues the first measurement: its rounds count with these,
    // whose layouts (other copies of the tensors) are numbered on from its.
    std::size_t layout_offset = 0;
    if (continued != nullptr) {
        result.rounds = continued->rounds;
        result.memory_calibration_before_ms = continued->memory_calibration_before_ms;
        for (std::size_t r = 0; r < result.rounds.size(); ++r) criterion.add(result.reading(r));
        for (const Round& round : continued->rounds) layout_offset = std::max(layout_offset, round.layout + 1);
    } else {
        result.memory_calibration_before_ms = memory_calibration.time_ms();
    }
    RoundSchedule schedule(states[Side::reference].layouts.size());
    criterion.use_clusters(states[Side::reference].layouts.size());
    const FreshSchedule fresh_schedule(stopping.min_fresh_rounds);
    std::size_t fresh_rounds = 0;  // those reuse_of compares
    int next_fresh_variant = input_variants;
    for (const Round& round : result.rounds) {
        fresh_rounds += round.fresh && compared_for_reuse(round) ? 1 : 0;
        next_fresh_variant = std::max(next_fresh_variant, round.input_variant + 1);
    }
    double drawing_s = 0.0;  // drawing fresh inputs, this measurement's
    // The round the waiting fresh inputs were drawn before; empty while none wait.
    std::optional<std::size_t> fresh_drawn_before;
    bool stopping_due = false;
    std::size_t rounds_past_stop = 0;  // rounds the criterion would not have run, for fresh ones
    const std::int64_t start = now_ns();
    for (std::size_t r = 0;; ++r) {
        if (!fresh_drawn_before &&
            fresh_schedule.draw(fresh_rounds, drawing_s, static_cast<double>(now_ns() - start) * 1e-9, stopping_due)) {
            drawing_s += draw_fresh_inputs(run, tensors, findings);
            fresh_drawn_before = r;
        }
        Round round;
        round.first = RoundSchedule::first(r);
        round.fresh =
            fresh_drawn_before && fresh_schedule.fresh(r, r - *fresh_drawn_before, fresh_rounds, stopping_due);
        if (round.fresh) fresh_drawn_before.reset();
        round.input_variant = round.fresh ? next_fresh_variant++ : RoundSchedule::variant(r);
        const int slot = round.fresh ? static_cast<int>(WorkloadTensors::fresh_slot) : round.input_variant;
        const std::size_t layout = schedule.layout(r);
        round.layout = layout_offset + layout;
        for (SideState& state : states) {
            if (state.layout != layout) state.use_layout(layout);
        }
        round.t_s = static_cast<double>(now_ns() - start) * 1e-9;
        {
            const SweptRound swept(run.runtime, &result.wall.flushes_s);
            for (Side s : in_order(round.first)) {
                const Sample sample =
                    timed_sample(run, tensors, swept, states[s], findings, slot, result.rounds.size(), result.wall);
                (s == Side::reference ? round.reference_ms : round.student_ms) = sample.ms;
                (s == Side::reference ? round.reference_wait_ms : round.student_wait_ms) = sample.wait_ms;
                round.preempted = round.preempted || sample.preempted;
            }
        }
        if (round.fresh) {
            const Stopwatch checking(result.wall.output_checks_s);
            check_fresh_outputs(run, tensors, states, findings, outputs, result.rounds.size());
        }
        {
            const Stopwatch calibrating(result.wall.calibrations_s);
            round.clocks = run.runtime.read_clocks();
            round.calibration_ms = time_calibration_ms();
            round.memory_calibration_ms = memory_calibration.time_ms();
        }
        round.throttled = round.clocks && clock_watch.throttled(*round.clocks);
        fresh_rounds += round.fresh && compared_for_reuse(round) ? 1 : 0;
        result.rounds.push_back(round);
        criterion.add(result.reading(result.rounds.size() - 1));
        if (r + 1 == schedule.cycle()) {
            add_layouts_for_need(run, tensors, states, findings, schedule, criterion, r + 1, start, result);
        }
        rounds_past_stop += stopping_due ? 1 : 0;
        stopping_due = stopping_due || criterion.is_finished(static_cast<double>(now_ns() - start) * 1e-9);
        if (stopping_due && fresh_schedule.enough(fresh_rounds, rounds_past_stop)) break;
    }
    const CountedRounds counted = criterion.counted();
    result.estimated_rounds = paired_rounds(criterion.readings(), counted);
    result.ratio = stats::clustered_paired_ratio(result.estimated_rounds, stopping.confidence);
    result.selection = counted.selection;
    for (std::size_t r = 0; r < result.rounds.size(); ++r) result.rounds[r].used = counted.counted[r];
    result.reuse = reuse_of(result.rounds);
    if (result.reuse) judge_reuse(findings, *result.reuse);
    result.stop = criterion.reason().value_or(StopReason::round_cap);
    // A retake that pools a first measurement's rounds also pools its wait.
    result.waited_for_quiet = criterion.waited_for_quiet() || (continued != nullptr && continued->waited_for_quiet);
    result.rounds_wall_s = static_cast<double>(now_ns() - start) * 1e-9 +
                           (continued != nullptr ? continued->rounds_wall_s : 0.0);
    result.measured_s = criterion.measured_s();
    result.wall.fresh_inputs_s += drawing_s;
    result.wall.measured_s = 0.0;
    result.wall.set_aside_s = 0.0;
    for (const Round& round : result.rounds) {
        (round.used ? result.wall.measured_s : result.wall.set_aside_s) +=
            (round.reference_ms + round.student_ms) * 1e-3;
    }

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
    result.ratio_drift = ratio_drift(result.estimated_rounds.log_ratios);
    // A failed run's ratio is no result: how precise or quiet its rounds were is noise.
    if (findings.run_has_problems()) return;
    // The run's parameters: a retake's own wait no longer (quiet_wait_s 0), and
    // the wait its record says it made was its first measurement's.
    for (const std::string& message : round_notices(result, run.stopping, counted.quiet_rounds)) {
        findings.notice(message);
    }
}

// The sides' repeats interleaved in alternating order, like the rounds, so a
// change of machine state does not land on one side's block only; each batch
// less its wait for its CPU, as the ms columns. Their length follows the run's
// preset, not the shorter rounds that follow a failed check.
void measure_pipelined(RunState run, WorkloadTensors& tensors, SideStates& states, Findings& findings,
                       WorkloadRecord& result) {
    const bool quick = run.stopping.is_quick();
    const double target_ms = quick ? 2.0 : 20.0;
    const std::size_t repeats = quick ? 1 : 3;
    std::array<std::vector<double>, 2> per_call_ms;
    for (const SideState& state : states) {
        SideRecord& record = result.side(state.side);
        const double per_call = std::max(record.samples.median, 1e-6);
        record.pipelined_calls = static_cast<int>(std::clamp(std::round(target_ms / per_call), 2.0, 1000.0));
    }
    for (std::size_t r = 0; r < repeats; ++r) {
        const SweptRound swept(run.runtime);
        for (Side s : alternating_order(r)) {
            SideState& state = states[s];
            const int calls = result.side(s).pipelined_calls;
            load(run.runtime, tensors, state, 0);
            swept.flush_caches(state);
            const Sample batch = scheduled_reading(
                run, [&] { return run.runtime.time_calls([&] { call_side(run.bench, state, findings); }, calls); });
            per_call_ms[SideStates::index_of(s)].push_back((batch.ms - batch.wait_ms.value_or(0.0)) / calls);
        }
    }
    for (SideState& state : states) {
        SideRecord& record = result.side(state.side);
        record.pipelined_ms = stats::median(per_call_ms[SideStates::index_of(state.side)]);
        check_timed_outputs(run, tensors, state, findings, 0,
                            {"pipelined batch of ", static_cast<std::size_t>(record.pipelined_calls), " calls"},
                            record.pipelined_calls);
    }
}

}  // namespace forge::bench
