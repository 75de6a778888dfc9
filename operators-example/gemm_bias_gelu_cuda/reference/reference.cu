#include "reference.hpp"

#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

namespace {

void check(cublasStatus_t status, const char* what) {
    if (status != CUBLAS_STATUS_SUCCESS) {
        throw std::runtime_error(std::string("gemm_bias_gelu_cuda reference: ") + what + ": " +
                                 cublasGetStatusString(status));
    }
}

__device__ float gelu(float v) { return 0.5F * v * (1.0F + erff(v * 0.70710678118654752F)); }

// In place: y[r, c] = gelu(y[r, c] + bias[c]).
__global__ void bias_gelu_kernel(float* y, const float* bias, std::int64_t total, std::int64_t n) {
    for (std::int64_t i = std::int64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < total;
         i += std::int64_t{gridDim.x} * blockDim.x) {
        y[i] = gelu(y[i] + bias[i % n]);
    }
}

}  // namespace

namespace reference {

Blas make_blas(CUstream_st* stream) {
    cublasHandle_t created = nullptr;
    check(cublasCreate(&created), "cublasCreate");
    Blas blas(created, [](cublasContext* handle) { cublasDestroy(handle); });
    check(cublasSetMathMode(blas.get(), CUBLAS_DEFAULT_MATH), "cublasSetMathMode");
    check(cublasSetStream(blas.get(), stream), "cublasSetStream");
    return blas;
}

void gemm_bias_gelu(cublasContext* blas, const float* a, const float* b, const float* bias, float* y,
                    std::int64_t m, std::int64_t n, std::int64_t k, CUstream_st* stream) {
    // Row-major y = a @ b is column-major y^T = b^T @ a^T: swap the operands.
    const float one = 1.0F;
    const float zero = 0.0F;
    check(cublasSgemm(blas, CUBLAS_OP_N, CUBLAS_OP_N, static_cast<int>(n), static_cast<int>(m), static_cast<int>(k),
                      &one, b, static_cast<int>(n), a, static_cast<int>(k), &zero, y, static_cast<int>(n)),
          "cublasSgemm");
    const std::int64_t total = m * n;
    constexpr int threads = 256;
    const auto blocks = static_cast<unsigned>((total + threads - 1) / threads < 65535 ? (total + threads - 1) / threads
                                                                                       : 65535);
    bias_gelu_kernel<<<blocks, threads, 0, stream>>>(y, bias, total, n);
}

}  // namespace reference
