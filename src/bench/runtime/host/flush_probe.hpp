// Whether the HOST cache flush evicts: a working set that fits in the cache,
// walked warm and walked right after a flush. A flush that evicts makes the
// second walk far slower; one that does not leaves "cold" samples warm.
#pragma once

#include <cstddef>

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

}  // namespace forge::bench
