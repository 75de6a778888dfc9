#define BOOST_TEST_MODULE cuda_runtime
// main() below: with no CUDA device the whole executable skips (exit 77).
#define BOOST_TEST_NO_MAIN
#include <boost/test/unit_test.hpp>

#include <cuda_runtime_api.h>

#include <algorithm>
#include <memory>
#include <optional>
#include <string>

#include "adversary_kernels.hpp"
#include "cuda_test_main.hpp"
#include "runtime/cuda/cuda_stream.hpp"
#include "runtime/runtime.hpp"

// The CUDA backend's profiled window, below the harness: where its edges fall
// on the device for work on the bench's stream, on a non-blocking stream that
// runs beside the flush or past the end, and beside a memset that looks like the
// harness's own. Runs only on a machine with a CUDA device.
namespace fb = forge::bench;

namespace {

constexpr std::int64_t n = 1 << 20;

struct AddTensors {
    explicit AddTensors(fb::Runtime& runtime)
        : a(runtime.allocate({"a", {n}, fb::DType::fp32})),
          b(runtime.allocate({"b", {n}, fb::DType::fp32})),
          c(runtime.allocate({"c", {n}, fb::DType::fp32})) {}
    fb::Tensor a;
    fb::Tensor b;
    fb::Tensor c;
};

bool launched(const fb::Profile& profile, const std::string& part) {
    return std::any_of(profile.launched.begin(), profile.launched.end(),
                       [&](const std::string& name) { return name.find(part) != std::string::npos; });
}

std::string names(const auto& work) {
    std::string text;
    for (const auto& w : work) text += " " + w.name;
    return text.empty() ? " none" : text;
}

}  // namespace

BOOST_AUTO_TEST_CASE(work_on_the_bench_stream_is_inside_the_profiled_window) {
    const std::unique_ptr<fb::Runtime> runtime = fb::make_cuda_runtime(0);
    AddTensors t(*runtime);
    const fb::Profile profile = runtime->profile_call(
        [&] { adversary::add(t.a.data<float>(), t.b.data<float>(), t.c.data<float>(), n, runtime->stream()); },
        "forge/test/inside");
    BOOST_TEST(launched(profile, "add_kernel"));
    BOOST_TEST(profile.early.empty(), "early:" << names(profile.early));
    BOOST_TEST(profile.late.empty(), "late:" << names(profile.late));
    BOOST_TEST(!profile.kernels.kernels.empty());
}

BOOST_AUTO_TEST_CASE(a_calls_own_marker_sized_memset_changes_no_edge) {
    // The old window-end rule matched a memset by size and value; a call's own
    // memset, last of all, is now just the call's work in its table.
    const std::unique_ptr<fb::Runtime> runtime = fb::make_cuda_runtime(0);
    AddTensors t(*runtime);
    const fb::Profile profile = runtime->profile_call(
        [&] {
            adversary::add(t.a.data<float>(), t.b.data<float>(), t.c.data<float>(), n, runtime->stream());
            BOOST_REQUIRE(cudaMemsetAsync(t.c.raw(), 0xF7, 44, runtime->stream()) == cudaSuccess);
        },
        "forge/test/memset");
    BOOST_TEST(profile.late.empty(), "late:" << names(profile.late));
    const bool memset_listed = std::any_of(profile.kernels.kernels.begin(), profile.kernels.kernels.end(),
                                           [](const forge::KernelRow& row) { return row.name == "[CUDA memset]"; });
    BOOST_TEST(memset_listed);
}

BOOST_AUTO_TEST_CASE(work_on_a_non_blocking_stream_beside_the_flush_is_early) {
    // Launched as the call starts, on a stream that waits for nothing: it runs
    // while the flush that starts the window is still going.
    const std::unique_ptr<fb::Runtime> runtime = fb::make_cuda_runtime(0);
    AddTensors t(*runtime);
    const fb::CudaStream own(cudaStreamNonBlocking);
    const fb::Profile profile = runtime->profile_call(
        [&] {
            adversary::late_add(t.a.data<float>(), t.b.data<float>(), t.c.data<float>(), n, 0.2, own.get());
            BOOST_REQUIRE(cudaStreamSynchronize(own.get()) == cudaSuccess);  // done within the call: not late
        },
        "forge/test/early");
    BOOST_TEST(!profile.early.empty(), "no early work; late:" << names(profile.late));
    if (!profile.early.empty()) BOOST_TEST(profile.early.front().name.find("late_add_kernel") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(work_left_on_a_non_blocking_stream_is_late) {
    const std::unique_ptr<fb::Runtime> runtime = fb::make_cuda_runtime(0);
    AddTensors t(*runtime);
    const fb::CudaStream own(cudaStreamNonBlocking);
    const fb::Profile profile = runtime->profile_call(
        [&] { adversary::late_add(t.a.data<float>(), t.b.data<float>(), t.c.data<float>(), n, 2.0, own.get()); },
        "forge/test/late");
    BOOST_TEST_REQUIRE(!profile.late.empty());
    BOOST_TEST(profile.late.front().name.find("late_add_kernel") != std::string::npos);
    BOOST_TEST(profile.late.front().ns_after_window_end > 1e6);
}

BOOST_AUTO_TEST_CASE(the_clocks_are_read_where_the_driver_has_nvml) {
    const std::unique_ptr<fb::Runtime> runtime = fb::make_cuda_runtime(0);
    const std::string source = runtime->device_facts().at("clocks_per_round").get<std::string>();
    const std::optional<fb::ClockReading> reading = runtime->read_clocks();
    BOOST_TEST_MESSAGE("clocks per round: " << source);
    if (source == "NVML") {
        BOOST_REQUIRE(reading.has_value());
        BOOST_TEST(reading->sm_mhz > 0u);
        BOOST_TEST(reading->memory_mhz > 0u);
    } else {
        BOOST_TEST(!reading.has_value());  // and the facts say why
        BOOST_TEST(source.find("NVML") != std::string::npos);
    }
}

BOOST_AUTO_TEST_CASE(two_runtimes_of_one_process_share_the_gpu_claim) {
    // A second runtime on the same GPU must not wait for the first forever.
    const std::unique_ptr<fb::Runtime> first = fb::make_cuda_runtime(0);
    const std::unique_ptr<fb::Runtime> second = fb::make_cuda_runtime(0);
    BOOST_TEST(first->device_facts()["uuid"] == second->device_facts()["uuid"]);
    BOOST_TEST(first->device_facts()["l2_bytes"].get<std::size_t>() > 0u);
}

int main(int argc, char* argv[]) { return run_cuda_tests("cuda_runtime", argc, argv); }
