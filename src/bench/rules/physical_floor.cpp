#include "rules/physical_floor.hpp"

#include <sstream>

#include "rules/declarations.hpp"
#include "runtime/calibration.hpp"

namespace forge::bench {

std::optional<std::string> beyond_memory_ceiling(Side side, const Work& work, double median_ms,
                                                 const MemoryCeiling& ceiling) {
    if (!work.bytes || *work.bytes <= 0.0 || !(median_ms > 0.0) || !(ceiling.gbps > 0.0)) return std::nullopt;
    const double gbps = *work.bytes / (median_ms * 1e6);
    if (gbps <= ceiling.margin * ceiling.gbps) return std::nullopt;
    std::ostringstream text;
    text.precision(3);
    text << "the " << side_name(side) << "'s median call (" << median_ms << " ms) would have moved the "
         << *work.bytes / 1e6 << " MB that bench.work declares at " << gbps << " GB/s, past what this machine's "
         << "memory gives (" << ceiling.gbps << " GB/s, " << ceiling.source;
    if (ceiling.margin > 1.0) text << "; refused past " << ceiling.margin << "x that";
    text << "): after the cache flush a call that reads its inputs and writes its outputs cannot be that fast, so "
            "this one took its answer from elsewhere (kept from an earlier call, made outside the window), or "
            "bench.work declares more bytes than the operation moves";
    return text.str();
}

std::optional<std::string> beyond_compute_ceiling(Side side, const Work& work, double median_ms,
                                                  const ComputeCeiling& ceiling) {
    if (!work.flops || *work.flops <= 0.0 || !(median_ms > 0.0) || !(ceiling.gflops > 0.0)) return std::nullopt;
    const double gflops = *work.flops / (median_ms * 1e6);
    if (gflops <= ceiling.margin * ceiling.gflops) return std::nullopt;
    std::ostringstream text;
    text.precision(3);
    text << "the " << side_name(side) << "'s median call (" << median_ms << " ms) would have done the "
         << *work.flops / 1e9 << " GFLOP that bench.work declares at " << gflops << " GFLOP/s, past what this "
         << "machine computes (" << ceiling.gflops << " GFLOP/s, " << ceiling.source << "; refused past "
         << ceiling.margin
         << "x that): no call does that arithmetic so fast, so this one took its answer from "
            "elsewhere (kept from an earlier call, made outside the window), its clock was not the harness's, "
            "or bench.work declares more FLOPs than the operation does";
    return text.str();
}

std::optional<double> fastest_memory_calibration_gbps(const RunRecord& record) {
    std::optional<double> fastest_ms;
    const auto consider = [&](double ms) {
        if (ms > 0.0 && (!fastest_ms || ms < *fastest_ms)) fastest_ms = ms;
    };
    for (const WorkloadRecord& w : record.workloads) {
        if (w.rounds.empty()) continue;
        consider(w.memory_calibration_before_ms);
        for (const Round& round : w.rounds) consider(round.memory_calibration_ms);
    }
    if (!fastest_ms) return std::nullopt;
    return static_cast<double>(memory_calibration_bytes) / (*fastest_ms * 1e6);
}

}  // namespace forge::bench
