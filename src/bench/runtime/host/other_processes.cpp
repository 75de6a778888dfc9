#include "runtime/host/other_processes.hpp"

#include <algorithm>

#include <sys/resource.h>
#include <unistd.h>

#include "runtime/timer.hpp"

namespace forge::bench {

namespace {

double seconds(const timeval& t) { return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) * 1e-6; }

}  // namespace

std::optional<ProcessorUse> read_processor_use() {
    const std::optional<CpuTimes> machine = read_cpu_times(-1);
    rusage own{};
    if (!machine || getrusage(RUSAGE_SELF, &own) != 0) return std::nullopt;
    return ProcessorUse{.machine = *machine,
                        .own_cpu_s = seconds(own.ru_utime) + seconds(own.ru_stime),
                        .wall_s = static_cast<double>(now_ns()) * 1e-9};
}

double proc_stat_ticks_per_s() { return static_cast<double>(sysconf(_SC_CLK_TCK)); }

std::optional<double> other_processes_cpus(const ProcessorUse& start, const ProcessorUse& end, double ticks_per_s) {
    const double wall_s = end.wall_s - start.wall_s;
    if (!(wall_s > 0.0) || !(ticks_per_s > 0.0) || end.machine.busy < start.machine.busy) return std::nullopt;
    const double busy_s = static_cast<double>(end.machine.busy - start.machine.busy) / ticks_per_s;
    // Ticks sample the CPUs 100 times a second or so: the difference carries a
    // few ticks' error either way, small against a run of seconds.
    return std::max(0.0, busy_s - (end.own_cpu_s - start.own_cpu_s)) / wall_s;
}

}  // namespace forge::bench
