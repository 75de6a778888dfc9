// layernorm_bwd's sides under Google Benchmark, on the card's workloads
// (operators-example/layernorm_bwd/bench.cpp): the reference gets the forward's
// saved mean and rstd, the student only dy, x and gamma, as their windows say.
#include <cstdint>
#include <memory>

#include "cold_calls.hpp"
#include "reference.hpp"
#include "student.hpp"

namespace {

using forge::peer::Floats;

struct LayernormTensors {
    LayernormTensors(std::int64_t rows, std::int64_t cols)
        : m(rows), n(cols), dy(m * n), x(m * n), gamma(n), mean(m), rstd(m), dx(m * n), dgamma(n), dbeta(n) {
        std::mt19937_64 rng(1);
        dy.normal(rng);
        x.normal(rng, 0.5F, 2.0F);
        gamma.uniform(rng, 0.5F, 1.5F);
        reference::layernorm_fwd_stats(x.data(), mean.data(), rstd.data(), m, n);
    }
    std::int64_t m, n;
    Floats dy, x, gamma, mean, rstd, dx, dgamma, dbeta;
};

void register_workload(const char* name, std::int64_t m, std::int64_t n) {
    auto tensors = std::make_shared<forge::peer::WorkloadTensors<LayernormTensors>>(m, n);
    forge::peer::register_side("layernorm_bwd", name, "reference", m, n, [tensors](benchmark::State& state) {
        LayernormTensors& t = tensors->get();
        forge::peer::time_cold_calls(state, {&t.dy, &t.x, &t.gamma, &t.mean, &t.rstd, &t.dx, &t.dgamma, &t.dbeta}, [&] {
            reference::layernorm_bwd(t.dy.data(), t.x.data(), t.gamma.data(), t.mean.data(), t.rstd.data(), t.dx.data(),
                                     t.dgamma.data(), t.dbeta.data(), t.m, t.n);
        });
    });
    forge::peer::register_side("layernorm_bwd", name, "student", m, n, [tensors](benchmark::State& state) {
        LayernormTensors& t = tensors->get();
        forge::peer::time_cold_calls(state, {&t.dy, &t.x, &t.gamma, &t.dx, &t.dgamma, &t.dbeta}, [&] {
            student::layernorm_bwd(t.dy.data(), t.x.data(), t.gamma.data(), t.dx.data(), t.dgamma.data(),
                                   t.dbeta.data(), t.m, t.n);
        });
    });
}

[[maybe_unused]] const bool registered = [] {
    register_workload("m4096_n1024", 4096, 1024);
    register_workload("m1024_n4096", 1024, 4096);
    register_workload("m16384_n256", 16384, 256);
    return true;
}();

}  // namespace
