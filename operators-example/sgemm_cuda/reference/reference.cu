#include "reference.hpp"

#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

namespace {

void check(cublasStatus_t status, const char* what) {
    if (status != CUBLAS_STATUS_SUCCESS) {
        throw std::runtime_error(std::string("sgemm_cuda reference: ") + what + ": " + cublasGetStatusString(status));
    }
}

void check(cudaError_t status, const char* what) {
    if (status != cudaSuccess) {
        throw std::runtime_error(std::string("sgemm_cuda reference: ") + what + ": " + cudaGetErrorString(status));
    }
}

// cuBLAS's recommended workspace on Hopper (cuBLAS docs, cublasSetWorkspace);
// more than enough for earlier architectures.
constexpr std::size_t workspace_bytes = std::size_t{32} << 20;

void destroy_handle(cublasContext* handle) { cublasDestroy(handle); }
void free_workspace(void* workspace) { cudaFree(workspace); }

}  // namespace

namespace reference {

Blas::Blas(CUstream_st* stream) : workspace_(nullptr, &free_workspace), handle_(nullptr, &destroy_handle) {
    void* workspace = nullptr;
    check(cudaMalloc(&workspace, workspace_bytes), "cudaMalloc (workspace)");
    workspace_.reset(workspace);
    cublasHandle_t created = nullptr;
    check(cublasCreate(&created), "cublasCreate");
    handle_.reset(created);
    // The stream first: cublasSetStream puts the handle back on cuBLAS's own
    // workspace pool (cuBLAS docs, cublasSetStream), undoing an earlier
    // cublasSetWorkspace.
    check(cublasSetStream(created, stream), "cublasSetStream");
    check(cublasSetWorkspace(created, workspace, workspace_bytes), "cublasSetWorkspace");
    check(cublasSetMathMode(created, CUBLAS_DEFAULT_MATH), "cublasSetMathMode");
}

void sgemm(const Blas& blas, const float* a, const float* b, float* c, std::int64_t m, std::int64_t n, std::int64_t k) {
    // Row-major c = a @ b is column-major c^T = b^T @ a^T: swap the operands.
    const float one = 1.0F;
    const float zero = 0.0F;
    check(cublasSgemm(blas.handle(), CUBLAS_OP_N, CUBLAS_OP_N, static_cast<int>(n), static_cast<int>(m),
                      static_cast<int>(k), &one, b, static_cast<int>(n), a, static_cast<int>(k), &zero, c,
                      static_cast<int>(n)),
          "cublasSgemm");
}

}  // namespace reference
