// The bench of layernorm_bwd_cuda: the reference gets the forward's mean and rstd
// (computed here on the host, outside every window), the student only dy, x and
// gamma. Every call launches on io.stream(), the stream the harness times.
#include <vector>

#include <forge/bench/bench.hpp>

#include "reference.hpp"
#include "student.hpp"

namespace fb = forge::bench;

namespace {

fb::Bench make_bench() {
    fb::Bench bench{fb::Backend::cuda};
    bench.workload("m8192_n1024", {{"m", 8192}, {"n", 1024}}, 1)
        .workload("m2048_n4096", {{"m", 2048}, {"n", 4096}}, 2)
        .workload("m32768_n256", {{"m", 32768}, {"n", 256}}, 3);
    bench.inputs([](const fb::Workload& w, fb::Rng& rng, fb::Tensors& in) {
        const std::int64_t m = w["m"];
        const std::int64_t n = w["n"];
        rng.normal(in.add("dy", {m, n}, fb::DType::fp32));
        fb::Tensor& x = in.add("x", {m, n}, fb::DType::fp32);
        rng.normal(x, 0.5, 2.0);
        rng.uniform(in.add("gamma", {n}, fb::DType::fp32), 0.5, 1.5);
        fb::Tensor& mean = in.add("mean", {m}, fb::DType::fp32);
        fb::Tensor& rstd = in.add("rstd", {m}, fb::DType::fp32);
        reference::layernorm_fwd_stats_host(x.data<float>(), mean.data<float>(), rstd.data<float>(), m, n);
    });
    bench.outputs([](const fb::Workload& w) {
        return std::vector<fb::TensorSpec>{{"dx", {w["m"], w["n"]}, fb::DType::fp32},
                                           {"dgamma", {w["n"]}, fb::DType::fp32},
                                           {"dbeta", {w["n"]}, fb::DType::fp32}};
    });
    bench.reference([](fb::Io& io) {
        const fb::Tensor& x = io.in("x");
        reference::layernorm_bwd(io.in("dy").data<float>(), x.data<float>(), io.in("gamma").data<float>(),
                                 io.in("mean").data<float>(), io.in("rstd").data<float>(), io.out("dx").data<float>(),
                                 io.out("dgamma").data<float>(), io.out("dbeta").data<float>(), x.dim(0), x.dim(1),
                                 io.stream());
    });
    bench.student([](fb::Io& io) {
        const fb::Tensor& x = io.in("x");
        student::layernorm_bwd(io.in("dy").data<float>(), x.data<float>(), io.in("gamma").data<float>(),
                               io.out("dx").data<float>(), io.out("dgamma").data<float>(),
                               io.out("dbeta").data<float>(), x.dim(0), x.dim(1), io.stream());
    });
    // The student's float statistics against the forward's double-accumulated ones,
    // and atomically ordered column sums over up to 32768 rows.
    bench.tolerance("dx", {.atol = 1e-4, .rtol = 1e-3});
    bench.tolerance("dgamma", {.atol = 5e-3, .rtol = 1e-3});
    bench.tolerance("dbeta", {.atol = 5e-3, .rtol = 1e-3});
    return bench;
}

}  // namespace

FORGE_BENCH_MAIN(make_bench)
