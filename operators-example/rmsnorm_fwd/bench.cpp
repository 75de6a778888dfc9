// The bench of rmsnorm_fwd: three row shapes, x ~ N(0, 1), gamma ~ U(0.5, 1.5).
#include <vector>

#include <forge/bench/bench.hpp>

#include "reference.hpp"
#include "student.hpp"

namespace fb = forge::bench;

namespace {

fb::Bench make_bench() {
    fb::Bench bench{fb::Backend::host};
    // Short and long rows, few and many: the verdict is the geometric mean.
    bench.workload("m4096_n1024", {{"m", 4096}, {"n", 1024}}, 1)
        .workload("m1024_n4096", {{"m", 1024}, {"n", 4096}}, 2)
        .workload("m256_n16384", {{"m", 256}, {"n", 16384}}, 3);
    // Memory-bound: its throughput is the bytes it must move, x and gamma read, y written.
    bench.work([](const fb::Workload& w) {
        const double m = static_cast<double>(w["m"]);
        const double n = static_cast<double>(w["n"]);
        return fb::Work{.bytes = 4.0 * (m * n + n + m * n)};
    });
    bench.inputs([](const fb::Workload& w, fb::Rng& rng, fb::Tensors& in) {
        rng.normal(in.add("x", {w["m"], w["n"]}, fb::DType::fp32));
        rng.uniform(in.add("gamma", {w["n"]}, fb::DType::fp32), 0.5, 1.5);
    });
    bench.outputs([](const fb::Workload& w) {
        return std::vector<fb::TensorSpec>{{"y", {w["m"], w["n"]}, fb::DType::fp32}};
    });
    bench.reference([](fb::Io& io) {
        const fb::Tensor& x = io.in("x");
        reference::rmsnorm_fwd(x.data<float>(), io.in("gamma").data<float>(), io.out("y").data<float>(), x.dim(0),
                               x.dim(1));
    });
    bench.student([](fb::Io& io) {
        const fb::Tensor& x = io.in("x");
        student::rmsnorm_fwd(x.data<float>(), io.in("gamma").data<float>(), io.out("y").data<float>(), x.dim(0),
                             x.dim(1));
    });
    // Two summation orders over up to 16384 squares: a few ulps of rstd apart.
    bench.tolerance("y", {.atol = 1e-5, .rtol = 1e-5});
    return bench;
}

}  // namespace

FORGE_BENCH_MAIN(make_bench)
