// c = a @ b, the team's own kernel: 2D block tiling. Device pointers, row-major;
// launches on `stream`.
#pragma once

#include <cstdint>

struct CUstream_st;

namespace student {

// a [m, k], b [k, n], c [m, n]; m and n multiples of 128, k a multiple of 8
// (std::invalid_argument otherwise).
void sgemm(const float* a, const float* b, float* c, std::int64_t m, std::int64_t n, std::int64_t k,
           CUstream_st* stream);

}  // namespace student
