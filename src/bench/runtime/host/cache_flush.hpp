// Evicting the last-level cache between HOST samples, so each timed call starts
// cold the way a kernel in a real program does.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "runtime/host/sweep_crew.hpp"

namespace forge::bench {

struct CacheSize {
    std::size_t bytes = 0;
    std::string source;  // "sysfs", "sysconf" or "fallback": how it was found
};

// The last-level data/unified cache: the largest of every CPU's highest level
// under /sys/devices/system/cpu/cpuN/cache, else sysconf(_SC_LEVEL3_CACHE_SIZE), else 32 MiB.
[[nodiscard]] CacheSize last_level_cache();

// Writes back and drops every cache line of [data, data + bytes) at every level
// (x86-64: clflushopt where the CPU has it, else clflush; AArch64: dc civac),
// then waits for it; elsewhere nothing.
void evict_lines(const std::byte* data, std::size_t bytes) noexcept;
#if defined(__x86_64__) || defined(__aarch64__)
inline constexpr bool evicts_lines = true;
#else
inline constexpr bool evicts_lines = false;
#endif

class CacheFlusher {
public:
    // Reads and writes every cache line of `bytes` of its own memory on each
    // flush (at least twice the LLC), sharing the sweep with a helper on each
    // of `helper_cpus` (sweep_crew.hpp).
    explicit CacheFlusher(std::size_t bytes, const std::vector<int>& helper_cpus = {});
    void flush() noexcept;
    [[nodiscard]] std::size_t bytes() const noexcept { return bytes_; }
    // The threads a flush runs on, the caller's included.
    [[nodiscard]] std::size_t threads() const noexcept { return crew_.threads(); }
    // The threads that share the flush, for the other work between calls.
    [[nodiscard]] SweepCrew& crew() noexcept { return crew_; }

private:
    struct Release {
        void operator()(std::byte* p) const noexcept;
    };
    void sweep_part(std::size_t part) noexcept;

    std::size_t bytes_;
    std::unique_ptr<std::byte, Release> buffer_;
    std::function<void(std::size_t)> sweep_;
    SweepCrew crew_;  // last: its helpers sweep buffer_
};

}  // namespace forge::bench
