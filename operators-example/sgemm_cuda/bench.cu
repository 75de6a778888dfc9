// The bench of sgemm_cuda: a ~ N(0, 1), b ~ N(0, 1), so each c element sums k
// products of unit variance. Every call launches on io.stream(), the stream the
// harness times; the reference's cuBLAS handle and workspace come from its setup.
#include <vector>

#include <forge/bench/bench.hpp>

#include "reference.hpp"
#include "student.hpp"

namespace fb = forge::bench;

namespace {

fb::Bench make_bench() {
    fb::Bench bench{fb::Backend::cuda};
    bench.workload("m1024_n1024_k1024", {{"m", 1024}, {"n", 1024}, {"k", 1024}}, 1)
        .workload("m2048_n2048_k4096", {{"m", 2048}, {"n", 2048}, {"k", 4096}}, 2)
        .workload("m4096_n1024_k8192", {{"m", 4096}, {"n", 1024}, {"k", 8192}}, 3);
    bench.inputs([](const fb::Workload& w, fb::Rng& rng, fb::Tensors& in) {
        rng.normal(in.add("a", {w["m"], w["k"]}, fb::DType::fp32));
        rng.normal(in.add("b", {w["k"], w["n"]}, fb::DType::fp32));
    });
    bench.outputs([](const fb::Workload& w) {
        return std::vector<fb::TensorSpec>{{"c", {w["m"], w["n"]}, fb::DType::fp32}};
    });
    bench.work([](const fb::Workload& w) {
        const auto m = static_cast<double>(w["m"]);
        const auto n = static_cast<double>(w["n"]);
        const auto k = static_cast<double>(w["k"]);
        return fb::Work{.flops = 2 * m * n * k, .bytes = 4 * (m * k + k * n + m * n)};
    });

    // Once per workload, after the harness has chosen the GPU and before any
    // call: the handle, its workspace and its stream. Destroyed after the
    // workload's last call. No timed call creates or configures cuBLAS.
    bench.setup(fb::Side::reference, [](const fb::Workload&, fb::Stream stream) { return reference::Blas{stream}; });
    bench.reference([](fb::Io& io) {
        const fb::Tensor& a = io.in("a");
        const fb::Tensor& b = io.in("b");
        reference::sgemm(io.state<reference::Blas>(), a.data<float>(), b.data<float>(), io.out("c").data<float>(),
                         a.dim(0), b.dim(1), a.dim(1));
    });
    bench.student([](fb::Io& io) {
        const fb::Tensor& a = io.in("a");
        const fb::Tensor& b = io.in("b");
        student::sgemm(a.data<float>(), b.data<float>(), io.out("c").data<float>(), a.dim(0), b.dim(1), a.dim(1),
                       io.stream());
    });
    // Two fp32 summation orders over k = 1024..8192 products: elementwise
    // tolerances fail on the outputs that cancel to near zero (docs/guide/writing-a-card.md), the
    // relative L2 error of the whole output does not.
    bench.tolerance("c", fb::RelativeL2{.max = 1e-5});
    return bench;
}

}  // namespace

FORGE_BENCH_MAIN(make_bench)
