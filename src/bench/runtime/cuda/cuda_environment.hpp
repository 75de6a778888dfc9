// The environment variables that change what a CUDA bench measures: recorded in
// eval.json's device facts, and a notice for each one that bends the ratio
// (synchronous launches, forced PTX JIT, a TF32 override that makes a library
// side compute in another precision). Plain C++, tested without a GPU.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace forge::bench {

struct CudaEnvironment {
    nlohmann::json facts = nlohmann::json::object();  // each variable that is set, by name
    std::vector<std::string> notices;
};

// `lookup` is getenv's shape: the value, or null when the variable is unset.
[[nodiscard]] CudaEnvironment cuda_environment(const std::function<const char*(const char*)>& lookup);

}  // namespace forge::bench
