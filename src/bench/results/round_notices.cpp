#include "results/round_notices.hpp"

#include <algorithm>
#include <cmath>
#include <set>
#include <sstream>
#include <utility>

#include "runtime/device_clocks.hpp"

namespace forge::bench {

namespace {

std::string precision_not_reached(const WorkloadRecord& result, const StoppingParameters& stopping) {
    std::ostringstream message;
    const double half_width = result.ratio.relative_half_width();
    message << "the ratio's interval reached +/-" << 100.0 * half_width << "% after " << result.rounds.size()
            << " rounds, ";
    if (half_width <= stopping.precision && result.selection != RoundSelection::quiet) {
        // Narrow enough, from rounds a neighbour may have moved: only quiet rounds reach the precision.
        message << "within the +/-" << 100.0 * stopping.precision
                << "% asked but from rounds that were not quiet, which do not count toward it (stopped by the "
                << to_string(result.stop) << "): rerun on a quieter machine";
        return message.str();
    }
    message << "not the +/-" << 100.0 * stopping.precision << "% asked";
    if (result.stop == StopReason::out_of_reach) {
        message << ": the copies of the sides' tensors (layouts, placed apart in memory) read apart by more than "
                   "their rounds' noise explains, which the rest of the time cap could not average out (it would "
                   "have narrowed the interval by under "
                << std::lround(100.0 * (1.0 - StoppingCriterion::cap_narrowing))
                << "%), so the rounds stopped early: the interval carries where a side's tensors lie; ask for "
                   "less with --precision";
        return message.str();
    }
    message << " (stopped by the " << to_string(result.stop)
            << "): rerun on a quieter machine, or ask for less with --precision";
    return message.str();
}

std::string too_few_quiet(const WorkloadRecord& result, const StoppingParameters& stopping,
                          std::size_t quiet_rounds) {
    std::ostringstream message;
    message << quiet_rounds << " of " << result.rounds.size() << " rounds were quiet, fewer than the "
            << stopping.min_rounds
            << " the ratio needs (quiet: no preempted call, no throttled GPU, and the memory calibration within "
            << std::lround(100.0 * (quiet_margin - 1.0)) << "% of the quietest reading of this run)";
    if (result.waited_for_quiet) {
        message << ", even after waiting " << stopping.quiet_wait_s << " s past the " << stopping.max_wall_s
                << " s cap";
    }
    message << ": the ratio comes from " << to_string(result.selection)
            << ", which a neighbour's load can move; rerun on a quieter machine";
    return message.str();
}

std::string preempted_kept(const WorkloadRecord& result, std::size_t preempted) {
    std::ostringstream message;
    const bool waits_known = std::all_of(result.rounds.begin(), result.rounds.end(), [](const Round& round) {
        return round.reference_wait_ms && round.student_wait_ms;
    });
    message << preempted << " of " << result.rounds.size()
            << " rounds had a call preempted by the scheduler (another process wanted this CPU), too many to set "
               "aside: "
            << (waits_known ? "the time another process kept each call from its CPU is taken out of its time (the "
                              "rounds' reference_wait_ms and student_wait_ms), what it evicted from the caches "
                              "meanwhile is not"
                            : "the ratio includes time the bench was descheduled, which weighs on the longer call")
            << "; run on an idle machine";
    return message.str();
}

// Rounds timed while the GPU slowed itself, with what slowed it: set aside
// where enough others exist (RoundSelection), said either way.
std::string throttled_rounds(const WorkloadRecord& result, std::size_t throttled) {
    std::set<std::string> reasons;
    for (const Round& round : result.rounds) {
        if (!round.throttled || !round.clocks) continue;
        for (std::string& reason : throttle_reasons(round.clocks->reasons)) reasons.insert(std::move(reason));
    }
    std::ostringstream message;
    message << throttled << " of " << result.rounds.size() << " rounds ran while the GPU slowed its clocks (";
    if (reasons.empty()) {
        message << "the SM clock fell more than " << 100.0 * ClockWatch::default_clock_drop
                << "% below its highest, no reason given";
    } else {
        const char* separator = "";
        for (const std::string& reason : reasons) message << std::exchange(separator, ", ") << reason;
    }
    message << ")"
            << (result.selection == RoundSelection::all
                    ? ", too many to set aside: the ratio includes them; let the GPU cool, or check its power limit"
                    : ", and were set aside");
    return message.str();
}

std::string machine_moved(const WorkloadRecord& result) {
    std::ostringstream message;
    message << "the machine's speed moved by " << 100.0 * result.drift.moved
            << "% during the rounds (a fixed calibration timed between rounds): paired rounds cancel what hits "
               "both sides of a round, but the machine was not steady";
    return message.str();
}

std::string ratio_moved(const WorkloadRecord& result) {
    const RatioDrift& drift = result.ratio_drift;
    std::ostringstream message;
    message.precision(4);
    message << "the ratio moved during the rounds: over " << drift.block_ratios.size()
            << " stretches of the counted rounds, in order, it read";
    for (const double ratio : drift.block_ratios) message << " " << ratio;
    message.precision(2);
    message << " (" << 100.0 * drift.moved << "% apart; Kruskal-Wallis p " << drift.p_value
            << ", eval.json ratio_drift): the machine changed under the rounds and slowed one side more than the "
               "other, which the interval, over layouts that each span the whole workload, does not include; "
               "rerun on a quieter machine";
    return message.str();
}

}  // namespace

std::vector<std::string> round_notices(const WorkloadRecord& result, const StoppingParameters& stopping,
                                       std::size_t quiet_rounds) {
    std::vector<std::string> notices;
    if (result.stop != StopReason::precision_reached) notices.push_back(precision_not_reached(result, stopping));
    if (result.selection != RoundSelection::quiet) notices.push_back(too_few_quiet(result, stopping, quiet_rounds));
    const auto count = [&](bool Round::*flag) {
        return static_cast<std::size_t>(std::count_if(result.rounds.begin(), result.rounds.end(),
                                                      [flag](const Round& r) { return r.*flag; }));
    };
    const std::size_t preempted = count(&Round::preempted);
    if (result.selection == RoundSelection::all && preempted > 0) notices.push_back(preempted_kept(result, preempted));
    if (const std::size_t throttled = count(&Round::throttled); throttled > 0) {
        notices.push_back(throttled_rounds(result, throttled));
    }
    if (result.drift.flagged) notices.push_back(machine_moved(result));
    if (result.ratio_drift.flagged) notices.push_back(ratio_moved(result));
    return notices;
}

}  // namespace forge::bench
