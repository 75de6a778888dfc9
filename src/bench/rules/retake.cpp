#include "rules/retake.hpp"

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
    return count_rounds(workload.readings(), machine_readings(run, &workload), stopping.min_rounds).selection ==
           RoundSelection::quiet;
}

}  // namespace

std::vector<std::size_t> workloads_to_retake(const std::vector<WorkloadRecord>& run,
                                             const StoppingParameters& stopping) {
    std::vector<std::size_t> retake;
    if (!stopping.retake_busy_workloads) return retake;
    std::vector<bool> quiet(run.size());
    for (std::size_t w = 0; w < run.size(); ++w) {
        quiet[w] = run[w].selection == RoundSelection::quiet && quiet_against_run(run[w], run, stopping);
    }
    const auto quiet_workloads = static_cast<std::size_t>(std::count(quiet.begin(), quiet.end(), true));
    for (std::size_t w = 0; w < run.size(); ++w) {
        const bool fooled = run[w].selection == RoundSelection::quiet && !quiet[w];
        // Fell back while the machine was quiet for another workload of the run.
        const bool missed_quiet = run[w].selection != RoundSelection::quiet && quiet_workloads > 0;
        if (fooled || missed_quiet) retake.push_back(w);
    }
    return retake;
}

}  // namespace forge::bench
