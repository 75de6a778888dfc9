#include "workload_run.hpp"

#include <exception>
#include <memory>
#include <ostream>
#include <sstream>
#include <string>
#include <utility>

#include "access.hpp"
#include "call_checks.hpp"
#include "timed_calls.hpp"
#include "workload_context.hpp"
#include "workload_profile.hpp"
#include "workload_tensors.hpp"

namespace forge::bench {

namespace {

std::string format_ms(double ms) {
    std::ostringstream out;
    out.precision(4);
    out << ms << " ms";
    return out.str();
}

// Each side's setup (Bench::setup), after the runtime chose the device and
// before the workload's first call; the device is synchronized after it so
// none of its work runs into a window.
void set_up_sides(WorkloadContext& context) {
    for (SideState& state : context.sides) {
        const SideSetup& setup = context.bench.side_setup(state.side);
        if (!setup.make) continue;
        std::shared_ptr<void> made;
        try {
            made = setup.make(context.workload, context.runtime.stream());
            context.runtime.synchronize();
        } catch (const std::exception& e) {
            context.fail("the " + side_name(state.side) + "'s setup failed: " + e.what());
        }
        detail::Access::set_state(state.io, std::move(made), *setup.state_type);
    }
}

// After the workload's last call: the device finishes its work, then each
// side's State is destroyed (its destructor is the side's teardown).
void tear_down_sides(WorkloadContext& context) {
    context.runtime.synchronize();
    for (SideState& state : context.sides) detail::Access::drop_state(state.io);
}

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

}  // namespace

WorkloadRecord measure_workload(const Bench& bench, const WindowContract& contract, Runtime& runtime,
                                const RunOptions& options, const Workload& workload, RunRecord& record,
                                const StoppingParameters& stopping, const WorkloadRecord* continued) {
    WorkloadContext context(bench, contract, runtime, options, workload, record);
    WorkloadRecord result;
    result.workload = &workload;
    make_workload_tensors(context, result);
    set_up_sides(context);
    for (int v = 0; v < input_variants; ++v) check_untimed_calls(context, v);
    measure_rounds(context, stopping, continued, result);
    measure_pipelined(context, result);
    profile_sides(context, result);
    tear_down_sides(context);
    log_workload(options, result);
    if (result.prep) result.prep->mutated.assign(context.mutated.begin(), context.mutated.end());
    return result;
}

}  // namespace forge::bench
