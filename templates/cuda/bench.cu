// The bench of @FORGE_OPERATOR@: its workloads, their inputs, and each side's
// timed call, launched on io.stream() (where the harness's window starts; it ends
// device-wide, but work on a stream of your own made with cudaStreamNonBlocking
// fails the run unless io.stream() waits for it). The harness hands each call
// exactly the tensors window.toml declares for its side (in device memory), checks
// the outputs against each other and writes eval.json.
#include <vector>

#include <forge/bench/bench.hpp>

#include "reference.hpp"
#include "student.hpp"

namespace fb = forge::bench;

namespace {

fb::Bench make_bench() {
    fb::Bench bench{fb::Backend::cuda};
    // The verdict is the geometric mean over these (at least three).
    bench.workload("n65536", {{"n", 65536}}, 1)
        .workload("n262144", {{"n", 262144}}, 2)
        .workload("n1048576", {{"n", 1048576}}, 3);
    // Optional: what one call does, for GFLOP/s and GB/s beside time (here x read, y written).
    bench.work([](const fb::Workload& w) { return fb::Work{.bytes = 4.0 * 2 * static_cast<double>(w["n"])}; });
    bench.inputs([](const fb::Workload& w, fb::Rng& rng, fb::Tensors& in) {
        rng.normal(in.add("x", {w["n"]}, fb::DType::fp32));
    });
    bench.outputs([](const fb::Workload& w) {
        return std::vector<fb::TensorSpec>{{"y", {w["n"]}, fb::DType::fp32}};
    });
    // y is compared elementwise with the fp32 default (atol 1e-5, rtol 1e-4); for a
    // reduction or GEMM: bench.tolerance("y", fb::RelativeL2{.max = 1e-5}) (README, section 4).
    // A side that needs a library handle, a plan or a workspace (cublasCreate,
    // a cuFFT plan, cudaFuncSetAttribute) makes it in its setup: once per
    // workload, on the GPU the run uses, outside every timed window. Its calls
    // reach it with io.state<T>(); its destructor is the teardown, e.g.
    //     using Blas = std::unique_ptr<cublasContext, decltype(&cublasDestroy)>;
    //     bench.setup(fb::Side::reference, [](const fb::Workload&, fb::Stream stream) {
    //         return reference::make_blas(stream);  // cublasCreate + cublasSetStream, returns a Blas
    //     });
    //     ... reference::@FORGE_OPERATOR@(io.state<Blas>().get(), ...);
    bench.reference([](fb::Io& io) {
        const fb::Tensor& x = io.in("x");
        reference::@FORGE_OPERATOR@(x.data<float>(), io.out("y").data<float>(), x.numel(), io.stream());
    });
    bench.student([](fb::Io& io) {
        const fb::Tensor& x = io.in("x");
        student::@FORGE_OPERATOR@(x.data<float>(), io.out("y").data<float>(), x.numel(), io.stream());
    });
    return bench;
}

}  // namespace

FORGE_BENCH_MAIN(make_bench)
