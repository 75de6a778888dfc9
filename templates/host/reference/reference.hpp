// The reference implementation of @FORGE_OPERATOR@: what the student is judged
// against. Its call boundary is the one the [reference] section of window.toml describes.
// The scaffold's placeholder operator: y = 2 * x over n fp32 elements.
#pragma once

#include <cstdint>

namespace reference {

void @FORGE_OPERATOR@(const float* x, float* y, std::int64_t n);

}  // namespace reference
