// Google Benchmark as a second harness for the example cards' sides: each card's
// workloads timed side by side, every call from a cold cache made the way the
// bench makes it (the same sweep, each side's own tensors then evicted line by
// line, on the same huge-page memory), so the two harnesses differ in how they
// time and summarise, not in what a call finds cached. tools/peer-benchmark
// runs both and prints their ratios.
#pragma once

#include <benchmark/benchmark.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <memory>
#include <random>
#include <span>
#include <string>
#include <utility>

#include "runtime/host/cache_flush.hpp"
#include "runtime/host_memory.hpp"

namespace forge::peer {

// An fp32 tensor on the harness's own memory (huge pages, off the heap).
class Floats {
public:
    explicit Floats(std::int64_t count);
    [[nodiscard]] float* data() noexcept { return reinterpret_cast<float*>(block_.get()); }
    [[nodiscard]] std::span<const std::byte> bytes() const noexcept { return {block_.get(), bytes_}; }
    void normal(std::mt19937_64& rng, float mean = 0.0F, float sd = 1.0F);
    void uniform(std::mt19937_64& rng, float low, float high);

private:
    struct Release {
        void operator()(std::byte* p) const noexcept { bench::release_host_block(p); }
    };
    std::size_t bytes_;
    std::unique_ptr<std::byte, Release> block_;
};

// A workload's tensors, made on its first repetition and shared by both sides'
// benchmarks: every repetition after it reuses them.
template <class Tensors>
class WorkloadTensors {
public:
    WorkloadTensors(std::int64_t m, std::int64_t n) : m_(m), n_(n) {}
    Tensors& get() {
        if (!tensors_) tensors_ = std::make_unique<Tensors>(m_, n_);
        return *tensors_;
    }

private:
    std::int64_t m_, n_;
    std::unique_ptr<Tensors> tensors_;
};

// One sweep for the whole program, as large as the bench's (twice the LLC).
bench::CacheFlusher& flusher();

// Times `call` from a cold cache: before each timed call, with the clock
// paused, the sweep and then the eviction of the tensors it touches. After
// them, the bench's two calibrations of the machine (runtime/calibration.hpp)
// as the counters memory_calibration_ms and calibration_ms.
void time_cold_calls(benchmark::State& state, std::initializer_list<const Floats*> touched,
                     const std::function<void()>& call);

// Registers CARD/WORKLOAD/SIDE with the repetitions tools/peer-benchmark reads
// (each a fixed number of cold calls, so every repetition costs the same
// sweeps), and the workload's shape as the counters m and n.
void register_side(const std::string& card, const std::string& workload, const std::string& side, std::int64_t m,
                   std::int64_t n, std::function<void(benchmark::State&)> run);

}  // namespace forge::peer
