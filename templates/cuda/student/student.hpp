// The student implementation of @FORGE_OPERATOR@: the new code being judged.
// Its call boundary is the one the [student] section of window.toml describes.
// The scaffold's placeholder operator: y = 2 * x over n fp32 elements.
#pragma once

#include <cstdint>

// cudaStream_t, declared as the CUDA runtime declares it, so that host code
// including this header (the prep step) needs no CUDA headers.
struct CUstream_st;

namespace student {

// Launches on `stream`: the harness times that stream.
void @FORGE_OPERATOR@(const float* x, float* y, std::int64_t n, CUstream_st* stream);

}  // namespace student
