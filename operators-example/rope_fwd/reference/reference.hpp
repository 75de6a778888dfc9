// Rotary position embedding as eager framework code runs it: the rotation tables
// from the rotary-embedding module, and the forward on x [batch, seq, heads, dim]
// that materialises rotate_half(x) before combining.
#pragma once

#include <cstdint>

namespace reference {

inline constexpr double rope_base = 10000.0;

// cos, sin: [seq, half] with angle pos * base^(-2i / (2 * half)).
void rope_tables(float* cos, float* sin, std::int64_t seq, std::int64_t half);

// y = x * cat(cos, cos) + rotate_half(x) * cat(sin, sin), rotate_half(x) = cat(-x2, x1),
// materialised in `rotated` (batch * seq * heads * dim floats, the caller's).
void rope_fwd(const float* x, const float* cos, const float* sin, float* y, float* rotated, std::int64_t batch,
              std::int64_t seq, std::int64_t heads, std::int64_t dim);

}  // namespace reference
