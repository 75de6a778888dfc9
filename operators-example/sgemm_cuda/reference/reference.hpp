// c = a @ b, the library way: cublasSgemm. Device pointers, row-major.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

struct CUstream_st;
struct cublasContext;  // == cublasHandle_t's pointee (cublas_api.h)

namespace reference {

// What the reference's calls need and must not pay for: a cuBLAS handle bound to
// the bench's stream, in FP32 math mode (no TF32 tensor-core shortcut, so both
// sides compute in the same precision), with a workspace of its own so cuBLAS
// never allocates inside a timed call. Made by the reference's setup, destroyed
// at its teardown (the bench's Bench::setup).
class Blas {
public:
    explicit Blas(CUstream_st* stream);

    [[nodiscard]] cublasContext* handle() const noexcept { return handle_.get(); }

private:
    // Declared first, freed last: the handle is destroyed while its workspace is still there.
    std::unique_ptr<void, void (*)(void*)> workspace_;
    std::unique_ptr<cublasContext, void (*)(cublasContext*)> handle_;
};

// a [m, k], b [k, n], c [m, n]. Throws std::runtime_error when cuBLAS fails.
void sgemm(const Blas& blas, const float* a, const float* b, float* c, std::int64_t m, std::int64_t n, std::int64_t k);

}  // namespace reference
