#include "runtime/calibration.hpp"

#include <cstdint>

#include "runtime/host/cache_flush.hpp"
#include "runtime/host/sequential_read.hpp"
#include "runtime/host_memory.hpp"
#include "runtime/timer.hpp"

namespace forge::bench {

double time_calibration_ms() {
    // A dependent multiply-add chain: no memory traffic, no vectorisation, so its
    // time follows the core's clock and its share of the core.
    constexpr int steps = 20000;
    std::uint64_t x = 0x9E3779B97F4A7C15ULL;
    compiler_barrier();
    const std::int64_t start = now_ns();
    for (int i = 0; i < steps; ++i) {
        x = x * 6364136223846793005ULL + 1442695040888963407ULL;
        asm volatile("" : "+r"(x));
    }
    const std::int64_t stop = now_ns();
    compiler_barrier();
    [[maybe_unused]] volatile std::uint64_t sink = x;
    return static_cast<double>(stop - start) * 1e-6;
}

MemoryCalibration::MemoryCalibration() : buffer_(allocate_host_block(memory_calibration_bytes)) {}

void MemoryCalibration::Release::operator()(std::byte* p) const noexcept { release_host_block(p); }

double MemoryCalibration::time_ms() const {
    const auto* words = reinterpret_cast<const std::uint64_t*>(buffer_.get());
    evict_lines(buffer_.get(), memory_calibration_bytes);
    compiler_barrier();
    const std::int64_t start = now_ns();
    const std::uint64_t sum = read_words(words, memory_calibration_bytes / sizeof(std::uint64_t));
    compiler_barrier();
    const std::int64_t stop = now_ns();
    [[maybe_unused]] volatile std::uint64_t sink = sum;
    return static_cast<double>(stop - start) * 1e-6;
}

}  // namespace forge::bench
