// LayerNorm, reference side: the forward's saved statistics (what the bench uses
// to hand the reference its `mean` and `rstd`) and the backward as autograd calls it.
#pragma once

#include <cstdint>

namespace reference {

inline constexpr float layernorm_eps = 1e-5F;

// The statistics the forward saves: per row of x [m, n], mean and 1/sqrt(var + eps).
void layernorm_fwd_stats(const float* x, float* mean, float* rstd, std::int64_t m, std::int64_t n);

// dx [m, n], dgamma [n], dbeta [n] from dy, x [m, n], gamma [n], mean, rstd [m].
void layernorm_bwd(const float* dy, const float* x, const float* gamma, const float* mean, const float* rstd,
                   float* dx, float* dgamma, float* dbeta, std::int64_t m, std::int64_t n);

}  // namespace reference
