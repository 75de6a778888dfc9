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

// One sweep size's trial: the working set walked warm, re-referenced, swept,
// walked again; then its own lines flushed and walked once more.
struct Trial {
    double warm_ms = 0.0;
    double swept_ms = 0.0;
    double evicted_ms = 0.0;
};

Trial sweep_trial(CacheFlusher& sweep, const std::vector<std::uint64_t>& next) {
    Trial trial;
    (void)time_walk_ms(next);
    trial.warm_ms = time_walk_ms(next);
    sweep.flush();
    trial.swept_ms = time_walk_ms(next);
    (void)time_walk_ms(next);
    evict_lines(reinterpret_cast<const std::byte*>(next.data()), next.size() * sizeof(std::uint64_t));
    trial.evicted_ms = time_walk_ms(next);
    return trial;
}

}  // namespace

std::optional<SweepReach> measure_sweep_reach(std::size_t reported_bytes, const std::vector<int>& helper_cpus) {
    if (!evicts_lines) return std::nullopt;                            // no flush of a line's own to compare with
    constexpr std::size_t working_set_bytes = std::size_t{256} << 10;  // held by a core's L2
    constexpr int trials = 7;
    const std::vector<std::uint64_t> next = random_cycle(working_set_bytes / 64);
    SweepReach reach;
    reach.working_set_bytes = working_set_bytes;
    for (std::size_t bytes = std::size_t{4} << 20; bytes < reported_bytes; bytes *= 2) {
        CacheFlusher sweep(bytes, helper_cpus);
        sweep.flush();  // its pages mapped before any trial
        // Each trial's walks are a few milliseconds apart, so a neighbour's
        // stretch of traffic moves all three: the trials are judged by how far
        // each went from its warm walk to its evicted one.
        std::vector<double> warm;
        std::vector<double> swept;
        std::vector<double> evicted;
        std::vector<double> way;
        for (int t = 0; t < trials; ++t) {
            const Trial trial = sweep_trial(sweep, next);
            warm.push_back(trial.warm_ms);
            swept.push_back(trial.swept_ms);
            evicted.push_back(trial.evicted_ms);
            way.push_back((trial.swept_ms - trial.warm_ms) / std::max(trial.evicted_ms - trial.warm_ms, 1e-9));
        }
        const double warm_ms = stats::median(warm);
        const double evicted_ms = stats::median(evicted);
        if (!(evicted_ms >= FlushProbe::effective_slowdown * warm_ms)) return std::nullopt;
        reach.readings.push_back({bytes, stats::median(swept), stats::median(way)});
        if (reach.readings.back().evicted_fraction >= evicted_way) {
            reach.bytes = bytes;
            reach.warm_ms = warm_ms;
            reach.evicted_ms = evicted_ms;
            return reach;
        }
    }
    return std::nullopt;
}

CacheToSweep cache_to_sweep(const std::vector<int>& helper_cpus) {
    CacheToSweep swept{last_level_cache(), std::nullopt};
    swept.reach = measure_sweep_reach(swept.reported.bytes, helper_cpus);
    return swept;
}

FlushProbe probe_flush(CacheFlusher& flusher, std::size_t last_level_cache_bytes) {
    const std::size_t working_set_bytes = std::clamp<std::size_t>(last_level_cache_bytes / 4, 64 << 10, 1 << 20);
    const std::vector<std::uint64_t> next = random_cycle(working_set_bytes / 64);
    FlushProbe probe = probe_once(flusher, next);
    for (int again = 0; again < 2 && !probe.effective(); ++again) probe = probe_once(flusher, next);
    return probe;
}

}  // namespace forge::bench
