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
#include "harness/timed_calls.hpp"
#include "harness/workload_context.hpp"
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
    explicit SidesSetUp(WorkloadContext& context) : context_(context) {
        for (SideState& state : context_.sides) {
            const detail::SideSetup& setup = context_.bench.side_setup(state.side);
            if (!setup.make) continue;
            std::shared_ptr<void> made;
            try {
                made = setup.make(context_.workload, context_.runtime.stream());
                context_.runtime.synchronize();
            } catch (const std::exception& e) {
                tear_down_after_failure();
                context_.findings.fail("the " + side_name(state.side) + "'s setup failed: " + e.what());
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
        context_.runtime.synchronize();
        drop_states();
    }

private:
    void tear_down_after_failure() noexcept {
        torn_down_ = true;
        try {
            context_.runtime.synchronize();
        } catch (...) {  // NOLINT(bugprone-empty-catch): the failure already on its way is the run's
        }
        drop_states();
    }

    void drop_states() noexcept {
        for (SideState& state : context_.sides) detail::Access::drop_state(state.io);
    }

    WorkloadContext& context_;
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
StoppingParameters stopping_after_checks(const StoppingParameters& stopping, WorkloadContext& context) {
    if (!context.findings.run_has_problems() || stopping.is_quick()) {
        return stopping;
    }
    if (context.findings.once_per_run("rounds shortened after a failed check")) {
        context.findings.run_notice("the rounds after the run's first failed check were timed at --quick's length: "
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
        WorkloadContext context(bench, contract, runtime, options, workload, record);
        std::optional<SidesSetUp> set_up;
        {
            const Stopwatch setting_up(wall.setup_s);
            make_workload_tensors(context, result);
            set_up.emplace(context);
        }
        {
            const Stopwatch checking(wall.correctness_s);
            for (int v = 0; v < input_variants; ++v) check_untimed_calls(context, v);
        }
        const StoppingParameters used = stopping_after_checks(stopping, context);
        result.stopping_preset = used.preset;
        measure_rounds(context, used, continued, result);
        {
            const Stopwatch pipelining(wall.pipelined_s);
            measure_pipelined(context, result);
        }
        {
            const Stopwatch profiling(wall.profiled_s);
            profile_sides(context, result);
        }
        set_up->tear_down();
        if (result.prep) result.prep->mutated.assign(context.mutated.begin(), context.mutated.end());
    }
    log_workload(options, result);
    return result;
}

}  // namespace forge::bench
