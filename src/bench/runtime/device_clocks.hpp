// The GPU's clocks around each round, and which rounds they spoil: a round timed
// while the device slowed itself (a power cap, a thermal limit, a hardware
// slowdown) times its two calls at a different clock than its neighbours, and
// the slowdown can start between them. Plain C++, so the rules are tested on
// machines without a GPU; nvml_clocks.cpp reads the values.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace forge::bench {

// One reading of the device's clocks, taken right after a round's second call.
struct ClockReading {
    unsigned sm_mhz = 0;
    unsigned memory_mhz = 0;
    std::uint64_t reasons = 0;  // NVML's clock event reasons, a bit set (nvmlClocksEventReason*)
};

// NVML's clock event reason bits (nvml.h). Only these slow a loaded device down:
// the others (idle, application clocks, sync boost, display clocks) are settings
// or an idle device, not a limit the rounds ran into.
namespace clock_reason {
inline constexpr std::uint64_t gpu_idle = 0x1;
inline constexpr std::uint64_t sw_power_cap = 0x4;
inline constexpr std::uint64_t hw_slowdown = 0x8;
inline constexpr std::uint64_t sw_thermal = 0x20;
inline constexpr std::uint64_t hw_thermal = 0x40;
inline constexpr std::uint64_t hw_power_brake = 0x80;
inline constexpr std::uint64_t slowing = sw_power_cap | hw_slowdown | sw_thermal | hw_thermal | hw_power_brake;
}  // namespace clock_reason

// The names of the slowing reasons in `reasons` ("power cap", "thermal (hardware)", ...), in bit order.
[[nodiscard]] std::vector<std::string> throttle_reasons(std::uint64_t reasons);

// Watches the readings of one workload's rounds, in order. A round is throttled
// when a slowing reason was set, or when its SM clock reads more than
// `clock_drop` below the highest SM clock of the rounds so far (a clock that
// stepped down without saying why still changed what a call costs). The
// highest clock is the device's unthrottled state on a GPU that boosts. A
// reading the device took while idle (the round's calls had finished and it
// began lowering its clocks) says nothing about the clock the calls ran at, so
// its clock counts neither as a drop nor as the highest.
class ClockWatch {
public:
    static constexpr double default_clock_drop = 0.03;

    explicit ClockWatch(double clock_drop = default_clock_drop) noexcept : clock_drop_(clock_drop) {}

    [[nodiscard]] bool throttled(const ClockReading& reading) noexcept;

private:
    double clock_drop_;
    unsigned highest_sm_mhz_ = 0;
};

}  // namespace forge::bench
