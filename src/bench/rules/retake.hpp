// Which finished workloads a busy stretch of the machine fooled. Another
// tenant's memory traffic comes in stretches of seconds that can cover a run's
// first workload, before any quieter reading exists to judge its rounds
// against, and its busy rounds then pass as quiet. At the end of the run each
// workload is judged again against the whole run's readings; the harness
// measures again those that fail, and those that found too few quiet rounds
// while another workload found its own; a retake's rounds pool with the first
// measurement's (measure_workload's `continued`), so a slow workload whose
// retake alone could not reach min_rounds quiet ones gains from both.
#pragma once

#include <cstddef>
#include <vector>

#include "results/record.hpp"
#include "rules/counted_rounds.hpp"
#include "rules/stopping.hpp"

namespace forge::bench {

// Every round's memory calibration in `workloads` but `except`: how busy the machine was.
[[nodiscard]] std::vector<double> machine_readings(const std::vector<WorkloadRecord>& workloads,
                                                   const WorkloadRecord* except = nullptr);

// The workloads of `run` (indices, in order) whose rounds were quiet by the
// readings they had but are not against the rest of the run's, as their
// stopping rule would now choose them; and those that waited for quiet rounds
// and fell back while another workload of the run found its own (the machine
// was quiet at some point, so measuring again can find it quiet). None where
// `stopping` retakes none, and no fallen-back one in a run where no workload
// was quiet: measuring again would only double a busy machine's time.
[[nodiscard]] std::vector<std::size_t> workloads_to_retake(const std::vector<WorkloadRecord>& run,
                                                           const StoppingParameters& stopping);

}  // namespace forge::bench
