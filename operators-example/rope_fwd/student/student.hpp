// Rotary position embedding, fused: each pair (x[i], x[i + half]) is read once and
// both rotated values written, with no rotate_half tensor in between.
#pragma once

#include <cstdint>

namespace student {

// x, y: [batch, seq, heads, dim]; cos, sin: [seq, dim / 2].
void rope_fwd(const float* x, const float* cos, const float* sin, float* y, std::int64_t batch, std::int64_t seq,
              std::int64_t heads, std::int64_t dim);

}  // namespace student
