// Achieved throughput: a workload's declared work (Bench::work) over a side's
// time, and its share of the device's peak DRAM bandwidth where that is known.
#pragma once

#include <optional>
#include <span>

#include "forge/bench/bench.hpp"

namespace forge::bench {

struct SideThroughput {
    std::optional<double> gflops;  // 1e9 floating-point operations per second
    std::optional<double> gbps;    // 1e9 bytes per second
    std::optional<double> peak_dram_bandwidth_fraction;  // gbps / the device's peak
};

// The work done in `ms` milliseconds: flops / (ms * 1e-3) / 1e9 = flops / ms / 1e6,
// bytes likewise. A count the bench left out, or a time that is not positive (a
// call faster than the clock resolves), gives no figure; no peak, no fraction.
[[nodiscard]] SideThroughput throughput(const Work& work, double ms, std::optional<double> peak_dram_gbps);

// The geometric mean of one figure over workloads, as the run's milliseconds are
// summarised: nullopt unless every workload has it and it is positive.
[[nodiscard]] std::optional<double> geomean_of_all(std::span<const std::optional<double>> figures);

}  // namespace forge::bench
