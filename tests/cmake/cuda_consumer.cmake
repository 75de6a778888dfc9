# A CUDA card of one's own against the installed package with the CUDA
# harness, as issue 12's user wrote it: a cuBLAS reference (its handle, and
# cuBLAS given to the reference alone: REFERENCE_LIBRARIES CUDA::cublas)
# against a tiled SGEMM kernel, built for sm_90 on a machine without a GPU.
# The bench builds; its student is compiled for sm_90 only, links without
# cuBLAS, and the bench records its architectures.
include("${CMAKE_CURRENT_LIST_DIR}/common.cmake")
if(NOT CUDA_COMPILER OR NOT FORGE_CUDA)
  fail("needs nvcc and the package's CUDA harness: register it only in a FORGE_ENABLE_CUDA build")
endif()

set(source "${WORK_DIR}/kernels")
set(card "${source}/sgemm")
file(MAKE_DIRECTORY "${card}/reference" "${card}/student")
write_consumer("${source}" [=[
forge_add_operator(sgemm BACKEND CUDA REFERENCE_LIBRARIES CUDA::cublas)
]=] LANGUAGES CXX CUDA)

file(WRITE "${card}/window.toml" [=[
schema_version = 1

[reference]
window = "cublasSgemm: c = a * b, fp32, row-major"
inputs = ["a", "b"]
outputs = ["c"]

[student]
window = "one tiled kernel: c = a * b"
inputs = ["a", "b"]
outputs = ["c"]
]=])
file(WRITE "${card}/reference/reference.hpp" [=[
#pragma once
#include <cstdint>

struct CUstream_st;

namespace reference {
// c (m x n) = a (m x k) * b (k x n), row-major fp32, on `stream`.
void sgemm(const float* a, const float* b, float* c, std::int64_t m, std::int64_t n, std::int64_t k,
           CUstream_st* stream);
}
]=])
file(WRITE "${card}/reference/reference.cu" [=[
#include "reference.hpp"

#include <cublas_v2.h>

#include <stdexcept>

namespace reference {

void sgemm(const float* a, const float* b, float* c, std::int64_t m, std::int64_t n, std::int64_t k,
           CUstream_st* stream) {
    static cublasHandle_t handle = [] {
        cublasHandle_t created = nullptr;
        if (cublasCreate(&created) != CUBLAS_STATUS_SUCCESS) throw std::runtime_error("cublasCreate failed");
        return created;
    }();
    cublasSetStream(handle, stream);
    const float one = 1.0f;
    const float zero = 0.0f;
    // Row-major c = a * b is column-major c^T = b^T * a^T.
    cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, static_cast<int>(n), static_cast<int>(m), static_cast<int>(k), &one,
                b, static_cast<int>(n), a, static_cast<int>(k), &zero, c, static_cast<int>(n));
}

}  // namespace reference
]=])
file(WRITE "${card}/student/student.hpp" [=[
#pragma once
#include <cstdint>

struct CUstream_st;

namespace student {
void sgemm(const float* a, const float* b, float* c, std::int64_t m, std::int64_t n, std::int64_t k,
           CUstream_st* stream);
}
]=])
file(WRITE "${card}/student/student.cu" [=[
#include "student.hpp"

namespace {

constexpr int tile = 16;

__global__ void sgemm_tiled(const float* a, const float* b, float* c, int m, int n, int k) {
    __shared__ float as[tile][tile];
    __shared__ float bs[tile][tile];
    const int row = blockIdx.y * tile + threadIdx.y;
    const int col = blockIdx.x * tile + threadIdx.x;
    float sum = 0.0f;
    for (int t = 0; t < k; t += tile) {
        as[threadIdx.y][threadIdx.x] = row < m && t + threadIdx.x < k ? a[row * k + t + threadIdx.x] : 0.0f;
        bs[threadIdx.y][threadIdx.x] = col < n && t + threadIdx.y < k ? b[(t + threadIdx.y) * n + col] : 0.0f;
        __syncthreads();
        for (int i = 0; i < tile; ++i) sum += as[threadIdx.y][i] * bs[i][threadIdx.x];
        __syncthreads();
    }
    if (row < m && col < n) c[row * n + col] = sum;
}

}  // namespace

namespace student {

void sgemm(const float* a, const float* b, float* c, std::int64_t m, std::int64_t n, std::int64_t k,
           CUstream_st* stream) {
    const dim3 block(tile, tile);
    const dim3 grid(static_cast<unsigned>((n + tile - 1) / tile), static_cast<unsigned>((m + tile - 1) / tile));
    sgemm_tiled<<<grid, block, 0, stream>>>(a, b, c, static_cast<int>(m), static_cast<int>(n), static_cast<int>(k));
}

}  // namespace student
]=])
file(WRITE "${card}/bench.cu" [=[
#include <vector>

#include <forge/bench/bench.hpp>

#include "reference.hpp"
#include "student.hpp"

namespace fb = forge::bench;

namespace {

fb::Bench make_bench() {
    fb::Bench bench{fb::Backend::cuda};
    bench.workload("m512_k512", {{"m", 512}, {"n", 512}, {"k", 512}}, 1)
        .workload("m1024_k1024", {{"m", 1024}, {"n", 1024}, {"k", 1024}}, 2)
        .workload("m1024_k4096", {{"m", 1024}, {"n", 1024}, {"k", 4096}}, 3);
    bench.inputs([](const fb::Workload& w, fb::Rng& rng, fb::Tensors& in) {
        rng.normal(in.add("a", {w["m"], w["k"]}, fb::DType::fp32));
        rng.normal(in.add("b", {w["k"], w["n"]}, fb::DType::fp32));
    });
    bench.outputs([](const fb::Workload& w) {
        return std::vector<fb::TensorSpec>{{"c", {w["m"], w["n"]}, fb::DType::fp32}};
    });
    bench.reference([](fb::Io& io) {
        const fb::Tensor& a = io.in("a");
        const fb::Tensor& b = io.in("b");
        reference::sgemm(a.data<float>(), b.data<float>(), io.out("c").data<float>(), a.dim(0), b.dim(1), a.dim(1),
                         io.stream());
    });
    bench.student([](fb::Io& io) {
        const fb::Tensor& a = io.in("a");
        const fb::Tensor& b = io.in("b");
        student::sgemm(a.data<float>(), b.data<float>(), io.out("c").data<float>(), a.dim(0), b.dim(1), a.dim(1),
                       io.stream());
    });
    // Sums of k products in a different order: the error grows with k.
    bench.tolerance(fb::DType::fp32, {.atol = 1e-3, .rtol = 1e-3});
    return bench;
}

}  // namespace

FORGE_BENCH_MAIN(make_bench)
]=])

set(build "${WORK_DIR}/build")
set(CONSUMER_CUDA_ARCHITECTURES 90)
configure_consumer("${source}" "${build}" result log -DCMAKE_BUILD_TYPE=Release)
if(NOT result EQUAL 0)
  fail("configure failed:\n${log}")
endif()
expect_no_match("${log}" "CMAKE_CUDA_ARCHITECTURES was not set" "a project that chose sm_90")
execute_process(COMMAND "${CMAKE_COMMAND}" --build "${build}" --target forge_sgemm_bench
  RESULT_VARIABLE result OUTPUT_VARIABLE log ERROR_VARIABLE log)
if(NOT result EQUAL 0)
  fail("the bench did not build:\n${log}")
endif()

file(READ "${build}/build.ninja" ninja)
string(REGEX MATCH "build [^\n]*forge_sgemm_student\\.dir[^\n]*student\\.cu\\.o:[^\n]*\n( [^\n]*\n)*" student "${ninja}")
expect_match("${student}" "arch=compute_90,code=\\[compute_90,sm_90\\]" "the student is compiled for sm_90")
expect_no_match("${student}" "sm_(75|80)" "the student, for sm_90 only")
# The student's link check has no cuBLAS; the bench has.
string(REGEX MATCH "build forge_sgemm_student_link_check:[^\n]*\n( [^\n]*\n)*" check "${ninja}")
expect_match("${check}" "LINK_LIBRARIES" "the student's link check")
expect_no_match("${check}" "cublas" "the student's link check")
string(REGEX MATCH "build forge_sgemm_bench:[^\n]*\n( [^\n]*\n)*" bench "${ninja}")
expect_match("${bench}" "cublas" "the bench links the reference's cuBLAS")
expect_match("${ninja}" "FORGE_BENCH_CUDA_ARCHITECTURES=\\\\\"90\\\\\"" "the bench records sm_90")
