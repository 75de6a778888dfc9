// LayerNorm backward from the raw inputs only: rebuilds the per-row mean and
// rstd (region "rebuild_mean_rstd", the work window.toml prices), then one fused
// pass per row that writes dx and accumulates dgamma and dbeta.
#pragma once

#include <cstdint>

namespace student {

// dx [m, n], dgamma [n], dbeta [n] from dy, x [m, n], gamma [n].
void layernorm_bwd(const float* dy, const float* x, const float* gamma, float* dx, float* dgamma, float* dbeta,
                   std::int64_t m, std::int64_t n);

}  // namespace student
