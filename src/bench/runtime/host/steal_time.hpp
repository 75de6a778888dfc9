// Time the hypervisor gave a CPU to other guests ("steal" in /proc/stat): on a
// VM, the sign of a busy neighbour that the guest's own load average does not
// show. Read at the run's start and end, for the timing thread's CPU.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace forge::bench {

struct CpuTimes {
    std::uint64_t steal = 0;  // clock ticks
    std::uint64_t busy = 0;   // running anything: user, nice, system, irq and softirq
    std::uint64_t total = 0;  // every state's ticks, steal included
};

// The "cpu<N>" line of /proc/stat's text (`cpu` < 0: the "cpu" line of all of
// them); nullopt where it is missing or has no steal column (Linux < 2.6.11).
[[nodiscard]] std::optional<CpuTimes> parse_cpu_times(std::string_view stat, int cpu);
[[nodiscard]] std::optional<CpuTimes> read_cpu_times(int cpu);

// The share of the CPU's time stolen between two readings; nullopt when no time passed.
[[nodiscard]] std::optional<double> steal_fraction(const CpuTimes& start, const CpuTimes& end);

// Above this share a run was slowed by another guest often enough to say so.
inline constexpr double noticeable_steal = 0.02;

}  // namespace forge::bench
