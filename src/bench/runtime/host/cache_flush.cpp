#include "runtime/host/cache_flush.hpp"

#include <unistd.h>

#if defined(__x86_64__)
#include <cpuid.h>
#endif

#include <algorithm>
#include <cstdint>
#include <filesystem>

#include "runtime/host/sysfs.hpp"
#include "runtime/host_memory.hpp"
#include "runtime/timer.hpp"

namespace forge::bench {

namespace {

constexpr std::size_t fallback_bytes = std::size_t{32} << 20;
// A sweep's parts: 16 MiB, at most 64, each a few ms of one core's sweep, so a
// helper a neighbour preempts holds up the others for one part at most.
constexpr std::size_t part_bytes = std::size_t{16} << 20;
constexpr std::size_t most_parts = 64;

std::size_t parts_of(std::size_t bytes) { return std::clamp<std::size_t>(bytes / part_bytes, 1, most_parts); }

#if defined(__x86_64__)
// CPUID leaf 7, EBX bit 23.
bool has_clflushopt() noexcept {
    unsigned eax = 0;
    unsigned ebx = 0;
    unsigned ecx = 0;
    unsigned edx = 0;
    return __get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx) != 0 && (ebx & (1U << 23)) != 0;
}

// clflushopt: unordered among themselves, so they overlap, many times faster
// than clflush, which waits for each line in turn (docs/lab/README.md).
__attribute__((target("clflushopt"))) void evict_unordered(std::uintptr_t first, std::uintptr_t end) noexcept {
    for (std::uintptr_t p = first; p < end; p += line_bytes) __builtin_ia32_clflushopt(reinterpret_cast<void*>(p));
    __builtin_ia32_mfence();
}
#endif

// "32768K", "8M", "512" -> bytes; 0 when unreadable.
std::size_t parse_size(const std::string& text) {
    std::size_t value = 0;
    std::size_t i = 0;
    while (i < text.size() && text[i] >= '0' && text[i] <= '9') value = value * 10 + static_cast<std::size_t>(text[i++] - '0');
    if (i < text.size() && (text[i] == 'K' || text[i] == 'k')) return value << 10;
    if (i < text.size() && (text[i] == 'M' || text[i] == 'm')) return value << 20;
    return value;
}

// The last-level data/unified cache of one CPU's sysfs cache directory.
std::size_t last_level_of(const std::filesystem::path& cache_dir) {
    std::error_code ec;
    int best_level = 0;
    std::size_t best_bytes = 0;
    for (const auto& entry : std::filesystem::directory_iterator(cache_dir, ec)) {
        if (!entry.path().filename().string().starts_with("index")) continue;
        if (first_line_of(entry.path() / "type") == "Instruction") continue;
        const int level = std::atoi(first_line_of(entry.path() / "level").c_str());
        const std::size_t bytes = parse_size(first_line_of(entry.path() / "size"));
        if (bytes > 0 && level >= best_level) {
            best_level = level;
            best_bytes = bytes;
        }
    }
    return best_bytes;
}

// The largest last-level cache of any CPU: on a hybrid or multi-socket machine
// the CPUs differ, and the flush must evict whichever one the call runs on.
std::size_t from_sysfs() {
    std::error_code ec;
    std::size_t largest = 0;
    for (const auto& cpu : std::filesystem::directory_iterator("/sys/devices/system/cpu", ec)) {
        const std::string name = cpu.path().filename().string();
        if (!name.starts_with("cpu") || name.size() == 3 || name.find_first_not_of("0123456789", 3) != std::string::npos) {
            continue;
        }
        largest = std::max(largest, last_level_of(cpu.path() / "cache"));
    }
    return largest;
}

}  // namespace

CacheSize last_level_cache() {
    // sysfs first: it gives the cache this CPU shares, where glibc's sysconf on some
    // AMD parts adds up every L3 slice of the package (320 MiB for a 32 MiB L3).
    if (const std::size_t bytes = from_sysfs(); bytes > 0) return {bytes, "sysfs"};
#ifdef _SC_LEVEL3_CACHE_SIZE
    if (const long bytes = ::sysconf(_SC_LEVEL3_CACHE_SIZE); bytes > 0) {
        return {static_cast<std::size_t>(bytes), "sysconf"};
    }
#endif
    return {fallback_bytes, "fallback"};
}

void evict_lines(const std::byte* data, std::size_t bytes) noexcept {
    const auto first = reinterpret_cast<std::uintptr_t>(data) / line_bytes * line_bytes;
    const auto end = reinterpret_cast<std::uintptr_t>(data) + bytes;
#if defined(__x86_64__)
    static const bool unordered = has_clflushopt();
    if (unordered) {
        evict_unordered(first, end);
        return;
    }
    for (std::uintptr_t p = first; p < end; p += line_bytes) __builtin_ia32_clflush(reinterpret_cast<const void*>(p));
    __builtin_ia32_mfence();
#elif defined(__aarch64__)
    for (std::uintptr_t p = first; p < end; p += line_bytes) asm volatile("dc civac, %0" : : "r"(p) : "memory");
    asm volatile("dsb ish" : : : "memory");
#else
    static_cast<void>(first);
    static_cast<void>(end);
#endif
}

// Its own memory off the heap, on huge pages where the kernel allows them: the
// flush then evicts the caches without also evicting every TLB entry, whose
// misses would land in the next timed call.
CacheFlusher::CacheFlusher(std::size_t bytes, const std::vector<int>& helper_cpus)
    : bytes_(bytes), buffer_(allocate_host_block(bytes)), sweep_([this](std::size_t part) { sweep_part(part); }),
      crew_(helper_cpus) {}

void CacheFlusher::Release::operator()(std::byte* p) const noexcept { release_host_block(p); }

void CacheFlusher::flush() noexcept { crew_.run(parts_of(bytes_), sweep_); }

void CacheFlusher::sweep_part(std::size_t part) noexcept {
    // A read-modify-write of every cache line. Not memset: glibc writes a buffer
    // this large with non-temporal stores, which bypass the cache and evict little.
    auto* words = reinterpret_cast<std::uint64_t*>(buffer_.get());
    constexpr std::size_t words_per_line = line_bytes / sizeof(std::uint64_t);
    const std::size_t lines = bytes_ / line_bytes;
    const std::size_t parts = parts_of(bytes_);
    const std::size_t first = lines * part / parts * words_per_line;
    const std::size_t end = lines * (part + 1) / parts * words_per_line;
    for (std::size_t i = first; i < end; i += words_per_line) words[i] += 1;
    compiler_barrier();
}

}  // namespace forge::bench
