// A profiled CUDA call's device work, made into its Profile: the per-kernel table,
// the kernels it ran and the work that outlived its window. Plain C++, so the
// rules are tested on machines without a GPU.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "runtime.hpp"

namespace forge::bench {

// One record of device work (CUPTI activity).
struct DeviceActivity {
    enum class Kind { kernel, memcpy, memset };

    Kind kind = Kind::kernel;
    std::string name;          // the kernel's demangled name, or nsys's name for a copy or a set
    std::uint64_t start_ns = 0;
    std::uint64_t end_ns = 0;
    std::uint64_t bytes = 0;   // memcpy, memset
    std::uint32_t value = 0;   // memset: the byte value set

    [[nodiscard]] double duration_ns() const noexcept {
        return end_ns > start_ns ? static_cast<double>(end_ns - start_ns) : 0.0;
    }
};

// How the profiled call marks its window's end on the device's clock: a memset of
// `bytes` bytes to `value`, queued where the timed windows' stop event would be.
struct WindowEndMarker {
    std::uint64_t bytes = 0;
    std::uint32_t value = 0;
};

// Device work ending this little after the window's end is the clocks' granularity, not late.
inline constexpr double late_slack_ns = 1000.0;

// The table of `records` without the marker (the last memset matching it), the
// names of their kernels, and the work that ended more than late_slack_ns after the
// marker began, latest first. Without a marker nothing is judged late.
[[nodiscard]] Profile profile_of(const std::vector<DeviceActivity>& records, WindowEndMarker marker);

}  // namespace forge::bench
