#include "rules/throughput.hpp"

#include <vector>

#include "forge/stats/summary.hpp"

namespace forge::bench {

SideThroughput throughput(const Work& work, double ms, std::optional<double> peak_dram_gbps) {
    SideThroughput out;
    if (!(ms > 0.0)) return out;
    if (work.flops) out.gflops = *work.flops / ms / 1e6;
    if (work.bytes) out.gbps = *work.bytes / ms / 1e6;
    if (out.gbps && peak_dram_gbps && *peak_dram_gbps > 0.0) {
        out.peak_dram_bandwidth_fraction = *out.gbps / *peak_dram_gbps;
    }
    return out;
}

std::optional<double> geomean_of_all(std::span<const std::optional<double>> figures) {
    std::vector<double> values;
    for (const std::optional<double>& figure : figures) {
        if (!figure || !(*figure > 0.0)) return std::nullopt;
        values.push_back(*figure);
    }
    if (values.empty()) return std::nullopt;
    return stats::geometric_mean(values);
}

}  // namespace forge::bench
