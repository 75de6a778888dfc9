// How much CPU time processes other than the bench took during its run: a
// neighbour on this machine (a build, another bench, a browser). Steal time
// shows another virtual machine's load; this shows the guest's own. Paired
// rounds cancel a neighbour that slows both sides alike, but one that competes
// for memory bandwidth or a core's vector units slows one side more than the
// other, and the ratio then holds for that neighbour, not for a quiet machine.
#pragma once

#include <optional>

#include "runtime/host/steal_time.hpp"

namespace forge::bench {

// The machine's busy time and the bench's own CPU time at one moment.
struct ProcessorUse {
    CpuTimes machine;        // every CPU's ticks ("cpu" in /proc/stat)
    double own_cpu_s = 0.0;  // this process's user and system time, all its threads
    double wall_s = 0.0;     // a monotonic clock
};

[[nodiscard]] std::optional<ProcessorUse> read_processor_use();

// /proc/stat's unit, clock ticks a second (USER_HZ).
[[nodiscard]] double proc_stat_ticks_per_s();

// The CPUs other processes kept busy on average between two readings (0 where
// the bench's own time covers the machine's busy time); nullopt when no time passed.
[[nodiscard]] std::optional<double> other_processes_cpus(const ProcessorUse& start, const ProcessorUse& end,
                                                         double ticks_per_s);

// Above this many CPUs on average, a neighbour ran beside the run: a tenth of
// one CPU is far above an idle machine's daemons (about 0.01 on the 2-core VMs
// measured) and below a build or a second bench.
inline constexpr double noticeable_other_processes_cpus = 0.1;

}  // namespace forge::bench
