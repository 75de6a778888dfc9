// y = gelu(a @ b + bias) in one kernel: a shared-memory tiled SGEMM whose
// epilogue adds the bias and applies GELU before the only store of y.
// Device pointers, row-major; launches on `stream`.
#pragma once

#include <cstdint>

struct CUstream_st;

namespace student {

// a [m, k], b [k, n], bias [n], y [m, n]; m and n multiples of 64, k of 8
// (std::invalid_argument otherwise).
void gemm_bias_gelu(const float* a, const float* b, const float* bias, float* y, std::int64_t m, std::int64_t n,
                    std::int64_t k, CUstream_st* stream);

}  // namespace student
