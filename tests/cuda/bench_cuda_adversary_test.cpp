#define BOOST_TEST_MODULE bench_cuda_adversary
// main() below: with no CUDA device the whole executable skips (exit 77).
#define BOOST_TEST_NO_MAIN
#include <boost/test/unit_test.hpp>

#include <cuda_runtime_api.h>

#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include <nlohmann/json.hpp>

#include "forge/bench/bench.hpp"
#include "forge/bench/run.hpp"
#include "forge/contract/contract.hpp"
#include "forge/exit_code.hpp"
#include "adversary_kernels.hpp"
#include "bench_add_operator.hpp"
#include "cuda_test_main.hpp"

// The CUDA counterparts of tests/unit/bench_adversary_test.cpp: one student per
// trick a student could use on the GPU to win without doing the work, each held to
// the CUDA backend catching it and saying what happened. Runs only on a machine
// with a CUDA device.
namespace fb = forge::bench;
using nlohmann::json;

namespace {

constexpr std::int64_t n = 1024;

void check(cudaError_t error, const std::string& what) {
    if (error != cudaSuccess) throw std::runtime_error(what + ": " + cudaGetErrorString(error));
}

const float* in(fb::Io& io, const char* name) { return io.in(name).data<float>(); }

// c = a + b on the harness's stream: the reference, and the honest student.
void add_on_device(fb::Io& io) {
    fb::Tensor& c = io.out("c");
    adversary::add(in(io, "a"), in(io, "b"), c.data<float>(), c.numel(), io.stream());
}

fb::Bench add_bench(fb::Call student, bool with_prep = false) {
    fb::Bench b{fb::Backend::cuda};
    for (int i = 0; i < 3; ++i) b.workload("w" + std::to_string(i), {{"n", n}}, 20 + i);
    add_tensors(b);
    b.reference(add_on_device);
    b.student(std::move(student));
    if (with_prep) {
        // s = a, produced on the device outside every window and handed to both sides.
        b.prep([](fb::PrepIo& io) {
            const fb::Tensor& a = io.in("a");
            fb::Tensor& s = io.out("s", a.shape(), a.dtype());
            check(cudaMemcpyAsync(s.raw(), a.raw(), a.bytes(), cudaMemcpyDeviceToDevice, io.stream()),
                  "copying a into s");
        });
    }
    return b;
}

// Each student is a few lines; these say what went wrong when a check fails.
std::string listed(const std::vector<std::string>& messages) {
    std::string text;
    for (const std::string& message : messages) text += "\n  " + message;
    return text.empty() ? " none" : text;
}

}  // namespace

BOOST_AUTO_TEST_CASE(an_honest_student_passes_without_notices) {
    const fb::RunResult result = quick_run(add_bench(add_on_device), add_contract());
    BOOST_TEST(result.exit_code == forge::exit_code::ok, "problems:" << listed(result.problems));
    BOOST_TEST(result.problems.empty());
    BOOST_TEST(result.notices.empty(), "notices:" << listed(result.notices));
    BOOST_TEST_REQUIRE(result.eval["performance"]["workloads"].size() == 3u);
    for (const json& w : result.eval["performance"]["workloads"]) {
        BOOST_TEST(w["kernel_set_changed"] == json({{"reference", false}, {"student", false}}), w["name"]);
        bool add_kernel_listed = false;
        for (const json& row : w["kernels"]["student"]) {
            add_kernel_listed = add_kernel_listed || row["name"].get<std::string>().find("add_kernel") != std::string::npos;
        }
        BOOST_TEST(add_kernel_listed, w["name"] << ": the profiled call's table lists " << w["kernels"]["student"]);
    }
}

BOOST_AUTO_TEST_CASE(outputs_kept_from_an_earlier_call_are_caught) {
    // Writes only the elements that still hold the poison; the correctness calls,
    // which start from poison, pass, and every later call returns what the last left.
    const fb::RunResult result = quick_run(add_bench([](fb::Io& io) {
                                         fb::Tensor& c = io.out("c");
                                         adversary::add_where_unwritten(in(io, "a"), in(io, "b"), c.data<float>(),
                                                                        c.numel(), io.stream());
                                     }),
                                     add_contract());
    BOOST_TEST(result.exit_code == forge::exit_code::problems);
    BOOST_TEST(any_has(result.problems, {"workload 'w0'", "student's timed call", "'c'", "outputs cached between calls"}),
               "problems:" << listed(result.problems));
}

BOOST_AUTO_TEST_CASE(a_call_that_changes_a_prep_tensor_is_caught) {
    const fb::RunResult result = quick_run(add_bench(
                                         [](fb::Io& io) {
                                             add_on_device(io);
                                             // Scribbles on the prep tensor it was handed read-only.
                                             adversary::increment(const_cast<float*>(in(io, "s")), 0, io.stream());
                                         },
                                         true),
                                     add_contract(n));
    BOOST_TEST(result.exit_code == forge::exit_code::problems);
    BOOST_TEST(any_has(result.problems, {"student's call changed the prep tensor 's'"}),
               "problems:" << listed(result.problems));
    BOOST_TEST(result.eval["performance"]["prep"]["mutated"] == json::array({"s"}));
}

BOOST_AUTO_TEST_CASE(reading_an_undeclared_tensor_fails_the_run) {
    const fb::RunResult result = quick_run(add_bench([](fb::Io& io) {
                                         (void)io.in("precomputed_c");
                                         add_on_device(io);
                                     }),
                                     add_contract());
    BOOST_TEST(result.exit_code == forge::exit_code::problems);
    BOOST_TEST(any_has(result.problems, {"'precomputed_c'", "student"}), "problems:" << listed(result.problems));
}

BOOST_AUTO_TEST_CASE(a_write_past_the_end_of_an_output_fails_the_run) {
    // One element too many: inside cudaMalloc's rounding, so the device would not fault.
    const fb::RunResult result = quick_run(add_bench([](fb::Io& io) {
                                         add_on_device(io);
                                         fb::Tensor& c = io.out("c");
                                         adversary::store(c.data<float>(), c.numel(), 0.0F, io.stream());
                                     }),
                                     add_contract());
    BOOST_TEST(result.exit_code == forge::exit_code::problems);
    BOOST_TEST(any_has(result.problems, {"workload 'w0'", "student's call wrote past the end of output 'c'"}),
               "problems:" << listed(result.problems));
}

BOOST_AUTO_TEST_CASE(a_write_before_the_start_of_an_input_copy_fails_the_run) {
    const fb::RunResult result = quick_run(add_bench([](fb::Io& io) {
                                         add_on_device(io);
                                         adversary::store(const_cast<float*>(in(io, "b")), -1, 1.0F, io.stream());
                                     }),
                                     add_contract());
    BOOST_TEST(result.exit_code == forge::exit_code::problems);
    BOOST_TEST(any_has(result.problems, {"student's call wrote before the start of input 'b'"}),
               "problems:" << listed(result.problems));
}

BOOST_AUTO_TEST_CASE(a_kernel_set_that_changes_between_samples_is_flagged_not_failed) {
    // Every other call also launches other_path_kernel: whichever call is profiled,
    // its table hides part of what some timed calls ran.
    int calls = 0;
    const fb::RunResult result = quick_run(add_bench([&calls](fb::Io& io) {
                                         add_on_device(io);
                                         if (++calls % 2 == 0) {
                                             fb::Tensor& c = io.out("c");
                                             adversary::add_other_path(in(io, "a"), in(io, "b"), c.data<float>(),
                                                                       c.numel(), io.stream());
                                         }
                                     }),
                                     add_contract());
    BOOST_TEST(result.exit_code == forge::exit_code::ok, "problems:" << listed(result.problems));
    BOOST_TEST_REQUIRE(result.eval["performance"]["workloads"].size() == 3u);
    for (const json& w : result.eval["performance"]["workloads"]) {
        BOOST_TEST(w["kernel_set_changed"] == json({{"reference", false}, {"student", true}}), w["name"]);
    }
    BOOST_TEST(any_has(result.notices, {"kernel set changed", "other_path_kernel"}),
               "notices:" << listed(result.notices));
    BOOST_TEST(result.eval["notices"].size() == result.notices.size());
}

// Answers kept in device memory by what identifies the inputs (their address
// and two of their values, read back), computed only the first time, as on
// public leaderboards (gpu-mode reference-kernels #102, #104, #142): right
// whenever the input variants come back. The honest work is a 0.2 ms kernel;
// a fresh round's inputs are new to it, so there it does that work.
BOOST_AUTO_TEST_CASE(answers_kept_by_their_inputs_identity_are_caught_by_the_fresh_rounds) {
    using Key = std::tuple<const void*, float, float>;
    // Kept for the process's life: freeing at exit would race the context's teardown.
    std::map<Key, void*> kept;
    const auto keeping_student = [&kept](fb::Io& io) {
        const float* a = in(io, "a");
        const float* b = in(io, "b");
        fb::Tensor& c = io.out("c");
        const auto stream = static_cast<cudaStream_t>(io.stream());
        float first = 0.0F;
        float last = 0.0F;
        check(cudaMemcpyAsync(&first, a, sizeof first, cudaMemcpyDeviceToHost, stream), "reading a[0]");
        check(cudaMemcpyAsync(&last, b + c.numel() - 1, sizeof last, cudaMemcpyDeviceToHost, stream),
              "reading b[n-1]");
        check(cudaStreamSynchronize(stream), "waiting for the key");
        const Key key{a, first, last};
        if (const auto found = kept.find(key); found != kept.end()) {
            check(cudaMemcpyAsync(c.raw(), found->second, c.bytes(), cudaMemcpyDeviceToDevice, stream),
                  "answering from the kept copy");
            return;
        }
        adversary::late_add(a, b, c.data<float>(), c.numel(), 0.2, stream);
        void* copy = nullptr;
        check(cudaMalloc(&copy, c.bytes()), "keeping an answer");
        check(cudaMemcpyAsync(copy, c.raw(), c.bytes(), cudaMemcpyDeviceToDevice, stream), "keeping an answer");
        kept[key] = copy;
    };
    const fb::RunResult result = quick_run(add_bench(keeping_student), add_contract());
    BOOST_TEST(result.exit_code == forge::exit_code::problems);
    BOOST_TEST(any_has(result.problems, {"the student's calls read faster on inputs they had seen before"}),
               "problems:" << listed(result.problems));
}

// A reading that moves the declared bytes faster than the device's peak DRAM
// bandwidth allows: a bench that declares 1 PB a call, so both sides are refused.
BOOST_AUTO_TEST_CASE(a_reading_past_the_devices_peak_bandwidth_fails_the_run) {
    fb::Bench b = add_bench(add_on_device);
    b.work([](const fb::Workload&) { return fb::Work{.bytes = 1e15}; });
    const fb::RunResult result = quick_run(b, add_contract());
    BOOST_TEST(result.exit_code == forge::exit_code::problems);
    for (const std::string side : {"student", "reference"}) {
        BOOST_TEST(any_has(result.problems, {"the " + side + "'s median call", "past what this machine's memory gives",
                                             "peak DRAM bandwidth", "refused past 1.1x that"}),
                   side << ", problems:" << listed(result.problems));
    }
}

namespace {

// A student that does its work on a stream of its own. It waits for the harness's
// stream (where its inputs are loaded) but nothing is made to wait for it; its
// kernel spins first, so the work is still running when the call returns.
class OwnStreamStudent {
public:
    static constexpr double spin_ms = 2.0;

    // cudaStreamDefault: a blocking stream (the legacy default stream waits for it);
    // cudaStreamNonBlocking: one that nothing waits for.
    explicit OwnStreamStudent(unsigned int flags) {
        check(cudaStreamCreateWithFlags(&stream_, flags), "cudaStreamCreateWithFlags");
        check(cudaEventCreateWithFlags(&inputs_loaded_, cudaEventDisableTiming), "cudaEventCreate");
    }

    OwnStreamStudent(const OwnStreamStudent&) = delete;
    OwnStreamStudent& operator=(const OwnStreamStudent&) = delete;

    // The last call's kernel ends before the stream goes.
    ~OwnStreamStudent() {
        cudaStreamSynchronize(stream_);
        cudaEventDestroy(inputs_loaded_);
        cudaStreamDestroy(stream_);
    }

    void operator()(fb::Io& io) {
        // The previous call's kernel has finished: it never outlives the tensors it
        // was given, which the harness frees after each workload.
        check(cudaStreamSynchronize(stream_), "the student's own stream");
        check(cudaEventRecord(inputs_loaded_, io.stream()), "cudaEventRecord");
        check(cudaStreamWaitEvent(stream_, inputs_loaded_, 0), "cudaStreamWaitEvent");
        fb::Tensor& c = io.out("c");
        adversary::late_add(in(io, "a"), in(io, "b"), c.data<float>(), c.numel(), spin_ms, stream_);
    }

private:
    cudaStream_t stream_ = nullptr;
    cudaEvent_t inputs_loaded_ = nullptr;
};

}  // namespace

BOOST_AUTO_TEST_CASE(work_left_running_on_a_non_blocking_stream_fails_the_run) {
    // Nothing the window ends on waits for this stream: the call looks as fast as a
    // launch, and the outputs are complete by the time anyone checks them.
    fb::RunResult result;
    {
        OwnStreamStudent student(cudaStreamNonBlocking);
        result = quick_run(add_bench([&student](fb::Io& io) { student(io); }), add_contract());
    }
    BOOST_TEST(result.exit_code == forge::exit_code::problems);
    BOOST_TEST(any_has(result.problems, {"student's", "left work running after its window ended", "late_add_kernel"}),
               "problems:" << listed(result.problems));
}

BOOST_AUTO_TEST_CASE(work_on_a_blocking_stream_of_its_own_is_inside_the_window) {
    // The window ends on the legacy default stream, which waits for every blocking
    // stream: the spin is timed, so the student gains nothing and is not failed.
    fb::RunResult result;
    {
        OwnStreamStudent student(cudaStreamDefault);
        result = quick_run(add_bench([&student](fb::Io& io) { student(io); }), add_contract());
    }
    BOOST_TEST(result.exit_code == forge::exit_code::ok, "problems:" << listed(result.problems));
    BOOST_TEST(result.problems.empty());
    BOOST_TEST_REQUIRE(result.eval["performance"]["workloads"].size() == 3u);
    for (const json& w : result.eval["performance"]["workloads"]) {
        // A margin under the spin for timer granularity; a window that missed the
        // stream would read a few microseconds.
        BOOST_TEST(w["samples"]["student"]["median_ms"].get<double>() >= 0.75 * OwnStreamStudent::spin_ms, w["name"]);
    }
}

int main(int argc, char* argv[]) { return run_cuda_tests("bench_cuda_adversary", argc, argv); }
