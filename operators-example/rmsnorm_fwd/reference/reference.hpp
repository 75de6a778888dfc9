// RMSNorm forward, the plain way: for each row, the mean of squares, then
// y = x * rstd * gamma.
#pragma once

#include <cstdint>

namespace reference {

inline constexpr float rmsnorm_eps = 1e-6F;

// x, y: [m, n] row-major; gamma: [n].
void rmsnorm_fwd(const float* x, const float* gamma, float* y, std::int64_t m, std::int64_t n);

}  // namespace reference
