// The reference implementation of @FORGE_OPERATOR@: what the student is judged
// against. Its call boundary is the one the [reference] section of window.toml describes.
// The scaffold's placeholder operator: y = 2 * x over n fp32 elements.
#pragma once

#include <cstdint>

// cudaStream_t, declared as the CUDA runtime declares it, so that host code
// including this header (the prep step) needs no CUDA headers.
struct CUstream_st;

namespace reference {

// Launches on `stream`: the harness times that stream.
void @FORGE_OPERATOR@(const float* x, float* y, std::int64_t n, CUstream_st* stream);

}  // namespace reference
