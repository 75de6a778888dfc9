// forge::bench: what an operator card's bench source writes (templates/ has one per backend).
//
//     #include <forge/bench/bench.hpp>
//     #include "reference.hpp"
//     #include "student.hpp"
//     namespace fb = forge::bench;
//
//     fb::Bench make_bench() {
//         fb::Bench b{fb::Backend::host};
//         b.workload("m1024_n1024", {{"m", 1024}, {"n", 1024}}, 1)
//          .workload("m4096_n1024", {{"m", 4096}, {"n", 1024}}, 2)
//          .workload("m512_n8192",  {{"m", 512},  {"n", 8192}}, 3);
//         b.inputs([](const fb::Workload& w, fb::Rng& rng, fb::Tensors& in) {
//             rng.normal(in.add("x", {w["m"], w["n"]}, fb::DType::fp32));
//             rng.uniform(in.add("gamma", {w["n"]}, fb::DType::fp32), 0.5, 1.5);
//         });
//         b.outputs([](const fb::Workload& w) {
//             return std::vector<fb::TensorSpec>{{"y", {w["m"], w["n"]}, fb::DType::fp32}};
//         });
//         b.reference([](fb::Io& io) { reference::rmsnorm(io.in("x"), io.in("gamma"), io.out("y")); });
//         b.student([](fb::Io& io) { student::rmsnorm(io.in("x"), io.in("gamma"), io.out("y")); });
//         b.tolerance(fb::DType::fp32, {.atol = 1e-5, .rtol = 1e-4});
//         return b;
//     }
//     FORGE_BENCH_MAIN(make_bench)
//
// The harness reads window.toml: each side's call sees exactly the inputs and
// outputs that side declares (any other name throws, naming the tensor and the
// side), gets its own copy of the inputs, and has its outputs checked against the
// other side's with the per-dtype tolerance, or the output's own comparison.
//
// A side that needs a handle, a plan or a workspace makes it in its setup, once
// per workload and outside every timed window; its destructor is the teardown:
//
//     using Blas = std::unique_ptr<cublasContext, decltype(&cublasDestroy)>;
//     b.setup(fb::Side::reference, [](const fb::Workload&, fb::Stream stream) {
//         cublasHandle_t handle = nullptr;
//         cublasCreate(&handle);
//         cublasSetStream(handle, stream);
//         return Blas(handle, &cublasDestroy);
//     });
//     b.reference([](fb::Io& io) { reference::gemm(io.state<Blas>().get(), ...); });
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <typeinfo>
#include <utility>
#include <variant>
#include <vector>

#include "forge/bench/build_info.hpp"
#include "forge/bench/dtype.hpp"
#include "forge/bench/region.hpp"
#include "forge/bench/rng.hpp"
#include "forge/bench/tensor.hpp"
#include "forge/contract/contract.hpp"

// The CUDA runtime's stream type, declared as cuda_runtime_api.h declares it so a
// HOST bench needs no CUDA headers.
struct CUstream_st;

namespace forge::bench {

using Stream = CUstream_st*;  // == cudaStream_t
// The side a call runs as (Io::side()): fb::Side::reference or fb::Side::student.
using forge::Side;

enum class Backend { host, cuda };

[[nodiscard]] std::string_view to_string(Backend backend) noexcept;  // "host" / "cuda"

// The verdict is the geometric mean over at least this many workloads.
inline constexpr std::size_t min_workloads = 3;

// One input set: a name (as eval.json reports it), integer parameters, a seed.
struct Workload {
    std::string name;
    std::map<std::string, std::int64_t, std::less<>> params;
    std::uint64_t seed = 0;

    // The parameter `key`; throws naming the workload and the key when absent.
    [[nodiscard]] std::int64_t operator[](std::string_view key) const;
};

namespace detail {
struct Access;  // the harness's way in: binds tensors, reads what prep produced
}

// What one side's timed call (or the correctness call) can touch: exactly that
// side's declared inputs and outputs.
class Io {
public:
    // A declared input of this side (read-only). Undeclared: BenchError naming
    // the tensor, the side and what the side does declare.
    [[nodiscard]] const Tensor& in(std::string_view name) const;
    // A declared output of this side, allocated by the harness (see Bench::outputs).
    [[nodiscard]] Tensor& out(std::string_view name);

    [[nodiscard]] Side side() const noexcept { return side_; }
    [[nodiscard]] const Workload& workload() const noexcept { return *workload_; }
    // The stream every CUDA call must launch on (the harness times it); null on HOST.
    [[nodiscard]] Stream stream() const noexcept { return stream_; }
    // The State this side's setup (Bench::setup) made for the current workload.
    // Another type than the setup returns, or no setup for this side: BenchError
    // naming the side and the type to ask for.
    template <class State>
    [[nodiscard]] State& state() {
        return *static_cast<State*>(state_of(typeid(State)));
    }
    template <class State>
    [[nodiscard]] const State& state() const {
        return *static_cast<const State*>(state_of(typeid(State)));
    }

private:
    friend struct detail::Access;
    Io(Side side, const Workload& workload, Stream stream) noexcept
        : side_(side), workload_(&workload), stream_(stream) {}

    [[nodiscard]] void* state_of(const std::type_info& asked) const;

    Side side_;
    const Workload* workload_;
    Stream stream_;
    std::vector<std::pair<std::string, Tensor*>> inputs_;
    mutable std::vector<bool> inputs_read_;  // which of inputs_ in() handed out
    std::vector<std::pair<std::string, Tensor*>> outputs_;
    std::shared_ptr<void> state_;                 // what the side's setup made
    const std::type_info* state_type_ = nullptr;  // its type; null: no setup for this side
};

// What the prep step can touch: every input the bench made for the workload, and
// the tensors it produces (allocated by the harness on the bench's backend).
class PrepIo {
public:
    // An input made by Bench::inputs (on the backend: device memory for CUDA).
    [[nodiscard]] const Tensor& in(std::string_view name) const;
    // A new prep output; its name, shape and dtype are what eval.json reports and
    // what `forge prep` holds to the contract's symmetrize entries.
    Tensor& out(std::string name, Shape shape, DType dtype);

    [[nodiscard]] const Workload& workload() const noexcept { return *workload_; }
    [[nodiscard]] Stream stream() const noexcept { return stream_; }

private:
    friend struct detail::Access;
    using Allocate = std::function<Tensor(TensorSpec)>;
    PrepIo(const Workload& workload, const Tensors& inputs, Allocate allocate, Stream stream)
        : workload_(&workload), inputs_(&inputs), allocate_(std::move(allocate)), stream_(stream) {}

    const Workload* workload_;
    const Tensors* inputs_;
    mutable std::vector<std::string> inputs_read_;  // the names in() handed out
    Allocate allocate_;
    Stream stream_;
    Tensors produced_;
};

// |student - reference| <= atol + rtol * |reference|, elementwise (NaN and Inf
// never pass). For elementwise operations, where each element's error is on the
// scale of that element.
struct Tolerance {
    double atol = 0.0;
    double rtol = 0.0;
};

// ||student - reference||_2 / ||reference||_2 <= max, over the whole output. For
// reductions and GEMMs whose sides sum in different orders: a K-term sum's
// rounding error grows like sqrt(K) * eps (fp32, K = 4096: 7.6e-6; two summation
// orders of unit normal products measured 1.3e-6 apart), and an
// element that cancels to near zero has a large relative error of its own that
// says nothing about the kernel; the norm weighs each error by the output's size.
// A NaN or Inf in either side never passes; an all-zero reference passes only an
// all-zero student.
//
//     bench.tolerance("y", fb::RelativeL2{.max = 1e-5});
struct RelativeL2 {
    double max = 0.0;
};

// How an output of the student is held to the reference's (and each side's
// timed calls to its own untimed call): elementwise, or by relative L2 error.
using Comparison = std::variant<Tolerance, RelativeL2>;

// The default for a dtype (fp32: atol 1e-5, rtol 1e-4; integers: exact).
[[nodiscard]] Tolerance default_tolerance(DType dtype) noexcept;

// What one call of the operation does, the same for both sides (the operation's
// work, not a side's): each side's throughput in eval.json is this over its
// median time. Leave a count out (nullopt) where it means nothing for the operation.
struct Work {
    std::optional<double> flops{};  // floating-point operations (a multiply-add counts 2): GEMM 2*m*n*k
    std::optional<double> bytes{};  // bytes the operation must move: each input read once, each output written once
};

using MakeInputs = std::function<void(const Workload&, Rng&, Tensors&)>;
using DeclareOutputs = std::function<std::vector<TensorSpec>(const Workload&)>;
using Call = std::function<void(Io&)>;
using Prep = std::function<void(PrepIo&)>;
using DeclareWork = std::function<Work(const Workload&)>;
// Fills an accumulating output's starting value for a workload: a host tensor,
// zero-filled on entry, of the output's shape and dtype.
using OutputStart = std::function<void(const Workload&, Tensor&)>;

namespace detail {

// One side's setup (Bench::setup) with its State's type erased: what the harness runs.
struct SideSetup {
    std::function<std::shared_ptr<void>(const Workload&, Stream)> make;  // empty: the side has no setup
    const std::type_info* state_type = nullptr;                          // &typeid(void): it keeps no state
};

}  // namespace detail

class BenchDefinition;

// A bench's definition: built by the card's make_bench(), run by the harness.
class Bench {
public:
    explicit Bench(Backend backend) noexcept : backend_(backend) {}

    Bench& workload(std::string name, std::map<std::string, std::int64_t, std::less<>> params,
                    std::uint64_t seed);
    // Host tensors for one workload, filled from `rng` (seeded from the workload's
    // seed; called again with other seeds to vary contents between samples).
    Bench& inputs(MakeInputs make);
    // Name, shape and dtype of every output either side declares.
    Bench& outputs(DeclareOutputs declare);
    Bench& reference(Call call);
    Bench& student(Call call);
    // Produces the contract's prep-produced symmetrize inputs, outside every window.
    Bench& prep(Prep step);
    // The side's untimed setup and teardown. `make(const Workload&, Stream)` runs
    // once per workload, after the harness has chosen the device (the GPU CTest
    // assigned is current) and before the workload's first call, outside every
    // timed window and profiled call, the device synchronized after it. It returns
    // the side's State, any movable type (a library handle, a plan, a workspace),
    // which the side's calls reach with io.state<State>() for every call of that
    // workload. After the workload's last call the device is synchronized and the
    // State destroyed: its destructor is the teardown, e.g. a C handle in
    // std::unique_ptr<cublasContext, decltype(&cublasDestroy)> (a deleter's
    // returned status is ignored). On HOST the stream is null. A setup that
    // throws fails the run, naming the side and the workload. A setup returning
    // void keeps no state (cudaFuncSetAttribute and the like).
    template <class Make>
    Bench& setup(Side side, Make make);
    Bench& tolerance(DType dtype, Tolerance tolerance);
    Bench& tolerance(std::string output, Tolerance tolerance);  // wins over the dtype's
    Bench& tolerance(std::string output, RelativeL2 tolerance);  // wins over the dtype's
    // Each workload's FLOP and byte counts, for throughput (GFLOP/s, GB/s) beside time.
    Bench& work(DeclareWork declare);
    // The output `name` is added into by the calls (dinp += ...), not overwritten.
    // Before every call of either side, outside the timed window, it is set to
    // its starting value: zero, or what `start` fills in. Other outputs are
    // poisoned with NaN before each untimed correctness call instead, so an
    // output a call never writes cannot pass; an accumulating output gives up
    // that check (its start is a real value), the comparison and guards stay.
    Bench& accumulates(std::string output, OutputStart start = {});
    // The ratio's precision: rounds continue until each workload's 95% interval
    // is within +/- this fraction of its ratio (default 0.01), or the time cap.
    // The bench's --precision wins over it.
    Bench& precision(double fraction);

private:
    friend class BenchDefinition;  // the harness reads a definition through it, never a card

    Bench& set_setup(Side side, detail::SideSetup setup);

    Backend backend_;
    std::vector<Workload> workloads_;
    MakeInputs inputs_;
    DeclareOutputs outputs_;
    Call reference_;
    Call student_;
    Prep prep_;
    detail::SideSetup reference_setup_;
    detail::SideSetup student_setup_;
    std::map<DType, Tolerance> dtype_tolerances_;
    std::map<std::string, Comparison, std::less<>> output_tolerances_;
    DeclareWork work_;
    std::optional<double> precision_;
    std::map<std::string, OutputStart, std::less<>> accumulating_;
};

template <class Make>
Bench& Bench::setup(Side side, Make make) {
    static_assert(std::is_invocable_v<Make&, const Workload&, Stream>,
                  "Bench::setup takes a function of (const fb::Workload&, fb::Stream) returning the side's state");
    using State = std::remove_cv_t<std::invoke_result_t<Make&, const Workload&, Stream>>;
    static_assert(!std::is_reference_v<State>, "a setup returns its state by value: the harness keeps it");
    detail::SideSetup erased;
    erased.state_type = &typeid(State);
    erased.make = [make = std::move(make)](const Workload& workload, Stream stream) mutable -> std::shared_ptr<void> {
        if constexpr (std::is_void_v<State>) {
            make(workload, stream);
            return nullptr;
        } else {
            static_assert(std::is_move_constructible_v<State>, "a setup's state must be movable");
            return std::make_shared<State>(make(workload, stream));
        }
    };
    return set_setup(side, std::move(erased));
}

// The bench executable's main (its command line: cmake/README.md, "Tests"): returns the exit code.
int bench_main(int argc, char** argv, Bench (*make_bench)(), const std::optional<BuildInfo>& build = std::nullopt);

}  // namespace forge::bench

// Ends a bench source: defines main() around the card's make_bench().
#define FORGE_BENCH_MAIN(make_bench)                                                           \
    int main(int argc, char** argv) {                                                          \
        return ::forge::bench::bench_main(argc, argv, &(make_bench), FORGE_BENCH_BUILD_INFO);  \
    }
