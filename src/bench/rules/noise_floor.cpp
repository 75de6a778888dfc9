#include "rules/noise_floor.hpp"

#include <algorithm>

namespace forge::bench {

namespace {

double reach(const stats::RatioInterval& interval) { return std::max(interval.high - 1.0, 1.0 - interval.low); }

bool leaves_out_one(const stats::RatioInterval& interval) { return interval.low > 1.0 || interval.high < 1.0; }

}  // namespace

NoiseFloor noise_floor(Side side, const std::vector<stats::RatioInterval>& workloads,
                       const std::optional<stats::RatioInterval>& run) {
    NoiseFloor floor;
    floor.side = side;
    floor.workloads = workloads.size();
    for (const stats::RatioInterval& interval : workloads) {
        if (leaves_out_one(interval)) ++floor.workloads_called_apart;
        floor.resolves = std::max(floor.resolves, reach(interval));
    }
    if (run) {
        floor.run_called_apart = leaves_out_one(*run);
        floor.resolves = std::max(floor.resolves, reach(*run));
    }
    return floor;
}

}  // namespace forge::bench
