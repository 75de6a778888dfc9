#include "runtime/host/side_memory.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <vector>

#include "runtime/host/cache_flush.hpp"
#include "runtime/host_memory.hpp"

namespace forge::bench {

namespace {

struct MapsFile {
    void operator()(std::FILE* file) const noexcept { static_cast<void>(std::fclose(file)); }
};

// Larger regions are address space reserved, not state (a sanitizer's shadow
// of several TiB): reading which of their pages are resident would cost more
// than the rounds.
constexpr std::uintptr_t largest_region = std::uintptr_t{64} << 30;
// mincore's answer for this much at a time.
constexpr std::uintptr_t chunk = std::uintptr_t{1} << 30;

// The resident pages of [begin, end), flushed line by line (mincore says which
// are resident: a flush of a page never touched would fault it in).
std::size_t evict_resident(AddressRange range, std::size_t page, std::vector<unsigned char>& residency) {
    // /proc/self/maps names the regions by number: the one cast back to an address.
    auto* const begin = reinterpret_cast<std::byte*>(range.begin);  // NOLINT(performance-no-int-to-ptr)
    const std::uintptr_t size = range.end - range.begin;
    std::size_t flushed = 0;
    for (std::uintptr_t offset = 0; offset < size; offset += chunk) {
        std::byte* const at = begin + offset;
        const std::uintptr_t bytes = std::min(chunk, size - offset);
        residency.resize(bytes / page);
        if (::mincore(at, bytes, residency.data()) != 0) continue;
        // A run of resident pages at a time: evict_lines waits once for each.
        for (std::size_t p = 0; p < residency.size();) {
            if ((residency[p] & 1U) == 0) {
                ++p;
                continue;
            }
            const std::size_t first = p;
            while (p < residency.size() && (residency[p] & 1U) != 0) ++p;
            evict_lines(at + first * page, (p - first) * page);
            flushed += (p - first) * page;
        }
    }
    return flushed;
}

}  // namespace

std::size_t evict_side_memory() {
    if (!evicts_lines) return 0;
    const std::unique_ptr<std::FILE, MapsFile> maps(std::fopen("/proc/self/maps", "re"));
    if (!maps) return 0;
    const auto page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
    const std::vector<AddressRange> harness = harness_mappings();
    std::vector<unsigned char> residency;
    std::size_t flushed = 0;
    char line[4096];
    while (std::fgets(line, sizeof line, maps.get()) != nullptr) {
        unsigned long begin = 0;
        unsigned long end = 0;
        char permissions[5] = {};
        if (std::sscanf(line, "%lx-%lx %4s", &begin, &end, permissions) != 3) continue;
        // Private and writable: what a side can keep state in. The kernel's
        // [vvar] and [vsyscall] are neither.
        if (std::strcmp(permissions, "rw-p") != 0 || end - begin > largest_region) continue;
        // The region less the harness's own mappings inside it (the kernel joins
        // adjacent anonymous mappings into one region).
        std::uintptr_t at = begin;
        for (const AddressRange& own : harness) {
            if (own.end <= at || own.begin >= end) continue;
            flushed += evict_resident({at, std::min<std::uintptr_t>(own.begin, end)}, page, residency);
            at = std::max<std::uintptr_t>(at, own.end);
        }
        flushed += evict_resident({at, end}, page, residency);
    }
    return flushed;
}

}  // namespace forge::bench
