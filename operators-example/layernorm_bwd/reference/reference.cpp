#include "reference.hpp"

#include <algorithm>
#include <cmath>

#include <forge/bench/region.hpp>

namespace reference {

void layernorm_fwd_stats(const float* x, float* mean, float* rstd, std::int64_t m, std::int64_t n) {
    for (std::int64_t r = 0; r < m; ++r) {
        const float* row = x + r * n;
        double sum = 0.0;
        for (std::int64_t c = 0; c < n; ++c) sum += row[c];
        const double mu = sum / static_cast<double>(n);
        double var = 0.0;
        for (std::int64_t c = 0; c < n; ++c) var += (row[c] - mu) * (row[c] - mu);
        mean[r] = static_cast<float>(mu);
        rstd[r] = static_cast<float>(1.0 / std::sqrt(var / static_cast<double>(n) + layernorm_eps));
    }
}

void layernorm_bwd(const float* dy, const float* x, const float* gamma, const float* mean, const float* rstd,
                   float* dx, float* dgamma, float* dbeta, std::int64_t m, std::int64_t n) {
    {
        // dx = rstd * (g - mean(g) - xhat * mean(g * xhat)), g = dy * gamma.
        forge::bench::region r{"grad_input"};
        for (std::int64_t row = 0; row < m; ++row) {
            const float* dy_row = dy + row * n;
            const float* x_row = x + row * n;
            float* dx_row = dx + row * n;
            float sum_g = 0.0F;
            float sum_g_xhat = 0.0F;
            for (std::int64_t c = 0; c < n; ++c) {
                const float xhat = (x_row[c] - mean[row]) * rstd[row];
                const float g = dy_row[c] * gamma[c];
                sum_g += g;
                sum_g_xhat += g * xhat;
            }
            const float mean_g = sum_g / static_cast<float>(n);
            const float mean_g_xhat = sum_g_xhat / static_cast<float>(n);
            for (std::int64_t c = 0; c < n; ++c) {
                const float xhat = (x_row[c] - mean[row]) * rstd[row];
                dx_row[c] = rstd[row] * (dy_row[c] * gamma[c] - mean_g - xhat * mean_g_xhat);
            }
        }
    }
    {
        // dgamma = sum over rows of dy * xhat; dbeta = sum over rows of dy.
        forge::bench::region r{"grad_gamma_beta"};
        std::fill(dgamma, dgamma + n, 0.0F);
        std::fill(dbeta, dbeta + n, 0.0F);
        for (std::int64_t row = 0; row < m; ++row) {
            const float* dy_row = dy + row * n;
            const float* x_row = x + row * n;
            for (std::int64_t c = 0; c < n; ++c) {
                dgamma[c] += dy_row[c] * ((x_row[c] - mean[row]) * rstd[row]);
                dbeta[c] += dy_row[c];
            }
        }
    }
}

}  // namespace reference
