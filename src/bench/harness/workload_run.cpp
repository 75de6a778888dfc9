#include "harness/workload_run.hpp"

#include <exception>
#include <memory>
#include <optional>
#include <ostream>
#include <sstream>
#include <string>
#include <string_view>
#include <utility>

#include "access.hpp"
#include "harness/call_checks.hpp"
#include "harness/findings.hpp"
#include "harness/run_state.hpp"
#include "harness/side_state.hpp"
#include "harness/timed_calls.hpp"
#include "harness/workload_profile.hpp"
#include "harness/workload_tensors.hpp"

namespace forge::bench {

namespace {

std::string format_ms(double ms) {
    std::ostringstream out;
    out.precision(4);
    out << ms << " ms";
    return out.str();
}

// Each side's setup (Bench::setup) for the workload's calls, and its teardown
// on every way out: the device finishes its work, then each side's State is
// destroyed (its destructor is the side's teardown), before the tensors those
// calls used are freed.
class SidesSetUp {
public:
    // After the runtime chose the device and before the workload's first call;
    // the device is synchronized after it so none of its work runs into a window.
    SidesSetUp(RunState run, SideStates& states, const Findings& findings) : runtime_(run.runtime), sides_(states) {
        for (SideState& state : sides_) {
            const detail::SideSetup& setup = run.bench.side_setup(state.side);
            if (!setup.make) continue;
            std::shared_ptr<void> made;
            try {
                made = setup.make(run.workload, runtime_.stream());
                runtime_.synchronize();
            } catch (const std::exception& e) {
                tear_down_after_failure();
                findings.fail("the " + side_name(state.side) + "'s setup failed: " + e.what());
            }
            detail::Access::set_state(state.io, std::move(made), *setup.state_type);
        }
    }

    SidesSetUp(const SidesSetUp&) = delete;
    SidesSetUp& operator=(const SidesSetUp&) = delete;

    // A failed call or check left work on the device: it finishes before the
    // states go, and its own error gives way to the one already on its way.
    ~SidesSetUp() {
        if (!torn_down_) tear_down_after_failure();
    }

    // After the workload's last call; a device error here is the run's.
    void tear_down() {
        torn_down_ = true;
        runtime_.synchronize();
        drop_states();
    }

private:
    void tear_down_after_failure() noexcept {
        torn_down_ = true;
        try {
            runtime_.synchronize();
        } catch (...) {  // NOLINT(bugprone-empty-catch): the failure already on its way is the run's
        }
        drop_states();
    }

    void drop_states() noexcept {
        for (SideState& state : sides_) detail::Access::drop_state(state.io);
    }

    Runtime& runtime_;
    SideStates& sides_;
    bool torn_down_ = false;
};

void log_workload(const RunOptions& options, const WorkloadRecord& result) {
    if (options.log == nullptr) return;
    const std::string& name = result.workload->name;
    for (const Side side : sides) {
        const SideRecord& reading = result.side(side);
        *options.log << "[forge bench] " << name << " " << side_name(side) << ": median "
                     << format_ms(reading.samples.median) << ", pipelined " << format_ms(reading.pipelined_ms)
                     << "\n";
    }
    *options.log << "[forge bench] " << name << " ratio " << result.ratio.ratio << " [" << result.ratio.low << ", "
                 << result.ratio.high << "] (" << stats::to_string(result.ratio.verdict()) << ") over "
                 << result.rounds.size() << " rounds, " << to_string(result.stop) << "\n";
}

// A run that failed a check has no ratio to give, only its failures and each
// workload's comparisons: its rounds from then on are --quick's, so the run
// says what failed in seconds, where a full run would take a minute.
StoppingParameters stopping_after_checks(const StoppingParameters& stopping, Findings& findings) {
    if (!findings.run_has_problems() || stopping.is_quick()) {
        return stopping;
    }
    if (findings.once_per_run("rounds shortened after a failed check")) {
        findings.run_notice("the rounds after the run's first failed check were timed at --quick's length: "
                            "a ratio of calls that fail is no result; fix what failed and run again for one");
    }
    StoppingParameters quick = StoppingParameters::quick();
    quick.confidence = stopping.confidence;
    return quick;
}

}  // namespace

WorkloadRecord measure_workload(const BenchDefinition& bench, const WindowContract& contract, Runtime& runtime,
                                const RunOptions& options, const Workload& workload, RunRecord& record,
                                const StoppingParameters& stopping, const WorkloadRecord* continued) {
    WorkloadRecord result;
    result.workload = &workload;
    if (continued != nullptr) result.wall = continued->wall;
    WallTime& wall = result.wall;
    {
        const Stopwatch whole(wall.total_s);
        const SchedulerWatch scheduler;  // the timing thread's: the steps run on it
        const RunState run{bench,     contract,        runtime,          workload,
                           scheduler, record.stopping, record.workloads, record.against_itself.has_value()};
        Findings findings(record, workload);
        SideStates states(workload, runtime.stream());
        WorkloadTensors tensors;
        std::optional<SidesSetUp> set_up;  // torn down before the tensors its calls used are freed
        {
            const Stopwatch setting_up(wall.setup_s);
            tensors = make_workload_tensors(run, findings, result);
            make_layouts(run, tensors, states, findings);
            set_up.emplace(run, states, findings);
        }
        {
            const Stopwatch checking(wall.correctness_s);
            for (int v = 0; v < input_variants; ++v) {
                check_untimed_calls(run, tensors, states, findings, record.outputs, v);
            }
        }
        const StoppingParameters used = stopping_after_checks(stopping, findings);
        result.stopping_preset = used.preset;
        measure_rounds(run, tensors, states, findings, record.outputs, used, continued, result);
        {
            const Stopwatch pipelining(wall.pipelined_s);
            measure_pipelined(run, tensors, states, findings, result);
        }
        {
            const Stopwatch profiling(wall.profiled_s);
            profile_sides(run, tensors, states, findings, result);
        }
        set_up->tear_down();
        if (result.prep) result.prep->mutated.assign(tensors.mutated.begin(), tensors.mutated.end());
    }
    log_workload(options, result);
    return result;
}

}  // namespace forge::bench
