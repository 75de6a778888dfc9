#include "reference.hpp"

#include <cmath>

#include <forge/bench/region.hpp>

namespace reference {

void rope_tables(float* cos, float* sin, std::int64_t seq, std::int64_t half) {
    for (std::int64_t pos = 0; pos < seq; ++pos) {
        for (std::int64_t i = 0; i < half; ++i) {
            const double inv_freq = std::pow(rope_base, -static_cast<double>(2 * i) / static_cast<double>(2 * half));
            const double angle = static_cast<double>(pos) * inv_freq;
            cos[pos * half + i] = static_cast<float>(std::cos(angle));
            sin[pos * half + i] = static_cast<float>(std::sin(angle));
        }
    }
}

void rope_fwd(const float* x, const float* cos, const float* sin, float* y, float* rotated, std::int64_t batch,
              std::int64_t seq, std::int64_t heads, std::int64_t dim) {
    const std::int64_t half = dim / 2;
    const std::int64_t rows = batch * seq * heads;
    {
        // rotate_half(x) = cat(-x[..., half:], x[..., :half]), a tensor of its own.
        forge::bench::region r{"rotate_half"};
        for (std::int64_t row = 0; row < rows; ++row) {
            const float* in = x + row * dim;
            float* out = rotated + row * dim;
            for (std::int64_t i = 0; i < half; ++i) {
                out[i] = -in[i + half];
                out[i + half] = in[i];
            }
        }
    }
    {
        forge::bench::region r{"mul_add"};
        for (std::int64_t row = 0; row < rows; ++row) {
            const std::int64_t pos = (row / heads) % seq;
            const float* c = cos + pos * half;
            const float* s = sin + pos * half;
            const float* in = x + row * dim;
            const float* rot = rotated + row * dim;
            float* out = y + row * dim;
            for (std::int64_t i = 0; i < dim; ++i) out[i] = in[i] * c[i % half] + rot[i] * s[i % half];
        }
    }
}

}  // namespace reference
