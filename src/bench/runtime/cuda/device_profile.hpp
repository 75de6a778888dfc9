// A profiled CUDA call's device work, made into its Profile: the per-kernel table,
// the kernels it ran, and the work that began before or outlived its window. Plain
// C++, so the rules are tested on machines without a GPU.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "runtime/runtime.hpp"

namespace forge::bench {

// One record of device work (CUPTI activity).
struct DeviceActivity {
    enum class Kind { kernel, memcpy, memset };

    Kind kind = Kind::kernel;
    std::string name;          // the kernel's demangled name, or nsys's name for a copy or a set
    std::uint64_t start_ns = 0;
    std::uint64_t end_ns = 0;
    std::uint64_t bytes = 0;   // memcpy, memset
    std::uint32_t stream_id = 0;  // CUPTI's id of the stream it ran on

    [[nodiscard]] double duration_ns() const noexcept {
        return end_ns > start_ns ? static_cast<double>(end_ns - start_ns) : 0.0;
    }
};

// Device work this far past a window's edge is the clocks' granularity, not early or late.
inline constexpr double window_slack_ns = 1000.0;

// The profiled call's records against the harness's own, which it queues on a
// stream no call can reach (`harness_stream`, by CUPTI's stream id): first the
// cache flush, whose end starts the window, and last the window-end marker,
// queued where the timed windows' stop event would be. Everything else is the
// call's: its table and kernel names, the work that ended more than
// window_slack_ns after the marker began (late), and the work that began more
// than window_slack_ns before the flush ended (early), each latest/earliest
// first. No size or value identifies the harness's work, so a call's own memsets
// can neither hide nor fake a window's edge. Throws BenchError when the harness's
// stream holds other than those two records.
[[nodiscard]] Profile profile_of(const std::vector<DeviceActivity>& records, std::uint32_t harness_stream);

}  // namespace forge::bench
