#include "runtime/device_clocks.hpp"

#include <algorithm>
#include <utility>

namespace forge::bench {

std::vector<std::string> throttle_reasons(std::uint64_t reasons) {
    static constexpr std::pair<std::uint64_t, const char*> names[] = {
        {clock_reason::sw_power_cap, "power cap"},
        {clock_reason::hw_slowdown, "hardware slowdown"},
        {clock_reason::sw_thermal, "thermal (software)"},
        {clock_reason::hw_thermal, "thermal (hardware)"},
        {clock_reason::hw_power_brake, "power brake"},
    };
    std::vector<std::string> found;
    for (const auto& [bit, name] : names) {
        if ((reasons & bit) != 0) found.emplace_back(name);
    }
    return found;
}

bool ClockWatch::throttled(const ClockReading& reading) noexcept {
    const bool slowed = (reading.reasons & clock_reason::slowing) != 0;
    if ((reading.reasons & clock_reason::gpu_idle) != 0) return slowed;
    highest_sm_mhz_ = std::max(highest_sm_mhz_, reading.sm_mhz);
    const bool clock_dropped =
        static_cast<double>(reading.sm_mhz) < (1.0 - clock_drop_) * static_cast<double>(highest_sm_mhz_);
    return slowed || clock_dropped;
}

}  // namespace forge::bench
