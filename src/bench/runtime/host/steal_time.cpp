#include "runtime/host/steal_time.hpp"

#include <array>
#include <fstream>
#include <sstream>
#include <string>

namespace forge::bench {

std::optional<CpuTimes> parse_cpu_times(std::string_view stat, int cpu) {
    const std::string label = cpu < 0 ? "cpu" : "cpu" + std::to_string(cpu);
    std::istringstream lines{std::string(stat)};
    for (std::string line; std::getline(lines, line);) {
        std::istringstream fields(line);
        std::string name;
        if (!(fields >> name) || name != label) continue;
        // user nice system idle iowait irq softirq steal [guest guest_nice]: the
        // guest columns are already counted in user and nice.
        std::array<std::uint64_t, 8> ticks{};
        for (std::uint64_t& tick : ticks) {
            if (!(fields >> tick)) return std::nullopt;
        }
        CpuTimes times;
        for (const std::uint64_t tick : ticks) times.total += tick;
        times.steal = ticks[7];
        times.busy = ticks[0] + ticks[1] + ticks[2] + ticks[5] + ticks[6];
        return times;
    }
    return std::nullopt;
}

std::optional<CpuTimes> read_cpu_times(int cpu) {
    std::ifstream in("/proc/stat");
    std::ostringstream text;
    text << in.rdbuf();
    return parse_cpu_times(text.str(), cpu);
}

std::optional<double> steal_fraction(const CpuTimes& start, const CpuTimes& end) {
    if (end.total <= start.total || end.steal < start.steal) return std::nullopt;
    return static_cast<double>(end.steal - start.steal) / static_cast<double>(end.total - start.total);
}

}  // namespace forge::bench
