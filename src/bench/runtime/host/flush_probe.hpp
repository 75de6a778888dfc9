// Whether the HOST cache flush evicts: a working set that fits in the cache,
// walked warm and walked right after a flush. A flush that evicts makes the
// second walk far slower; one that does not leaves "cold" samples warm.
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

#include "runtime/host/cache_flush.hpp"

namespace forge::bench {

struct FlushProbe {
    std::size_t working_set_bytes = 0;
    double warm_ms = 0.0;     // median walk of the working set, warm
    double flushed_ms = 0.0;  // median walk right after a flush
    [[nodiscard]] bool effective() const noexcept { return flushed_ms >= effective_slowdown * warm_ms; }

    // A walk from memory instead of cache is many times slower (docs/lab/README.md);
    // under 1.5x most of the working set stayed cached.
    static constexpr double effective_slowdown = 1.5;
};

// A dependent walk (a pointer chase in random order, one step per cache line,
// so prefetchers cannot hide where the lines come from) over a quarter of the
// last-level cache, at most 1 MiB: small enough to stay cached on a machine
// whose neighbours share the last-level cache. 7 walks warm, 7 after `flusher`;
// up to twice more where that showed no eviction: a neighbour streaming
// through a shared last-level cache can evict the warm walks as well (their
// median then as slow as the flushed ones', in 4 of 80 fresh processes on a
// shared 2-vCPU VM), while a flush that does not evict shows it in every try.
[[nodiscard]] FlushProbe probe_flush(CacheFlusher& flusher, std::size_t last_level_cache_bytes);

// How large a sweep must be to evict the timing thread's cache, measured on
// every machine: the size a machine reports need not be what one core fills.
// glibc's sysconf reads the L3's size from CPUID, which on an AMD EPYC VM gives
// 508 MiB, while a core fills only its own CCD's L3 (32 MiB on that Zen 5);
// the sysfs of a 2-vCPU Xeon VM reports the package's 480 MiB, where a sweep
// of 32 or 64 MiB evicts a small working set as thoroughly as one of 960 MiB,
// which cost 36 ms a round (docs/lab/README.md). The flush is then twice the
// measured sweep; the sides' larger state is flushed line by line
// (side_memory.hpp), which no sweep on that Xeon's L3 did.
struct SweepReach {
    std::size_t bytes = 0;  // the smallest sweep that evicted the working set
    std::size_t working_set_bytes = 0;
    double warm_ms = 0.0;     // median walk of the working set, warm
    double evicted_ms = 0.0;  // median walk after its own lines were flushed
    struct Reading {
        std::size_t bytes = 0;          // the sweep tried
        double ms = 0.0;                // median walk after it
        double evicted_fraction = 0.0;  // median over trials of (swept - warm) / (evicted - warm)
    };
    std::vector<Reading> readings;  // each sweep tried, smallest first
};

// A sweep evicts the working set when its walk after it read at least this far
// of the way from warm to evicted.
inline constexpr double evicted_way = 0.9;

// Sweeps of 4 MiB, 8 MiB, ... doubling below `reported_bytes`, each by a
// CacheFlusher sharing it with `helper_cpus` as the rounds' flush does (a
// helper on another L3 evicts nothing of the timing thread's), each timed
// after walking a 256 KiB working set twice, as a side's calls leave their data
// (re-referenced, which some replacement policies keep through a stream). The
// working set fits a core's private L2, so warm it reads many times faster than
// from memory, and a walk after a sweep that left it in the L3 reads between
// the two. The smallest sweep that evicts it as thoroughly as flushing its own
// lines does; nullopt where none below `reported_bytes` does, or the walk after
// that flush did not read slower than warm (nothing can be told).
[[nodiscard]] std::optional<SweepReach> measure_sweep_reach(std::size_t reported_bytes,
                                                            const std::vector<int>& helper_cpus);

// The last-level cache a flush is twice of: the sweep measure_sweep_reach
// measured, or where none below it evicted, the one last_level_cache() reports.
struct CacheToSweep {
    CacheSize reported;
    std::optional<SweepReach> reach;  // where measured

    [[nodiscard]] CacheSize cache() const { return reach ? CacheSize{reach->bytes, "measured"} : reported; }
};
[[nodiscard]] CacheToSweep cache_to_sweep(const std::vector<int>& helper_cpus);

}  // namespace forge::bench
