// The kernels of the CUDA timing-floor test: one that does next to nothing, and
// one that spins for a given time. Each launches one kernel on `stream` and throws
// std::runtime_error naming it when the launch fails. Plain C++ so the
// Boost.Test file stays out of nvcc.
#pragma once

#include <cuda_runtime_api.h>

namespace floor_kernels {

// c[0] = a[0] + b[0] by one thread (single_thread_kernel): a call that does no
// work but the one write the output check needs, so what a call costs the
// harness's clock when it does nothing.
void single_thread(const float* a, const float* b, float* c, cudaStream_t stream);

// One thread that spins `us` microseconds of the device's peak clock, so at least
// that long, then writes c[0] = a[0] + b[0] (spin_kernel): a call whose length
// CUPTI and the harness both read.
void spin(double us, const float* a, const float* b, float* c, cudaStream_t stream);

}  // namespace floor_kernels
