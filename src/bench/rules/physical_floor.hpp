// A side's reading held to what the machine can physically do: a call that
// moved the bytes the bench declares (Bench::work) faster than the memory
// allows did not move them. Its answer came from somewhere else (kept from an
// earlier call, made outside the window), or the bench declares more than the
// operation moves; either way its ratio measures something else.
// Likewise a call that did the FLOPs it declares faster than the machine's
// arithmetic allows (HOST): the ceiling is a measured fp32 multiply-add peak,
// with room for kernels on narrower types (compute_ceiling()).
#pragma once

#include <optional>
#include <string>

#include "forge/bench/bench.hpp"
#include "results/record.hpp"
#include "runtime/runtime.hpp"

namespace forge::bench {

// Why `side`'s median call of `median_ms` cannot have moved `work`'s bytes
// under `ceiling`; nullopt when it can, or when nothing declares its bytes.
[[nodiscard]] std::optional<std::string> beyond_memory_ceiling(Side side, const Work& work, double median_ms,
                                                               const MemoryCeiling& ceiling);

// Why `side`'s median call of `median_ms` cannot have done `work`'s FLOPs
// under `ceiling`; nullopt when it can, or when nothing declares its FLOPs.
[[nodiscard]] std::optional<std::string> beyond_compute_ceiling(Side side, const Work& work, double median_ms,
                                                                const ComputeCeiling& ceiling);

// The bandwidth of the run's fastest memory calibration (runtime/calibration.hpp:
// 8 MiB evicted, then read by the timing thread, before the first round and
// after each): memory the machine gave this run, read across all of it, so in
// the stretches a neighbour left quiet too. nullopt before any round.
[[nodiscard]] std::optional<double> fastest_memory_calibration_gbps(const RunRecord& record);

}  // namespace forge::bench
