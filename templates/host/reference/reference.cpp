#include "reference.hpp"

#include <forge/bench/region.hpp>

namespace reference {

void @FORGE_OPERATOR@(const float* x, float* y, std::int64_t n) {
    // A named region is a row of the HOST per-kernel table: what a kernel regex prices.
    forge::bench::region twice{"reference_twice"};
    for (std::int64_t i = 0; i < n; ++i) y[i] = 2.0f * x[i];
}

}  // namespace reference
