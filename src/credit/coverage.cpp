#include <cmath>

#include "forge/credit/credit.hpp"

namespace forge {

std::optional<double> coverage(const std::optional<ProfilerDigest>& profiler,
                               std::optional<double> window_ms) noexcept {
    // timing_audit.ncu_coverage: no figure rather than a wrong one.
    if (!profiler || !window_ms || std::isnan(*window_ms) || *window_ms <= 0) return std::nullopt;
    if (std::isnan(profiler->total_ns) || profiler->calls <= 0) return std::nullopt;
    return (profiler->total_ns / static_cast<double>(profiler->calls)) / 1e6 / *window_ms;
}

}  // namespace forge
