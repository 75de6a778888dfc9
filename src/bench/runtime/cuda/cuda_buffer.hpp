// Device memory owned for its lifetime (the harness's own buffers: the L2 flush,
// the window markers; tensors are guarded and owned by Tensor).
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>

#include "runtime/cuda/cuda_check.hpp"

namespace forge::bench {

class CudaBuffer {
public:
    explicit CudaBuffer(std::size_t bytes) : bytes_(bytes) { check(cudaMalloc(&data_, bytes_), "cudaMalloc"); }
    ~CudaBuffer() { report_failure(cudaFree(data_), "cudaFree"); }
    CudaBuffer(const CudaBuffer&) = delete;
    CudaBuffer& operator=(const CudaBuffer&) = delete;

    [[nodiscard]] void* get() const noexcept { return data_; }
    [[nodiscard]] std::size_t bytes() const noexcept { return bytes_; }

private:
    std::size_t bytes_;
    void* data_ = nullptr;
};

}  // namespace forge::bench
