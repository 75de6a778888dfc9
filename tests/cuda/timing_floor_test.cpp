#define BOOST_TEST_MODULE cuda_timing_floor
// main() below: with no CUDA device the whole executable skips (exit 77).
#define BOOST_TEST_NO_MAIN
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "forge/bench/bench.hpp"
#include "forge/bench/run.hpp"
#include "forge/exit_code.hpp"
#include "bench_add_operator.hpp"
#include "cuda_test_main.hpp"
#include "floor_kernels.hpp"

// What the CUDA backend's clock reads on a GPU, against two fixed points: a call
// that does nothing (the floor of every reading) and a call of one kernel of a
// known length, which CUPTI times too. Each case prints its figures
// ("timing_floor: ..."), which the README quotes from a device run.
namespace fb = forge::bench;
using nlohmann::json;

namespace {

// Both sides make the same call: c = a + b on n = 1 float, in one kernel.
fb::Bench one_kernel_bench(fb::Call call) {
    fb::Bench b{fb::Backend::cuda};
    for (int i = 0; i < 3; ++i) b.workload("w" + std::to_string(i), {{"n", 1}}, 40 + i);
    add_tensors(b);
    b.reference(call);
    b.student(std::move(call));
    return b;
}

fb::RunResult full_run(const fb::Bench& bench) {
    fb::RunOptions options;
    options.operator_name = "timing_floor";
    return fb::run(bench, add_contract(), options);
}

std::string listed(const std::vector<std::string>& messages) {
    std::string text;
    for (const std::string& message : messages) text += "\n  " + message;
    return text.empty() ? " none" : text;
}

// The student's kernel time per call as CUPTI saw it, in ms.
double cupti_ms(const json& workload) {
    double ns = 0;
    for (const json& row : workload["kernels"]["student"]) ns += row["time_ns"].get<double>();
    return ns * 1e-6;
}

}  // namespace

BOOST_AUTO_TEST_CASE(a_call_of_one_empty_kernel_reads_at_most_5_us) {
    const fb::RunResult result = full_run(one_kernel_bench([](fb::Io& io) {
        floor_kernels::single_thread(io.in("a").data<float>(), io.in("b").data<float>(), io.out("c").data<float>(),
                                     io.stream());
    }));
    BOOST_TEST_REQUIRE(result.exit_code == forge::exit_code::ok, "problems:" << listed(result.problems));
    for (const json& w : result.eval["performance"]["workloads"]) {
        const double reference_ms = w["reference_ms"].get<double>();
        const double student_ms = w["student_ms"].get<double>();
        std::cout << "timing_floor: empty kernel, " << w["name"].get<std::string>() << ": reference "
                  << reference_ms * 1e3 << " us, student " << student_ms * 1e3 << " us (CUPTI: kernel "
                  << cupti_ms(w) * 1e3 << " us)\n";
        BOOST_TEST(std::max(reference_ms, student_ms) <= 0.005, w["name"]);
    }
}

BOOST_AUTO_TEST_CASE(a_200_us_kernel_reads_within_2_percent_of_cupti) {
    const fb::RunResult result = full_run(one_kernel_bench([](fb::Io& io) {
        floor_kernels::spin(200, io.in("a").data<float>(), io.in("b").data<float>(), io.out("c").data<float>(),
                            io.stream());
    }));
    BOOST_TEST_REQUIRE(result.exit_code == forge::exit_code::ok, "problems:" << listed(result.problems));
    for (const json& w : result.eval["performance"]["workloads"]) {
        const double student_ms = w["student_ms"].get<double>();
        const double kernel_ms = cupti_ms(w);
        std::cout << "timing_floor: spin kernel, " << w["name"].get<std::string>() << ": student " << student_ms * 1e3
                  << " us, CUPTI kernel " << kernel_ms * 1e3 << " us, apart " << 100 * (student_ms / kernel_ms - 1)
                  << "%\n";
        BOOST_TEST(kernel_ms >= 0.1, w["name"]);
        BOOST_TEST(std::abs(student_ms / kernel_ms - 1) <= 0.02, w["name"]);
    }
}

int main(int argc, char* argv[]) { return run_cuda_tests("cuda_timing_floor", argc, argv); }
