// One workload measured: inputs (two variants), the prep step, each side's own
// copies, correctness, paired timed rounds, pipelined calls and the profiled calls.
#pragma once

#include "forge/bench/bench.hpp"
#include "forge/bench/run.hpp"
#include "forge/contract/contract.hpp"

#include "definition.hpp"

#include "results/record.hpp"
#include "rules/stopping.hpp"
#include "runtime/runtime.hpp"

namespace forge::bench {

// Its notices and problems go to `record`, whose earlier workloads' machine
// readings judge its rounds; `stopping`: the run's (record.stopping), or a retake's.
// `continued`: for a retake, the workload's first measurement; its rounds come
// first in the result and count with the new ones (their layouts numbered on
// from the first's, each measurement's t_s from its own first round).
[[nodiscard]] WorkloadRecord measure_workload(const BenchDefinition& bench, const WindowContract& contract,
                                              Runtime& runtime, const RunOptions& options, const Workload& workload,
                                              RunRecord& record, const StoppingParameters& stopping,
                                              const WorkloadRecord* continued = nullptr);

}  // namespace forge::bench
