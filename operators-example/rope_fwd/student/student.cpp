#include "student.hpp"

namespace student {

void rope_fwd(const float* x, const float* cos, const float* sin, float* y, std::int64_t batch, std::int64_t seq,
              std::int64_t heads, std::int64_t dim) {
    const std::int64_t half = dim / 2;
    for (std::int64_t b = 0; b < batch; ++b) {
        for (std::int64_t pos = 0; pos < seq; ++pos) {
            const float* __restrict c = cos + pos * half;
            const float* __restrict s = sin + pos * half;
            for (std::int64_t h = 0; h < heads; ++h) {
                const std::int64_t row = (b * seq + pos) * heads + h;
                const float* __restrict in = x + row * dim;
                float* __restrict out = y + row * dim;
                for (std::int64_t i = 0; i < half; ++i) {
                    const float x1 = in[i];
                    const float x2 = in[i + half];
                    out[i] = x1 * c[i] + (-x2) * s[i];
                    out[i + half] = x2 * c[i] + x1 * s[i];
                }
            }
        }
    }
}

}  // namespace student
