// A CUDA stream owned for its lifetime; its work finishes before it goes.
#pragma once

#include <cuda_runtime_api.h>

#include "runtime/cuda/cuda_check.hpp"

namespace forge::bench {

class CudaStream {
public:
    // cudaStreamDefault: a blocking stream (it and the legacy default stream wait
    // for each other); cudaStreamNonBlocking: one that neither waits for.
    explicit CudaStream(unsigned int flags) {
        check(cudaStreamCreateWithFlags(&stream_, flags), "cudaStreamCreateWithFlags");
    }
    ~CudaStream() {
        report_failure(cudaStreamSynchronize(stream_), "cudaStreamSynchronize (a stream's last work)");
        report_failure(cudaStreamDestroy(stream_), "cudaStreamDestroy");
    }
    CudaStream(const CudaStream&) = delete;
    CudaStream& operator=(const CudaStream&) = delete;

    [[nodiscard]] cudaStream_t get() const noexcept { return stream_; }

private:
    cudaStream_t stream_ = nullptr;
};

}  // namespace forge::bench
