#include "cold_calls.hpp"

#include <algorithm>

#include "runtime/calibration.hpp"
#include "runtime/host/flush_probe.hpp"
#include "runtime/host/side_memory.hpp"

namespace forge::peer {

Floats::Floats(std::int64_t count)
    : bytes_(static_cast<std::size_t>(count) * sizeof(float)), block_(bench::allocate_host_block(bytes_)) {}

void Floats::normal(std::mt19937_64& rng, float mean, float sd) {
    std::normal_distribution<float> draw(mean, sd);
    std::generate_n(data(), bytes_ / sizeof(float), [&] { return draw(rng); });
}

void Floats::uniform(std::mt19937_64& rng, float low, float high) {
    std::uniform_real_distribution<float> draw(low, high);
    std::generate_n(data(), bytes_ / sizeof(float), [&] { return draw(rng); });
}

// Twice the cache the bench's flush is twice of, measured the same way where
// only sysconf reports it, swept by this thread alone.
bench::CacheFlusher& flusher() {
    static bench::CacheFlusher sweep(2 * bench::cache_to_sweep({}).cache().bytes);
    return sweep;
}

void time_cold_calls(benchmark::State& state, std::initializer_list<const Floats*> touched,
                     const std::function<void()>& call) {
    for (auto _ : state) {
        state.PauseTiming();
        flusher().flush();
        for (const Floats* tensor : touched) bench::evict_lines(tensor->bytes().data(), tensor->bytes().size());
        (void)bench::evict_side_memory();  // the sides' state, as the bench flushes it
        state.ResumeTiming();
        call();
        benchmark::ClobberMemory();
    }
    // The bench's own readings of the machine after each of its rounds, here
    // after each repetition: where the two harnesses' ratios part, whether the
    // machine had changed between their runs.
    static const bench::MemoryCalibration memory;
    state.counters["memory_calibration_ms"] = memory.time_ms();
    state.counters["calibration_ms"] = bench::time_calibration_ms();
}

void register_side(const std::string& card, const std::string& workload, const std::string& side, std::int64_t m,
                   std::int64_t n, std::function<void(benchmark::State&)> run) {
    auto with_shape = [m, n, run = std::move(run)](benchmark::State& state) {
        run(state);
        state.counters["m"] = static_cast<double>(m);
        state.counters["n"] = static_cast<double>(n);
    };
    // Ten repetitions of three calls: enough repetitions for an interval on
    // their medians, few enough sweeps (one per call) to finish in seconds.
    benchmark::RegisterBenchmark((card + "/" + workload + "/" + side).c_str(), std::move(with_shape))
        ->Iterations(3)
        ->Repetitions(10)
        ->ReportAggregatesOnly(false)
        ->UseRealTime()
        ->Unit(benchmark::kMillisecond);
}

}  // namespace forge::peer
