// y = gelu(a @ b + bias), the library way: cuBLAS SGEMM, then a bias + GELU kernel.
// Device pointers, row-major; launches on `stream`.
#pragma once

#include <cstdint>

struct CUstream_st;

namespace reference {

// a [m, k], b [k, n], bias [n], y [m, n]. Throws std::runtime_error when cuBLAS fails.
void gemm_bias_gelu(const float* a, const float* b, const float* bias, float* y, std::int64_t m, std::int64_t n,
                    std::int64_t k, CUstream_st* stream);

}  // namespace reference
