#include "runtime/cuda/cuda_environment.hpp"

#include <string_view>

namespace forge::bench {

namespace {

struct Variable {
    const char* name;
    // A notice when the variable has this value (empty: any value), else none.
    std::string_view bends_when;
    const char* notice;
};

// Recorded whenever set; the ones with a notice change the ratio itself.
constexpr Variable variables[] = {
    {"CUDA_LAUNCH_BLOCKING", "1",
     "CUDA_LAUNCH_BLOCKING=1: every kernel launch waits for the kernel to finish, so a call of several launches "
     "is timed with the host's round trips between them; unset it to bench"},
    {"CUDA_FORCE_PTX_JIT", "1",
     "CUDA_FORCE_PTX_JIT=1: every kernel is JIT-compiled from PTX instead of running the native code it was built "
     "with, on both sides; unset it to bench"},
    {"NVIDIA_TF32_OVERRIDE", "",
     "NVIDIA_TF32_OVERRIDE is set: cuBLAS and cuDNN take TF32 from it, not from the calls' own math mode, so a "
     "library side may compute in another precision than the bench says; unset it to bench"},
    {"CUDA_MODULE_LOADING", "", nullptr},
    {"CUBLAS_WORKSPACE_CONFIG", "", nullptr},
    {"CUDA_DEVICE_MAX_CONNECTIONS", "", nullptr},
    {"CUDA_CACHE_DISABLE", "", nullptr},
    {"CUDA_VISIBLE_DEVICES", "", nullptr},
};

}  // namespace

CudaEnvironment cuda_environment(const std::function<const char*(const char*)>& lookup) {
    CudaEnvironment environment;
    for (const Variable& variable : variables) {
        const char* value = lookup(variable.name);
        if (value == nullptr) continue;
        environment.facts[variable.name] = value;
        if (variable.notice != nullptr && (variable.bends_when.empty() || variable.bends_when == value)) {
            environment.notices.emplace_back(variable.notice);
        }
    }
    return environment;
}

}  // namespace forge::bench
