#include "launch.hpp"

#include <unistd.h>

#include <array>
#include <string>
#include <utility>

#include "forge/eval/eval_keys.hpp"

namespace forge::bench {

namespace {

nlohmann::json value_of(const EnvironmentReader& environment, const char* variable) {
    const char* value = environment(variable);
    return value != nullptr ? nlohmann::json(std::string(value)) : nlohmann::json();
}

std::string host_name() {
    std::array<char, 256> name{};
    if (gethostname(name.data(), name.size() - 1) != 0) return "";
    return name.data();
}

}  // namespace

nlohmann::json launch_facts(const EnvironmentReader& environment) {
    nlohmann::json slurm;  // null outside a job
    if (environment("SLURM_JOB_ID") != nullptr) {
        // A step's own GPUs where Slurm says them, else the job's.
        nlohmann::json gpus = value_of(environment, "SLURM_STEP_GPUS");
        if (gpus.is_null()) gpus = value_of(environment, "SLURM_JOB_GPUS");
        slurm = {{"job_id", value_of(environment, "SLURM_JOB_ID")},
                 {"step_id", value_of(environment, "SLURM_STEP_ID")},
                 {"node", value_of(environment, "SLURMD_NODENAME")},
                 {"partition", value_of(environment, "SLURM_JOB_PARTITION")},
                 {"gpus", std::move(gpus)}};
    }
    std::string host = slurm.is_object() && slurm["node"].is_string() ? slurm["node"].get<std::string>() : host_name();
    return {{eval_key::host, host.empty() ? nlohmann::json() : nlohmann::json(std::move(host))},
            {"cuda_visible_devices", value_of(environment, "CUDA_VISIBLE_DEVICES")},
            {"slurm", std::move(slurm)}};
}

}  // namespace forge::bench
