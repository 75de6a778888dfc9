// The student implementation of @FORGE_OPERATOR@: the new code being judged.
// Its call boundary is the one the [student] section of window.toml describes.
// The scaffold's placeholder operator: y = 2 * x over n fp32 elements.
#pragma once

#include <cstdint>

namespace student {

void @FORGE_OPERATOR@(const float* x, float* y, std::int64_t n);

}  // namespace student
