// sgemm_cuda's two sides behind a C interface, for timing them from another
// harness (tools/gpu-peers loads this library with ctypes). Device pointers,
// row-major, as the card's bench passes them.
#include <cstdint>
#include <memory>

#include "sgemm_cuda/reference/reference.hpp"
#include "sgemm_cuda/student/student.hpp"

extern "C" {

// The reference's cuBLAS handle is made once per stream, outside the calls timed,
// as the card's setup makes it once per workload.
int sgemm_cuda_reference(const float* a, const float* b, float* c, std::int64_t m, std::int64_t n, std::int64_t k,
                         CUstream_st* stream) {
    static CUstream_st* bound = nullptr;
    static std::unique_ptr<reference::Blas> blas;
    try {
        if (!blas || bound != stream) {
            blas = std::make_unique<reference::Blas>(stream);
            bound = stream;
        }
        reference::sgemm(*blas, a, b, c, m, n, k);
        return 0;
    } catch (...) {
        return 1;
    }
}

int sgemm_cuda_student(const float* a, const float* b, float* c, std::int64_t m, std::int64_t n, std::int64_t k,
                       CUstream_st* stream) {
    try {
        student::sgemm(a, b, c, m, n, k, stream);
        return 0;
    } catch (...) {
        return 1;
    }
}

}  // extern "C"
