#include "runtime/host/compute_peak.hpp"

#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <thread>
#include <vector>

#include "runtime/timer.hpp"

namespace forge::bench {

namespace {

#if defined(__x86_64__)
// Enough independent accumulators to cover a multiply-add's latency on two
// units (4 cycles x 2 on recent x86-64 cores), so the loop runs at throughput.
constexpr int chains = 12;

// One kernel: `iterations` rounds of `chains` multiply-adds on `lanes` floats;
// returns a value the caller sinks, so none of it is optimised away.
struct Kernel {
    float (*run)(std::int64_t iterations);
    int lanes;
    int flops_per_lane;  // per chain and iteration: 2 (a multiply and an add)
    const char* instructions;
};

__attribute__((target("avx512f"))) float fma_avx512(std::int64_t iterations) {
    __m512 acc[chains];
    for (int c = 0; c < chains; ++c) acc[c] = _mm512_set1_ps(1.0F + 0.001F * static_cast<float>(c));
    const __m512 scale = _mm512_set1_ps(0.999999F);
    const __m512 offset = _mm512_set1_ps(1e-7F);
    for (std::int64_t i = 0; i < iterations; ++i) {
#pragma GCC unroll 12
        for (int c = 0; c < chains; ++c) acc[c] = _mm512_fmadd_ps(acc[c], scale, offset);
    }
    alignas(64) float lanes[16];
    float sum = 0.0F;
    for (int c = 0; c < chains; ++c) {
        _mm512_store_ps(lanes, acc[c]);
        for (float lane : lanes) sum += lane;
    }
    return sum;
}

__attribute__((target("avx2,fma"))) float fma_avx2(std::int64_t iterations) {
    __m256 acc[chains];
    for (int c = 0; c < chains; ++c) acc[c] = _mm256_set1_ps(1.0F + 0.001F * static_cast<float>(c));
    const __m256 scale = _mm256_set1_ps(0.999999F);
    const __m256 offset = _mm256_set1_ps(1e-7F);
    for (std::int64_t i = 0; i < iterations; ++i) {
#pragma GCC unroll 12
        for (int c = 0; c < chains; ++c) acc[c] = _mm256_fmadd_ps(acc[c], scale, offset);
    }
    alignas(32) float lanes[8];
    float sum = 0.0F;
    for (int c = 0; c < chains; ++c) {
        _mm256_store_ps(lanes, acc[c]);
        for (float lane : lanes) sum += lane;
    }
    return sum;
}

float mul_add_sse2(std::int64_t iterations) {
    __m128 acc[chains];
    for (int c = 0; c < chains; ++c) acc[c] = _mm_set1_ps(1.0F + 0.001F * static_cast<float>(c));
    const __m128 scale = _mm_set1_ps(0.999999F);
    const __m128 offset = _mm_set1_ps(1e-7F);
    for (std::int64_t i = 0; i < iterations; ++i) {
#pragma GCC unroll 12
        for (int c = 0; c < chains; ++c) acc[c] = _mm_add_ps(_mm_mul_ps(acc[c], scale), offset);
    }
    alignas(16) float lanes[4];
    float sum = 0.0F;
    for (int c = 0; c < chains; ++c) {
        _mm_store_ps(lanes, acc[c]);
        for (float lane : lanes) sum += lane;
    }
    return sum;
}

// The widest this CPU runs.
Kernel widest_kernel() {
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f")) return {&fma_avx512, 16, 2, "avx512f"};
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) return {&fma_avx2, 8, 2, "avx2+fma"};
    return {&mul_add_sse2, 4, 2, "sse2"};
}

// `threads` running `kernel` for `iterations` at once; the best of `passes` in GFLOP/s.
double best_gflops(const Kernel& kernel, std::int64_t iterations, unsigned threads, int passes) {
    double best = 0.0;
    for (int pass = 0; pass < passes; ++pass) {
        std::vector<std::thread> workers;
        std::vector<float> sums(threads, 0.0F);
        std::atomic_int ready{0};
        std::atomic_bool go{false};
        for (unsigned t = 0; t < threads; ++t) {
            workers.emplace_back([&, t] {
                ready.fetch_add(1);
                while (!go.load()) std::this_thread::yield();
                sums[t] = kernel.run(iterations);
            });
        }
        while (ready.load() < static_cast<int>(threads)) std::this_thread::yield();
        const std::int64_t start = now_ns();
        go.store(true);
        for (std::thread& worker : workers) worker.join();
        const double seconds = static_cast<double>(now_ns() - start) * 1e-9;
        [[maybe_unused]] volatile float sink = 0.0F;
        for (float sum : sums) sink = sink + sum;
        const double flops = static_cast<double>(iterations) * chains * kernel.lanes * kernel.flops_per_lane * threads;
        if (seconds > 0.0) best = std::max(best, flops / seconds * 1e-9);
    }
    return best;
}
#endif

}  // namespace

ComputePeak measure_compute_peak() {
    ComputePeak out;
#if defined(__x86_64__)
    const Kernel kernel = widest_kernel();
    out.instructions = kernel.instructions;
    // Long enough a pass (2 ms or more on one thread) that thread start-up and
    // the clock's resolution are a small part of it.
    std::int64_t iterations = 1 << 14;
    while (iterations < (std::int64_t{1} << 30)) {
        const std::int64_t start = now_ns();
        [[maybe_unused]] volatile float sink = kernel.run(iterations);
        if (now_ns() - start >= 2'000'000) break;
        iterations *= 2;
    }
    constexpr int passes = 3;
    const unsigned all = std::max(1U, std::thread::hardware_concurrency());
    for (unsigned threads : {1U, all}) {
        const double gflops = best_gflops(kernel, iterations, threads, passes);
        if (gflops > out.gflops) {
            out.gflops = gflops;
            out.threads = threads;
        }
        if (all == 1) break;
    }
#endif
    return out;
}

}  // namespace forge::bench
