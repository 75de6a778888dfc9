#define BOOST_TEST_MODULE bench_cuda_environment
#include <boost/test/unit_test.hpp>

#include <map>
#include <string>

#include "runtime/cuda/cuda_environment.hpp"

namespace fb = forge::bench;

namespace {

fb::CudaEnvironment with(const std::map<std::string, std::string>& set) {
    return fb::cuda_environment([&](const char* name) -> const char* {
        const auto found = set.find(name);
        return found == set.end() ? nullptr : found->second.c_str();
    });
}

bool mentions(const fb::CudaEnvironment& environment, const std::string& text) {
    for (const std::string& notice : environment.notices) {
        if (notice.find(text) != std::string::npos) return true;
    }
    return false;
}

}  // namespace

BOOST_AUTO_TEST_CASE(an_empty_environment_records_nothing) {
    const fb::CudaEnvironment environment = with({{"HOME", "/root"}});
    BOOST_TEST(environment.facts.empty());
    BOOST_TEST(environment.notices.empty());
}

BOOST_AUTO_TEST_CASE(settings_are_recorded_without_a_notice) {
    const fb::CudaEnvironment environment =
        with({{"CUDA_MODULE_LOADING", "EAGER"}, {"CUDA_VISIBLE_DEVICES", "GPU-1"}, {"CUDA_LAUNCH_BLOCKING", "0"}});
    BOOST_TEST(environment.facts.at("CUDA_MODULE_LOADING") == "EAGER");
    BOOST_TEST(environment.facts.at("CUDA_VISIBLE_DEVICES") == "GPU-1");
    BOOST_TEST(environment.facts.at("CUDA_LAUNCH_BLOCKING") == "0");
    BOOST_TEST(environment.notices.empty());
}

BOOST_AUTO_TEST_CASE(what_bends_the_ratio_gets_a_notice_each) {
    const fb::CudaEnvironment environment =
        with({{"CUDA_LAUNCH_BLOCKING", "1"}, {"CUDA_FORCE_PTX_JIT", "1"}, {"NVIDIA_TF32_OVERRIDE", "0"}});
    BOOST_TEST(environment.notices.size() == 3u);
    BOOST_TEST(mentions(environment, "CUDA_LAUNCH_BLOCKING=1"));
    BOOST_TEST(mentions(environment, "CUDA_FORCE_PTX_JIT=1"));
    BOOST_TEST(mentions(environment, "NVIDIA_TF32_OVERRIDE"));
}
