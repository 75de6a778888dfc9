// gemm_bias_gelu_cuda's two sides behind a C interface, for timing them from
// another harness (tools/gpu-peers loads this library with ctypes). Device
// pointers, row-major, as the card's bench passes them.
#include <cstdint>
#include <optional>

#include "gemm_bias_gelu_cuda/reference/reference.hpp"
#include "gemm_bias_gelu_cuda/student/student.hpp"

extern "C" {

// The reference's cuBLAS handle is made once per stream, outside the calls timed,
// as the card's setup makes it once per workload.
int gemm_bias_gelu_cuda_reference(const float* a, const float* b, const float* bias, float* y, std::int64_t m,
                                  std::int64_t n, std::int64_t k, CUstream_st* stream) {
    static CUstream_st* bound = nullptr;
    static std::optional<reference::Blas> blas;
    try {
        if (!blas || bound != stream) {
            blas.emplace(reference::make_blas(stream));
            bound = stream;
        }
        reference::gemm_bias_gelu(blas->get(), a, b, bias, y, m, n, k, stream);
        return 0;
    } catch (...) {
        return 1;
    }
}

int gemm_bias_gelu_cuda_student(const float* a, const float* b, const float* bias, float* y, std::int64_t m,
                                std::int64_t n, std::int64_t k, CUstream_st* stream) {
    try {
        student::gemm_bias_gelu(a, b, bias, y, m, n, k, stream);
        return 0;
    } catch (...) {
        return 1;
    }
}

}  // extern "C"
