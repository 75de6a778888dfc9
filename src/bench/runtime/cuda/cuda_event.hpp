// A CUDA event owned for its lifetime (NVBench's cuda_timer holds its two the same way).
#pragma once

#include <cuda_runtime_api.h>

#include "runtime/cuda/cuda_check.hpp"

namespace forge::bench {

class CudaEvent {
public:
    // cudaEventDefault times; cudaEventDisableTiming only orders streams, more cheaply.
    explicit CudaEvent(unsigned int flags = cudaEventDefault) {
        check(cudaEventCreateWithFlags(&event_, flags), "cudaEventCreateWithFlags");
    }
    ~CudaEvent() { report_failure(cudaEventDestroy(event_), "cudaEventDestroy"); }
    CudaEvent(const CudaEvent&) = delete;
    CudaEvent& operator=(const CudaEvent&) = delete;

    void record(cudaStream_t stream) { check(cudaEventRecord(event_, stream), "cudaEventRecord"); }
    // `stream`'s later work waits for this event's work.
    void make_wait(cudaStream_t stream) const {
        check(cudaStreamWaitEvent(stream, event_, 0), "cudaStreamWaitEvent");
    }
    [[nodiscard]] cudaEvent_t get() const noexcept { return event_; }

private:
    cudaEvent_t event_ = nullptr;
};

// Milliseconds from `start` to `stop`, both recorded and complete.
[[nodiscard]] inline float elapsed_ms(const CudaEvent& start, const CudaEvent& stop) {
    float ms = 0.0F;
    check(cudaEventElapsedTime(&ms, start.get(), stop.get()), "cudaEventElapsedTime");
    return ms;
}

}  // namespace forge::bench
