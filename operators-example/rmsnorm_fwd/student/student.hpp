// RMSNorm forward, written for the vector units: the row's sum of squares in
// eight independent partial sums (which the compiler can keep in one SIMD
// register), and the scale as one multiply by a precomputed rstd.
#pragma once

#include <cstdint>

namespace student {

// x, y: [m, n] row-major; gamma: [n].
void rmsnorm_fwd(const float* x, const float* gamma, float* y, std::int64_t m, std::int64_t n);

}  // namespace student
