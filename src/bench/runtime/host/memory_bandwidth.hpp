// The most memory bandwidth a HOST run can get: a physical limit no call can
// beat when its declared bytes come from memory (the cache flush sees to that),
// against which a side's reading is checked (physical_floor.hpp).
#pragma once

#include <cstddef>

namespace forge::bench {

struct MemoryBandwidth {
    double gbps = 0.0;           // the best reading, one thread or all
    std::size_t bytes = 0;       // the buffer read
    unsigned threads = 0;        // how many read it at once in that reading
};

// A buffer of `bytes` (far past the last-level caches a run flushes) read by
// one thread, then by one per hardware thread at once, each its own slice; the
// best of three passes of each. About 0.1 s for 256 MiB.
[[nodiscard]] MemoryBandwidth measure_memory_bandwidth(std::size_t bytes);

}  // namespace forge::bench
