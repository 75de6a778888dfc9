// Where a bench ran: its host and, inside a Slurm job, the job and the GPUs it
// was given, so that runs from a cluster's nodes are told apart (each node's
// history is its own) and traced back to the scheduler's records. eval.json's
// "launch".
#pragma once

#include <functional>

#include <nlohmann/json.hpp>

namespace forge::bench {

// A variable's value, or null where it is not set (std::getenv's contract).
using EnvironmentReader = std::function<const char*(const char*)>;

// {"host": ..., "cuda_visible_devices": ... | null, "slurm": {...} | null}:
// the host's name (Slurm's node name within a job), and within one the job id,
// step, node, partition and the GPUs Slurm gave it, from the job's environment.
[[nodiscard]] nlohmann::json launch_facts(const EnvironmentReader& environment);

}  // namespace forge::bench
