// Where a bench ran (eval.json's "launch"): the host, and inside a Slurm job the
// job and its GPUs, read from the job's environment.
#define BOOST_TEST_MODULE bench_launch
#include <boost/test/unit_test.hpp>

#include <map>
#include <string>

#include "launch.hpp"

namespace fb = forge::bench;

namespace {
fb::EnvironmentReader environment_of(const std::map<std::string, std::string>& variables) {
    return [variables](const char* name) -> const char* {
        const auto found = variables.find(name);
        return found != variables.end() ? found->second.c_str() : nullptr;
    };
}
}  // namespace

BOOST_AUTO_TEST_CASE(outside_a_job_the_host_is_named_and_slurm_is_null) {
    const nlohmann::json launch = fb::launch_facts(environment_of({}));
    BOOST_TEST(launch["host"].is_string());
    BOOST_TEST(!launch["host"].get<std::string>().empty());
    BOOST_TEST(launch["slurm"].is_null());
    BOOST_TEST(launch["cuda_visible_devices"].is_null());
}

BOOST_AUTO_TEST_CASE(inside_a_slurm_job_the_job_its_node_and_its_gpus_are_named) {
    const nlohmann::json launch = fb::launch_facts(environment_of({{"SLURM_JOB_ID", "4242"},
                                                                   {"SLURM_STEP_ID", "0"},
                                                                   {"SLURMD_NODENAME", "gpu-node-07"},
                                                                   {"SLURM_JOB_PARTITION", "gpu"},
                                                                   {"SLURM_JOB_GPUS", "3"},
                                                                   {"CUDA_VISIBLE_DEVICES", "0"}}));
    BOOST_TEST(launch["host"] == "gpu-node-07");  // Slurm's name for the node, which its records use
    BOOST_TEST(launch["cuda_visible_devices"] == "0");
    BOOST_TEST(launch["slurm"]["job_id"] == "4242");
    BOOST_TEST(launch["slurm"]["step_id"] == "0");
    BOOST_TEST(launch["slurm"]["node"] == "gpu-node-07");
    BOOST_TEST(launch["slurm"]["partition"] == "gpu");
    BOOST_TEST(launch["slurm"]["gpus"] == "3");
}

BOOST_AUTO_TEST_CASE(a_step_s_own_gpus_win_over_the_job_s) {
    const nlohmann::json launch =
        fb::launch_facts(environment_of({{"SLURM_JOB_ID", "1"}, {"SLURM_JOB_GPUS", "0,1"}, {"SLURM_STEP_GPUS", "1"}}));
    BOOST_TEST(launch["slurm"]["gpus"] == "1");
    BOOST_TEST(launch["slurm"]["partition"].is_null());
    BOOST_TEST(launch["host"].is_string());  // no node name from Slurm: the host's own
}
