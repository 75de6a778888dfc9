#include "adversary_kernels.hpp"

#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

namespace adversary {

namespace {

constexpr int threads = 256;

unsigned int blocks_for(std::int64_t n) { return static_cast<unsigned int>((n + threads - 1) / threads); }

void check(cudaError_t error, const std::string& what) {
    if (error != cudaSuccess) throw std::runtime_error(what + ": " + cudaGetErrorString(error));
}

void check_launch(const char* kernel) { check(cudaGetLastError(), std::string("launching ") + kernel); }

__device__ std::int64_t element() { return std::int64_t{blockIdx.x} * blockDim.x + threadIdx.x; }

__global__ void add_kernel(const float* a, const float* b, float* c, std::int64_t n) {
    const std::int64_t i = element();
    if (i < n) c[i] = a[i] + b[i];
}

__global__ void add_where_unwritten_kernel(const float* a, const float* b, float* c, std::int64_t n) {
    const std::int64_t i = element();
    if (i < n && isnan(c[i])) c[i] = a[i] + b[i];
}

__global__ void other_path_kernel(const float* a, const float* b, float* c, std::int64_t n) {
    const std::int64_t i = element();
    if (i < n) c[i] = b[i] + a[i];
}

__global__ void late_add_kernel(const float* a, const float* b, float* c, std::int64_t n, long long spin_cycles) {
    const long long start = clock64();
    while (clock64() - start < spin_cycles) {
    }
    const std::int64_t i = element();
    if (i < n) c[i] = a[i] + b[i];
}

__global__ void store_kernel(float* base, std::int64_t index, float value) { base[index] = value; }

__global__ void increment_kernel(float* base, std::int64_t index) { base[index] += 1.0F; }

// Cycles of the current device's peak clock in `ms` milliseconds: the SM clock
// never runs faster, so the spin lasts at least that long.
long long cycles_in(double ms) {
    int device = 0;
    check(cudaGetDevice(&device), "cudaGetDevice");
    int clock_khz = 0;
    check(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, device), "cudaDeviceGetAttribute(clock rate)");
    return static_cast<long long>(clock_khz * ms);
}

}  // namespace

void add(const float* a, const float* b, float* c, std::int64_t n, cudaStream_t stream) {
    add_kernel<<<blocks_for(n), threads, 0, stream>>>(a, b, c, n);
    check_launch("add_kernel");
}

void add_where_unwritten(const float* a, const float* b, float* c, std::int64_t n, cudaStream_t stream) {
    add_where_unwritten_kernel<<<blocks_for(n), threads, 0, stream>>>(a, b, c, n);
    check_launch("add_where_unwritten_kernel");
}

void add_other_path(const float* a, const float* b, float* c, std::int64_t n, cudaStream_t stream) {
    other_path_kernel<<<blocks_for(n), threads, 0, stream>>>(a, b, c, n);
    check_launch("other_path_kernel");
}

void late_add(const float* a, const float* b, float* c, std::int64_t n, double ms, cudaStream_t stream) {
    late_add_kernel<<<blocks_for(n), threads, 0, stream>>>(a, b, c, n, cycles_in(ms));
    check_launch("late_add_kernel");
}

void store(float* base, std::int64_t index, float value, cudaStream_t stream) {
    store_kernel<<<1, 1, 0, stream>>>(base, index, value);
    check_launch("store_kernel");
}

void increment(float* base, std::int64_t index, cudaStream_t stream) {
    increment_kernel<<<1, 1, 0, stream>>>(base, index);
    check_launch("increment_kernel");
}

}  // namespace adversary
