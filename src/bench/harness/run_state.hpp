// What every step of one workload's measurement runs against, fixed while the
// workload runs: the bench and its contract, the runtime, the workload, the
// timing thread's scheduler watch, and what the run holds so far that a step
// reads. Views only, passed by value; what a step changes (the workload's
// tensors, each side's state, the findings) it takes by reference.
#pragma once

#include <vector>

#include "forge/bench/bench.hpp"
#include "forge/contract/contract.hpp"

#include "definition.hpp"

#include "results/record.hpp"
#include "rules/stopping.hpp"
#include "runtime/preemption.hpp"
#include "runtime/runtime.hpp"

namespace forge::bench {

struct RunState {
    BenchDefinition bench;
    const WindowContract& contract;
    Runtime& runtime;
    const Workload& workload;
    const SchedulerWatch& scheduler;     // the timing thread's: the steps run on it
    const StoppingParameters& stopping;  // the run's (record.stopping), not a retake's or a failed run's quick ones
    const std::vector<WorkloadRecord>& earlier;  // the run's workloads measured before this one
    bool against_itself;  // an A/A run (RunRecord::against_itself): one side's declarations on both
};

}  // namespace forge::bench
