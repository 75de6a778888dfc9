// The bench of gemm_bias_gelu_cuda: a ~ N(0, 1), b ~ N(0, 1/k) (so y is O(1)),
// bias ~ U(-1, 1). Every call launches on io.stream(), the stream the harness times;
// the reference's cuBLAS handle comes from its setup (io.state).
#include <cmath>
#include <vector>

#include <forge/bench/bench.hpp>

#include "reference.hpp"
#include "student.hpp"

namespace fb = forge::bench;

namespace {

// The two calls take the same tensors; the reference also its cuBLAS handle.
template <class Gemm>
void call(fb::Io& io, Gemm gemm) {
    const fb::Tensor& a = io.in("a");
    const fb::Tensor& b = io.in("b");
    gemm(a.data<float>(), b.data<float>(), io.in("bias").data<float>(), io.out("y").data<float>(), a.dim(0), b.dim(1),
         a.dim(1), io.stream());
}

fb::Bench make_bench() {
    fb::Bench bench{fb::Backend::cuda};
    bench.workload("m1024_n1024_k1024", {{"m", 1024}, {"n", 1024}, {"k", 1024}}, 1)
        .workload("m2048_n4096_k1024", {{"m", 2048}, {"n", 4096}, {"k", 1024}}, 2)
        .workload("m4096_n1024_k4096", {{"m", 4096}, {"n", 1024}, {"k", 4096}}, 3);
    // The GEMM's 2mnk flops (the bias and GELU add O(mn)); a, b and bias read once, y written once.
    bench.work([](const fb::Workload& w) {
        const double m = static_cast<double>(w["m"]), n = static_cast<double>(w["n"]), k = static_cast<double>(w["k"]);
        return fb::Work{.flops = 2.0 * m * n * k, .bytes = 4.0 * (m * k + k * n + n + m * n)};
    });
    bench.inputs([](const fb::Workload& w, fb::Rng& rng, fb::Tensors& in) {
        rng.normal(in.add("a", {w["m"], w["k"]}, fb::DType::fp32));
        rng.normal(in.add("b", {w["k"], w["n"]}, fb::DType::fp32), 0.0, 1.0 / std::sqrt(static_cast<double>(w["k"])));
        rng.uniform(in.add("bias", {w["n"]}, fb::DType::fp32), -1.0, 1.0);
    });
    bench.outputs([](const fb::Workload& w) {
        return std::vector<fb::TensorSpec>{{"y", {w["m"], w["n"]}, fb::DType::fp32}};
    });
    // The reference's cuBLAS handle: made per workload outside every timed window
    // (cublasCreate costs milliseconds), bound to the bench's stream, destroyed
    // after the workload's last call.
    bench.setup(fb::Side::reference,
                [](const fb::Workload&, fb::Stream stream) { return reference::make_blas(stream); });
    bench.reference([](fb::Io& io) {
        cublasContext* blas = io.state<reference::Blas>().get();
        call(io, [blas](auto... args) { reference::gemm_bias_gelu(blas, args...); });
    });
    bench.student([](fb::Io& io) { call(io, &student::gemm_bias_gelu); });
    // Two fp32 summation orders over up to 4096 products of O(1/sqrt(k)) terms.
    bench.tolerance("y", {.atol = 1e-4, .rtol = 1e-3});
    return bench;
}

}  // namespace

FORGE_BENCH_MAIN(make_bench)
