// The bench of layernorm_bwd: the reference gets the forward's mean and rstd
// (computed here, outside every window, by the reference's own forward), the
// student only dy, x and gamma.
#include <vector>

#include <forge/bench/bench.hpp>

#include "reference.hpp"
#include "student.hpp"

namespace fb = forge::bench;

namespace {

fb::Bench make_bench() {
    fb::Bench bench{fb::Backend::host};
    bench.workload("m4096_n1024", {{"m", 4096}, {"n", 1024}}, 1)
        .workload("m1024_n4096", {{"m", 1024}, {"n", 4096}}, 2)
        .workload("m16384_n256", {{"m", 16384}, {"n", 256}}, 3);
    bench.inputs([](const fb::Workload& w, fb::Rng& rng, fb::Tensors& in) {
        const std::int64_t m = w["m"];
        const std::int64_t n = w["n"];
        rng.normal(in.add("dy", {m, n}, fb::DType::fp32));
        fb::Tensor& x = in.add("x", {m, n}, fb::DType::fp32);
        rng.normal(x, 0.5, 2.0);  // rows with a mean and a spread to normalise away
        rng.uniform(in.add("gamma", {n}, fb::DType::fp32), 0.5, 1.5);
        // What the forward saved, as the reference's autograd Function receives it.
        fb::Tensor& mean = in.add("mean", {m}, fb::DType::fp32);
        fb::Tensor& rstd = in.add("rstd", {m}, fb::DType::fp32);
        reference::layernorm_fwd_stats(x.data<float>(), mean.data<float>(), rstd.data<float>(), m, n);
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
                                 io.out("dgamma").data<float>(), io.out("dbeta").data<float>(), x.dim(0), x.dim(1));
    });
    bench.student([](fb::Io& io) {
        const fb::Tensor& x = io.in("x");
        student::layernorm_bwd(io.in("dy").data<float>(), x.data<float>(), io.in("gamma").data<float>(),
                               io.out("dx").data<float>(), io.out("dgamma").data<float>(),
                               io.out("dbeta").data<float>(), x.dim(0), x.dim(1));
    });
    // dgamma and dbeta sum up to 16384 rows in fp32.
    bench.tolerance("dx", {.atol = 1e-5, .rtol = 1e-4});
    bench.tolerance("dgamma", {.atol = 1e-3, .rtol = 1e-4});
    bench.tolerance("dbeta", {.atol = 1e-3, .rtol = 1e-4});
    return bench;
}

}  // namespace

FORGE_BENCH_MAIN(make_bench)
