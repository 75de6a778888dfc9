// A CTest resource specification of this machine's GPUs, so `ctest -j N
// --resource-spec-file F` hands each CUDA bench a GPU of its own.
#pragma once

#include <cstddef>
#include <filesystem>
#include <optional>

#include <nlohmann/json.hpp>

namespace forge {

// GPUs a CUDA program here would see: CUDA_VISIBLE_DEVICES when set (its entries),
// else the NVIDIA driver's /proc/driver/nvidia/gpus entries (0 without a driver).
[[nodiscard]] std::size_t count_visible_gpus(const std::filesystem::path& driver_dir = "/proc/driver/nvidia/gpus");

// {"version": {"major": 1, "minor": 0}, "local": [{"gpus": [{"id": "0", "slots": 1}, ...]}]}
[[nodiscard]] nlohmann::json gpu_resource_spec(std::size_t gpus, std::size_t slots_per_gpu = 1);

}  // namespace forge
