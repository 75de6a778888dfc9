#include "runtime/host/flush_probe.hpp"

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>
#include <vector>

#include "forge/stats/summary.hpp"
#include "runtime/timer.hpp"

namespace forge::bench {

namespace {

constexpr std::size_t words_per_line = 64 / sizeof(std::uint64_t);

// Each visited line holds the index of the next; one cycle through every line.
std::vector<std::uint64_t> random_cycle(std::size_t lines) {
    std::vector<std::size_t> order(lines);
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::shuffle(order.begin(), order.end(), std::mt19937_64(0x5eed));
    std::vector<std::uint64_t> next(lines * words_per_line, 0);
    for (std::size_t i = 0; i < lines; ++i) next[order[i] * words_per_line] = order[(i + 1) % lines] * words_per_line;
    return next;
}

double time_walk_ms(const std::vector<std::uint64_t>& next) {
    const std::size_t steps = next.size() / words_per_line;
    compiler_barrier();
    const std::int64_t start = now_ns();
    std::uint64_t at = 0;
    for (std::size_t i = 0; i < steps; ++i) at = next[at];
    const std::int64_t stop = now_ns();
    compiler_barrier();
    [[maybe_unused]] volatile std::uint64_t sink = at;
    return static_cast<double>(stop - start) * 1e-6;
}

FlushProbe probe_once(CacheFlusher& flusher, const std::vector<std::uint64_t>& next) {
    constexpr int walks = 7;
    FlushProbe probe;
    probe.working_set_bytes = next.size() * sizeof(std::uint64_t);
    std::vector<double> warm;
    std::vector<double> flushed;
    for (int r = 0; r < walks; ++r) {
        (void)time_walk_ms(next);
        warm.push_back(time_walk_ms(next));
        flusher.flush();
        flushed.push_back(time_walk_ms(next));
    }
    probe.warm_ms = stats::median(warm);
    probe.flushed_ms = stats::median(flushed);
    return probe;
}

}  // namespace

FlushProbe probe_flush(CacheFlusher& flusher, std::size_t last_level_cache_bytes) {
    const std::size_t working_set_bytes = std::clamp<std::size_t>(last_level_cache_bytes / 4, 64 << 10, 1 << 20);
    const std::vector<std::uint64_t> next = random_cycle(working_set_bytes / 64);
    FlushProbe probe = probe_once(flusher, next);
    for (int again = 0; again < 2 && !probe.effective(); ++again) probe = probe_once(flusher, next);
    return probe;
}

}  // namespace forge::bench
