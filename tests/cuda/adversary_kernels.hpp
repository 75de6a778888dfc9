// The kernels of the CUDA adversary test's students: c = a + b on n floats, and
// the tricks played around it. Device pointers; each function launches one kernel
// on `stream` and throws std::runtime_error naming the kernel when the launch fails.
// Plain C++ so the Boost.Test file stays out of nvcc.
#pragma once

#include <cstdint>

#include <cuda_runtime_api.h>

namespace adversary {

// c = a + b (add_kernel): the reference, and what an honest student launches.
void add(const float* a, const float* b, float* c, std::int64_t n, cudaStream_t stream);

// c = a + b only where c still holds NaN (the harness's poison before a correctness
// call): otherwise c keeps what an earlier call left there.
void add_where_unwritten(const float* a, const float* b, float* c, std::int64_t n, cudaStream_t stream);

// c = a + b again, by other_path_kernel: the extra kernel of a path taken only sometimes.
void add_other_path(const float* a, const float* b, float* c, std::int64_t n, cudaStream_t stream);

// Busy-waits `ms` milliseconds of the device's peak clock (so at least `ms` of wall
// time), then c = a + b (late_add_kernel).
void late_add(const float* a, const float* b, float* c, std::int64_t n, double ms, cudaStream_t stream);

// base[index] = value, by one thread: a write where the call has no business writing.
void store(float* base, std::int64_t index, float value, cudaStream_t stream);

// base[index] += 1, by one thread: a change to a tensor the call may only read.
void increment(float* base, std::int64_t index, cudaStream_t stream);

}  // namespace adversary
