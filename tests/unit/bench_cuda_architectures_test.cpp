#define BOOST_TEST_MODULE bench_cuda_architectures
#include <boost/test/unit_test.hpp>

#include <optional>
#include <string>

#include "runtime/cuda/cuda_architectures.hpp"

// Whether a bench built for some CUDA architectures (CMake's syntax) carries
// native code for the GPU it runs on, else what runs there and how to fix it:
// decided here, without a GPU, for the GPUs benches meet.
namespace fb = forge::bench;

namespace {

bool has(const std::optional<std::string>& notice, const std::string& part) {
    return notice && notice->find(part) != std::string::npos;
}

}  // namespace

BOOST_AUTO_TEST_CASE(native_code_for_the_gpu_is_no_notice) {
    BOOST_TEST(!fb::architecture_notice("80;90", 9, 0));
    BOOST_TEST(!fb::architecture_notice("90-real", 9, 0));
    BOOST_TEST(!fb::architecture_notice("90a-real;100-virtual", 9, 0));
    BOOST_TEST(!fb::architecture_notice("80;;90", 9, 0));
    // SASS runs on later GPUs of its own major version: sm_80 on an A10 (8.6), an L4 (8.9).
    BOOST_TEST(!fb::architecture_notice("80-real", 8, 6));
    BOOST_TEST(!fb::architecture_notice("80", 8, 9));
    BOOST_TEST(!fb::architecture_notice("100f-real", 10, 3));
}

BOOST_AUTO_TEST_CASE(nvcc_default_on_an_h200_runs_jit_compiled_ptx) {
    // A project that chose nothing: nvcc's default, sm_75 with its PTX.
    const auto notice = fb::architecture_notice("75", 9, 0);
    BOOST_TEST(has(notice, "'75'"));
    BOOST_TEST(has(notice, "compute capability 9.0"));
    BOOST_TEST(has(notice, "PTX for compute_75"));
    BOOST_TEST(has(notice, "JIT-compiles"));
    BOOST_TEST(has(notice, "-DCMAKE_CUDA_ARCHITECTURES=90"));
}

BOOST_AUTO_TEST_CASE(the_newest_ptx_that_runs_is_named) {
    const auto notice = fb::architecture_notice("70;80-virtual;86-real;100-virtual", 9, 0);
    BOOST_TEST(has(notice, "PTX for compute_80 "));
    BOOST_TEST(has(notice, "sm_90"));
}

BOOST_AUTO_TEST_CASE(sass_of_another_major_or_a_later_minor_does_not_run) {
    BOOST_TEST(has(fb::architecture_notice("89-real;90-virtual", 8, 6), "cannot launch"));
    BOOST_TEST(has(fb::architecture_notice("86-real", 8, 0), "cannot launch"));
    BOOST_TEST(has(fb::architecture_notice("80-real", 9, 0), "cannot launch"));
    BOOST_TEST(has(fb::architecture_notice("100", 9, 0), "neither native code (SASS) nor PTX"));
}

BOOST_AUTO_TEST_CASE(arch_specific_code_runs_only_on_its_gpu) {
    // sm_90a (Hopper's wgmma, setmaxnreg) runs on 9.0 only, its PTX too.
    BOOST_TEST(has(fb::architecture_notice("90a", 10, 0), "cannot launch"));
    // Family code (CUDA 12.9's f) runs across its major version.
    BOOST_TEST(has(fb::architecture_notice("100f-virtual", 10, 3), "PTX for compute_100f"));
    BOOST_TEST(has(fb::architecture_notice("100f", 12, 0), "cannot launch"));
}

BOOST_AUTO_TEST_CASE(what_cannot_be_judged_is_not_checked) {
    BOOST_TEST(!fb::architecture_notice("", 9, 0));
    BOOST_TEST(!fb::architecture_notice("all", 9, 0));
    BOOST_TEST(!fb::architecture_notice("all-major", 9, 0));
    BOOST_TEST(!fb::architecture_notice("native", 9, 0));
    BOOST_TEST(!fb::architecture_notice("OFF", 9, 0));
}

BOOST_AUTO_TEST_CASE(text_that_is_not_cmake_syntax_says_so) {
    for (const char* text : {"sm_90", "90-fake", "compute_80;90", "9", "80,90", "-real"}) {
        const auto notice = fb::architecture_notice(text, 9, 0);
        BOOST_TEST_INFO(text);
        BOOST_TEST(has(notice, "not CMake's CUDA_ARCHITECTURES syntax"));
    }
}
