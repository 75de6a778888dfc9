# A new user's first hour, kept working: a project outside ForgeKernel's tree
# finds the installed package, wraps a vendored third-party C kernel (raw
# pointers, nothing const, int sizes; it takes the row statistics its forward
# saved) as the reference of a card with its own layout, against a student that
# recomputes them in a region the contract prices. A C++-only project is told
# to enable C (CMake would leave the .c file out and the link fail); then a plain
# Release build; its CTest tests pass, the bench records its optimised build
# (the C flags too) in eval.json, and a priced regex that matches no region
# fails the credit test, quoting the regex.
include("${CMAKE_CURRENT_LIST_DIR}/common.cmake")

set(source "${WORK_DIR}/kernels")
set(card "${source}/rownorm")
file(MAKE_DIRECTORY "${card}/third_party" "${card}/mine")
set(operator [=[
forge_add_operator(rownorm
  BACKEND HOST
  REFERENCE third_party/rownorm.h third_party/rownorm.c
  STUDENT mine/rownorm_fast.hpp mine/rownorm_fast.cpp
  BENCH bench.cpp)
]=])

file(WRITE "${card}/third_party/rownorm.h" [=[
/* Vendored as found: a C kernel pair, raw pointers, nothing const. */
#pragma once
void rownorm_stats(float* mean, float* rstd, float* inp, int rows, int cols);
void rownorm_apply(float* out, float* inp, float* weight, float* mean, float* rstd, int rows, int cols);
]=])
file(WRITE "${card}/third_party/rownorm.c" [=[
#include "rownorm.h"

#include <math.h>

void rownorm_stats(float* mean, float* rstd, float* inp, int rows, int cols) {
    for (int r = 0; r < rows; r++) {
        float* x = inp + r * cols;
        float m = 0.0f;
        for (int c = 0; c < cols; c++) m += x[c];
        m = m / cols;
        float v = 0.0f;
        for (int c = 0; c < cols; c++) v += (x[c] - m) * (x[c] - m);
        mean[r] = m;
        rstd[r] = 1.0f / sqrtf(v / cols + 1e-5f);
    }
}

void rownorm_apply(float* out, float* inp, float* weight, float* mean, float* rstd, int rows, int cols) {
    for (int r = 0; r < rows; r++) {
        for (int c = 0; c < cols; c++) out[r * cols + c] = (inp[r * cols + c] - mean[r]) * rstd[r] * weight[c];
    }
}
]=])
file(WRITE "${card}/mine/rownorm_fast.hpp" [=[
#pragma once
#include <cstdint>

namespace mine {
void rownorm(const float* x, const float* w, float* y, std::int64_t rows, std::int64_t cols);
}
]=])
file(WRITE "${card}/mine/rownorm_fast.cpp" [=[
#include "rownorm_fast.hpp"

#include <cmath>
#include <vector>

#include <forge/bench/region.hpp>

namespace mine {

void rownorm(const float* x, const float* w, float* y, std::int64_t rows, std::int64_t cols) {
    std::vector<float> mean(static_cast<std::size_t>(rows));
    std::vector<float> rstd(static_cast<std::size_t>(rows));
    {
        forge::bench::region stats{"row_stats"};  // what the reference gets from its forward
        for (std::int64_t r = 0; r < rows; ++r) {
            const float* row = x + r * cols;
            float m = 0.0F;
            for (std::int64_t c = 0; c < cols; ++c) m += row[c];
            m /= static_cast<float>(cols);
            float v = 0.0F;
            for (std::int64_t c = 0; c < cols; ++c) v += (row[c] - m) * (row[c] - m);
            mean[static_cast<std::size_t>(r)] = m;
            rstd[static_cast<std::size_t>(r)] = 1.0F / std::sqrt(v / static_cast<float>(cols) + 1e-5F);
        }
    }
    forge::bench::region apply{"normalize"};
    for (std::int64_t r = 0; r < rows; ++r) {
        const float m = mean[static_cast<std::size_t>(r)];
        const float s = rstd[static_cast<std::size_t>(r)];
        for (std::int64_t c = 0; c < cols; ++c) y[r * cols + c] = (x[r * cols + c] - m) * s * w[c];
    }
}

}  // namespace mine
]=])
file(WRITE "${card}/bench.cpp" [=[
#include <vector>

#include <forge/bench/bench.hpp>

extern "C" {
#include "rownorm.h"
}
#include "rownorm_fast.hpp"

namespace fb = forge::bench;

namespace {

// The vendored signature asks for non-const pointers to inputs it only reads.
float* vendored(const fb::Tensor& tensor) { return const_cast<float*>(tensor.data<float>()); }

fb::Bench make_bench() {
    fb::Bench bench{fb::Backend::host};
    bench.workload("r256_c512", {{"r", 256}, {"c", 512}}, 1)
        .workload("r512_c256", {{"r", 512}, {"c", 256}}, 2)
        .workload("r128_c1024", {{"r", 128}, {"c", 1024}}, 3);
    bench.inputs([](const fb::Workload& w, fb::Rng& rng, fb::Tensors& in) {
        fb::Tensor& x = in.add("x", {w["r"], w["c"]}, fb::DType::fp32);
        rng.normal(x, 0.5, 2.0);
        rng.uniform(in.add("w", {w["c"]}, fb::DType::fp32), 0.5, 1.5);
        fb::Tensor& mean = in.add("mean", {w["r"]}, fb::DType::fp32);
        fb::Tensor& rstd = in.add("rstd", {w["r"]}, fb::DType::fp32);
        rownorm_stats(mean.data<float>(), rstd.data<float>(), x.data<float>(), static_cast<int>(w["r"]),
                      static_cast<int>(w["c"]));
    });
    bench.outputs([](const fb::Workload& w) {
        return std::vector<fb::TensorSpec>{{"y", {w["r"], w["c"]}, fb::DType::fp32}};
    });
    bench.reference([](fb::Io& io) {
        const fb::Tensor& x = io.in("x");
        rownorm_apply(io.out("y").data<float>(), vendored(x), vendored(io.in("w")), vendored(io.in("mean")),
                      vendored(io.in("rstd")), static_cast<int>(x.dim(0)), static_cast<int>(x.dim(1)));
    });
    bench.student([](fb::Io& io) {
        const fb::Tensor& x = io.in("x");
        mine::rownorm(x.data<float>(), io.in("w").data<float>(), io.out("y").data<float>(), x.dim(0), x.dim(1));
    });
    bench.tolerance(fb::DType::fp32, {.atol = 1e-4, .rtol = 1e-4});
    return bench;
}

}  // namespace

FORGE_BENCH_MAIN(make_bench)
]=])
set(contract [=[
schema_version = 1

[reference]
window = "normalize with the row statistics the forward saved"
inputs = ["x", "w", "mean", "rstd"]
outputs = ["y"]

[student]
window = "normalize from x and w: recomputes the row statistics"
inputs = ["x", "w"]
outputs = ["y"]

[[asymmetry]]
ref_input = "mean"
class = "price"
produced_by = "forward"
derived_from = "x"
student_kernel_regex = "^row_stats$"

[[asymmetry]]
ref_input = "rstd"
class = "price"
produced_by = "forward"
derived_from = "x"
student_kernel_regex = "^row_stats$"
]=])
file(WRITE "${card}/window.toml" "${contract}")

# The user's recipe: a plain Release configure, then CTest (forge.build builds).
# A project that enables only C++ is refused before anything is written, with
# the fix.
set(build "${WORK_DIR}/build")
write_consumer("${source}" "${operator}")
configure_consumer("${source}" "${build}" result log -DCMAKE_BUILD_TYPE=Release)
if(result EQUAL 0)
  fail("a .c reference in a C++-only project configured:\n${log}")
endif()
string(REGEX REPLACE "[ \t\n]+" " " flat "${log}")  # CMake wraps the message
expect_match("${flat}" "third_party/rownorm\\.c is C, a language this project does not enable" "the refusal")
expect_match("${flat}" "project\\(<name> LANGUAGES C CXX\\)" "the fix")
if(EXISTS "${card}/README.md")
  fail("the refused configure scaffolded the card's README.md")
endif()
write_consumer("${source}" "${operator}" LANGUAGES C CXX)
file(REMOVE_RECURSE "${build}")
configure_consumer("${source}" "${build}" result log -DCMAKE_BUILD_TYPE=Release)
if(NOT result EQUAL 0)
  fail("configure failed:\n${log}")
endif()
expect_no_match("${log}" "without optimisation" "a Release build")
execute_process(COMMAND "${CMAKE_CTEST_COMMAND}" --test-dir "${build}" -V
  RESULT_VARIABLE result OUTPUT_VARIABLE log ERROR_VARIABLE log)
if(NOT result EQUAL 0)
  fail("ctest failed (exit ${result}):\n${log}")
endif()
expect_match("${log}" "100% tests passed, 0 tests failed out of 4" "the card's tests")
# The recompute is priced: the credit test reports a credited ratio to CDash.
# A credit the machine made unusable (profiled calls that do not reconcile with
# the timed ones) says "rerun the bench"; the user would, once.
if(log MATCHES "coverage-out-of-band" AND NOT log MATCHES "name=\"credited_ratio\">[0-9]")
  execute_process(COMMAND "${CMAKE_CTEST_COMMAND}" --test-dir "${build}" -V
    RESULT_VARIABLE result OUTPUT_VARIABLE log ERROR_VARIABLE log)
  if(NOT result EQUAL 0)
    fail("ctest failed on the rerun (exit ${result}):\n${log}")
  endif()
endif()
expect_match("${log}" "<CTestMeasurement type=\"numeric/double\" name=\"credited_ratio\">[0-9]" "the credited ratio")

# eval.json says how the bench was built.
file(READ "${build}/rownorm/eval.json" eval)
string(JSON record ERROR_VARIABLE absent GET "${eval}" build)
if(absent OR record STREQUAL "null")
  fail("eval.json has no \"build\" record (${absent}): the bench must write what FORGE_BENCH_MAIN passed")
endif()
string(JSON build_type GET "${eval}" build build_type)
string(JSON compiler GET "${eval}" build compiler)
string(JSON flags GET "${eval}" build flags)
string(JSON optimized GET "${eval}" build optimized)
if(NOT build_type STREQUAL "Release" OR NOT optimized STREQUAL "ON" OR NOT flags MATCHES "-O[1-3]")
  fail("eval.json's build is not the Release build: build_type '${build_type}', flags '${flags}', optimized ${optimized}")
endif()
expect_match("${compiler}" "^[A-Za-z]+ [0-9]+\\.[0-9]+" "eval.json's compiler (id and version)")
# The vendored C kernel's own flags: optimised, and aligned like the C++ sides.
string(JSON c_flags ERROR_VARIABLE absent GET "${eval}" build c_flags)
if(absent)
  fail("eval.json's build has no c_flags for a card with C sources (${absent})")
endif()
expect_match("${c_flags}" "-O[1-3]" "eval.json's C flags (Release)")
string(JSON c_compiler GET "${eval}" build c_compiler)
if(c_compiler MATCHES "^GNU ")
  expect_match("${c_flags}" "-falign-functions=64" "eval.json's C flags (the timed code aligned)")
endif()

# A priced regex that matches none of the student's regions fails the credit
# test (the bench still passes), and the message quotes the regex.
string(REPLACE "\"^row_stats$\"" "\"^row_statistics$\"" wrong "${contract}")
file(WRITE "${card}/window.toml" "${wrong}")
execute_process(COMMAND "${CMAKE_CTEST_COMMAND}" --test-dir "${build}" --output-on-failure
  RESULT_VARIABLE result OUTPUT_VARIABLE log ERROR_VARIABLE log)
if(result EQUAL 0)
  fail("a regex that matches no region left CTest green:\n${log}")
endif()
expect_match("${log}" "[0-9]+ - forge\\.rownorm\\.credit \\(Failed\\)" "the credit test fails")
expect_no_match("${log}" "forge\\.rownorm\\.bench \\(Failed\\)" "the bench itself")
expect_match("${log}" "\\^row_statistics\\$" "the failure quotes the regex")
