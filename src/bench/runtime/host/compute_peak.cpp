#include "runtime/host/compute_peak.hpp"

#if defined(__x86_64__)
#include <immintrin.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <thread>
#include <vector>

#include "runtime/host/vector_extensions.hpp"
#include "runtime/timer.hpp"

namespace forge::bench {

namespace {

#if defined(__x86_64__)
// Enough independent accumulators to cover a multiply-add's latency on two
// units (4 cycles x 2 on recent x86-64 cores), so the loop runs at throughput.
constexpr int chains = 12;

// One kernel: `iterations` rounds of independent chains of arithmetic; returns
// a value the caller sinks, so none of it is optimised away.
struct Kernel {
    float (*run)(std::int64_t iterations);
    double operations_per_iteration;
    const char* instructions;
    double margin;  // ComputePeak::margin
};

// The vectors' fp32 multiply-adds: the same vectors do 4x the operations on
// int8 (dot-product instructions), and a clock that was lower while the peak
// was measured than during a call gives up to 2x more.
constexpr double vector_margin = 8.0;
// AMX's int8 dot products are its densest operations (bf16's are half as
// many), so only the clock's 2x is left.
constexpr double matrix_margin = 2.0;

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

// AMX: four accumulator tiles of 16x16 int32, each taking the dot products of
// a 16x64 int8 tile with a 64x16 one per instruction (16 * 16 * 64
// multiply-adds), independent so the unit runs at throughput.
constexpr int matrix_accumulators = 4;
constexpr double matrix_operations = matrix_accumulators * 16.0 * 16.0 * 64.0 * 2.0;

struct alignas(64) TileConfig {
    std::uint8_t palette = 1;
    std::uint8_t start_row = 0;
    std::uint8_t reserved[14] = {};
    std::uint16_t bytes_per_row[16] = {};
    std::uint8_t rows[16] = {};
};

__attribute__((target("amx-tile,amx-int8"))) float dot_amx_int8(std::int64_t iterations) {
    TileConfig config;
    for (int tile = 0; tile < 8; ++tile) {
        config.bytes_per_row[tile] = 64;
        config.rows[tile] = 16;
    }
    _tile_loadconfig(&config);
    alignas(64) std::int8_t operand[16 * 64];
    for (int i = 0; i < 16 * 64; ++i) operand[i] = static_cast<std::int8_t>(i % 7 - 3);
    _tile_zero(0);
    _tile_zero(1);
    _tile_zero(2);
    _tile_zero(3);
    _tile_loadd(4, operand, 64);
    _tile_loadd(5, operand, 64);
    _tile_loadd(6, operand, 64);
    _tile_loadd(7, operand, 64);
    for (std::int64_t i = 0; i < iterations; ++i) {
        _tile_dpbssd(0, 4, 6);
        _tile_dpbssd(1, 4, 7);
        _tile_dpbssd(2, 5, 6);
        _tile_dpbssd(3, 5, 7);
    }
    alignas(64) std::int32_t out[16 * 16];
    _tile_stored(0, out, 64);
    _tile_release();
    return static_cast<float>(out[0]);
}

// AMX with int8 where the CPU has it (device.vector_extensions: amx_tile and
// amx_int8) and Linux lets this process use its tile data (arch_prctl's
// ARCH_REQ_XCOMP_PERM for XTILEDATA, Linux 5.16 or later). The permission is
// the process's from then on: a side may use AMX without asking for it.
bool can_use_amx_int8() {
    const std::vector<std::string> extensions = cpu_vector_extensions();
    const auto has = [&](const char* extension) {
        return std::find(extensions.begin(), extensions.end(), extension) != extensions.end();
    };
    if (!has("amx_tile") || !has("amx_int8")) return false;
    constexpr long request_permission = 0x1023;  // ARCH_REQ_XCOMP_PERM
    constexpr long tile_data = 18;               // XFEATURE_XTILEDATA
    return ::syscall(SYS_arch_prctl, request_permission, tile_data) == 0;
}

// The densest arithmetic this CPU runs.
Kernel densest_kernel() {
    __builtin_cpu_init();
    if (can_use_amx_int8()) return {&dot_amx_int8, matrix_operations, "amx-int8", matrix_margin};
    if (__builtin_cpu_supports("avx512f")) return {&fma_avx512, chains * 16 * 2.0, "avx512f", vector_margin};
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) {
        return {&fma_avx2, chains * 8 * 2.0, "avx2+fma", vector_margin};
    }
    return {&mul_add_sse2, chains * 4 * 2.0, "sse2", vector_margin};
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
        const double flops = static_cast<double>(iterations) * kernel.operations_per_iteration * threads;
        if (seconds > 0.0) best = std::max(best, flops / seconds * 1e-9);
    }
    return best;
}
#endif

}  // namespace

ComputePeak measure_compute_peak() {
    ComputePeak out;
#if defined(__x86_64__)
    const Kernel kernel = densest_kernel();
    out.instructions = kernel.instructions;
    out.margin = kernel.margin;
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
