// y = gelu(a @ b + bias), the library way: cuBLAS SGEMM, then a bias + GELU kernel.
// Device pointers, row-major; launches on `stream`.
#pragma once

#include <cstdint>
#include <memory>

struct CUstream_st;
struct cublasContext;  // what cublasHandle_t points to

namespace reference {

// A cuBLAS handle in FP32 math mode (no TF32: both sides compute in the same
// precision), bound to one stream; cublasDestroy when it goes. The bench makes one
// per workload in the reference's setup, outside every timed window, as a caller
// that keeps its handle does.
using Blas = std::unique_ptr<cublasContext, void (*)(cublasContext*)>;

// Throws std::runtime_error when cuBLAS fails.
[[nodiscard]] Blas make_blas(CUstream_st* stream);

// a [m, k], b [k, n], bias [n], y [m, n]; `blas` bound to `stream` (make_blas).
// Throws std::runtime_error when cuBLAS fails.
void gemm_bias_gelu(cublasContext* blas, const float* a, const float* b, const float* bias, float* y,
                    std::int64_t m, std::int64_t n, std::int64_t k, CUstream_st* stream);

}  // namespace reference
