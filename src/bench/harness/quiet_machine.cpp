#include "quiet_machine.hpp"

#include <algorithm>
#include <cstdint>
#include <vector>

#include "timer.hpp"

namespace forge::bench {

bool reads_quiet(std::span<const double> readings_ms, double quietest_ms) {
    if (readings_ms.empty()) return false;
    const auto quiet = std::count_if(readings_ms.begin(), readings_ms.end(),
                                     [&](double ms) { return ms <= machine_quiet_margin * quietest_ms; });
    return 2 * static_cast<std::size_t>(quiet) >= readings_ms.size();
}

MachineWait wait_for_quiet_machine(Runtime& runtime, double quietest_ms, double budget_s, std::size_t window) {
    const MemoryCalibration calibration;
    const std::int64_t start = now_ns();
    const auto waited_s = [&] { return static_cast<double>(now_ns() - start) * 1e-9; };
    std::vector<double> readings;
    while (waited_s() < budget_s) {
        readings.clear();
        while (readings.size() < std::max<std::size_t>(window, 1)) {
            runtime.flush_cache();
            runtime.synchronize();
            readings.push_back(calibration.time_ms());
        }
        if (reads_quiet(readings, quietest_ms)) return MachineWait{.quiet = true, .waited_s = waited_s()};
    }
    return MachineWait{.quiet = false, .waited_s = waited_s()};
}

}  // namespace forge::bench
