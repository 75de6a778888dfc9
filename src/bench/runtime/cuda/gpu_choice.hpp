// Which GPU a CUDA bench uses: the one CTest's resource allocation gave the test.
#pragma once

#include <string_view>

namespace forge::bench {

// CTEST_RESOURCE_GROUP_COUNT set and CTEST_RESOURCE_GROUP_0_GPUS = "id:1,slots:1"
// -> 1; otherwise 0. Throws std::invalid_argument on a malformed allocation.
[[nodiscard]] int ctest_gpu_device();

// The device id in one allocation string ("id:1,slots:1"; several ";"-separated
// allocations: the first). Throws std::invalid_argument when there is none.
[[nodiscard]] int parse_gpu_allocation(std::string_view allocation);

}  // namespace forge::bench
