#include "student.hpp"

#include <cuda_runtime.h>

namespace {

__global__ void student_twice(const float* x, float* y, std::int64_t n) {
    const std::int64_t i = std::int64_t{blockIdx.x} * blockDim.x + threadIdx.x;
    if (i < n) y[i] = 2.0f * x[i];
}

}  // namespace

namespace student {

void @FORGE_OPERATOR@(const float* x, float* y, std::int64_t n, CUstream_st* stream) {
    constexpr int block = 256;
    const auto grid = static_cast<unsigned>((n + block - 1) / block);
    student_twice<<<grid, block, 0, stream>>>(x, y, n);
}

}  // namespace student
