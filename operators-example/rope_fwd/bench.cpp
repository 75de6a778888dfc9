// The bench of rope_fwd: x [batch, 2048, heads, 128] ~ N(0, 1); the rotation
// tables come from the prep step (outside every window), the same for every workload.
#include <cstddef>
#include <vector>

#include <forge/bench/bench.hpp>

#include "prep.hpp"
#include "reference.hpp"
#include "student.hpp"

namespace fb = forge::bench;

namespace {

// The reference's rotate_half(x) tensor, made in its setup and kept for the
// workload's calls, as a framework's caching allocator keeps a block. Mapped
// afresh each call (malloc maps a temporary above 32 MiB), b2_h16's took 8193
// page faults a call, and on a VM where a fault cost 11 µs the reference read
// 111-140 ms a call against 22 ms (docs/lab/README.md).
std::vector<float> rotate_half_workspace(const fb::Workload& w, fb::Stream) {
    return std::vector<float>(static_cast<std::size_t>(w["batch"] * w["seq"] * w["heads"] * w["dim"]));
}

void call_reference(fb::Io& io) {
    const fb::Tensor& x = io.in("x");
    reference::rope_fwd(x.data<float>(), io.in("cos").data<float>(), io.in("sin").data<float>(),
                        io.out("y").data<float>(), io.state<std::vector<float>>().data(), x.dim(0), x.dim(1), x.dim(2),
                        x.dim(3));
}

void call_student(fb::Io& io) {
    const fb::Tensor& x = io.in("x");
    student::rope_fwd(x.data<float>(), io.in("cos").data<float>(), io.in("sin").data<float>(),
                      io.out("y").data<float>(), x.dim(0), x.dim(1), x.dim(2), x.dim(3));
}

fb::Bench make_bench() {
    fb::Bench bench{fb::Backend::host};
    // window.toml declares the tables' shape: seq 2048 and dim 128 in every workload.
    bench.workload("b1_h16", {{"batch", 1}, {"seq", 2048}, {"heads", 16}, {"dim", 128}}, 1)
        .workload("b2_h16", {{"batch", 2}, {"seq", 2048}, {"heads", 16}, {"dim", 128}}, 2)
        .workload("b4_h4", {{"batch", 4}, {"seq", 2048}, {"heads", 4}, {"dim", 128}}, 3);
    bench.inputs([](const fb::Workload& w, fb::Rng& rng, fb::Tensors& in) {
        rng.normal(in.add("x", {w["batch"], w["seq"], w["heads"], w["dim"]}, fb::DType::fp32));
    });
    bench.outputs([](const fb::Workload& w) {
        return std::vector<fb::TensorSpec>{{"y", {w["batch"], w["seq"], w["heads"], w["dim"]}, fb::DType::fp32}};
    });
    bench.prep(prep::rope_fwd);
    bench.setup(fb::Side::reference, rotate_half_workspace);
    bench.reference(call_reference);
    bench.student(call_student);
    return bench;
}

}  // namespace

FORGE_BENCH_MAIN(make_bench)
