// LayerNorm on the GPU, reference side: the forward's saved statistics (the bench
// computes them on the host to hand the reference its `mean` and `rstd`) and the
// backward as autograd calls it. Device pointers; launches on `stream`.
#pragma once

#include <cstdint>

// cudaStream_t, declared as the CUDA runtime declares it, so host code including
// this header needs no CUDA headers.
struct CUstream_st;

namespace reference {

inline constexpr float layernorm_eps = 1e-5F;

// Host memory: per row of x [m, n], the mean and 1/sqrt(var + eps) the forward saves.
void layernorm_fwd_stats_host(const float* x, float* mean, float* rstd, std::int64_t m, std::int64_t n);

// Device memory: dx [m, n], dgamma [n], dbeta [n] from dy, x [m, n], gamma [n], mean, rstd [m].
void layernorm_bwd(const float* dy, const float* x, const float* gamma, const float* mean, const float* rstd,
                   float* dx, float* dgamma, float* dbeta, std::int64_t m, std::int64_t n, CUstream_st* stream);

}  // namespace reference
