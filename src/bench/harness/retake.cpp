#include "retake.hpp"

#include <algorithm>

namespace forge::bench {

std::vector<double> machine_readings(const std::vector<WorkloadRecord>& workloads, const WorkloadRecord* except) {
    std::vector<double> readings;
    for (const WorkloadRecord& workload : workloads) {
        if (&workload == except) continue;
        for (const Round& round : workload.rounds) readings.push_back(round.memory_calibration_ms);
    }
    return readings;
}

namespace {

// Whether `workload` has enough quiet rounds judged against the rest of the run.
bool quiet_against_run(const WorkloadRecord& workload, const std::vector<WorkloadRecord>& run,
                       const StoppingParameters& stopping) {
    PrecisionCriterion criterion(stopping, machine_readings(run, &workload));
    // As the rounds were judged: the slower of the readings before and after each.
    double previous_ms = workload.memory_calibration_before_ms;
    for (const Round& round : workload.rounds) {
        criterion.add_round(round.log_ratio(), round.layout, round.reference_ms + round.student_ms,
                            round.preempted || round.throttled, std::max(round.memory_calibration_ms, previous_ms));
        previous_ms = round.memory_calibration_ms;
    }
    return criterion.selection() == RoundSelection::quiet;
}

}  // namespace

std::vector<std::size_t> workloads_to_retake(const std::vector<WorkloadRecord>& run,
                                             const StoppingParameters& stopping) {
    std::vector<std::size_t> retake;
    if (!stopping.retake_busy_workloads) return retake;
    for (std::size_t w = 0; w < run.size(); ++w) {
        if (run[w].selection == RoundSelection::quiet && !quiet_against_run(run[w], run, stopping)) {
            retake.push_back(w);
        }
    }
    return retake;
}

}  // namespace forge::bench
