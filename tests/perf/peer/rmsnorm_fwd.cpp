// rmsnorm_fwd's sides under Google Benchmark, on the card's workloads
// (operators-example/rmsnorm_fwd/bench.cpp; tools/peer-benchmark holds the
// names and shapes to the bench's eval.json).
#include <cstdint>
#include <memory>

#include "cold_calls.hpp"
#include "reference.hpp"
#include "student.hpp"

namespace {

using forge::peer::Floats;

struct RmsnormTensors {
    RmsnormTensors(std::int64_t rows, std::int64_t cols) : m(rows), n(cols), x(m * n), gamma(n), y(m * n) {
        std::mt19937_64 rng(1);
        x.normal(rng);
        gamma.uniform(rng, 0.5F, 1.5F);
    }
    std::int64_t m, n;
    Floats x, gamma, y;
};

using Side = void (*)(const float*, const float*, float*, std::int64_t, std::int64_t);

void register_workload(const char* name, std::int64_t m, std::int64_t n) {
    auto tensors = std::make_shared<forge::peer::WorkloadTensors<RmsnormTensors>>(m, n);
    auto side = [tensors](Side call) {
        return [tensors, call](benchmark::State& state) {
            RmsnormTensors& t = tensors->get();
            forge::peer::time_cold_calls(state, {&t.x, &t.gamma, &t.y},
                                         [&] { call(t.x.data(), t.gamma.data(), t.y.data(), t.m, t.n); });
        };
    };
    forge::peer::register_side("rmsnorm_fwd", name, "reference", m, n, side(&reference::rmsnorm_fwd));
    forge::peer::register_side("rmsnorm_fwd", name, "student", m, n, side(&student::rmsnorm_fwd));
}

[[maybe_unused]] const bool registered = [] {
    register_workload("m4096_n1024", 4096, 1024);
    register_workload("m1024_n4096", 1024, 4096);
    register_workload("m256_n16384", 256, 16384);
    return true;
}();

}  // namespace
