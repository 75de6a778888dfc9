#include "reference.hpp"

#include <cuda_runtime.h>

#include <cmath>

namespace {

constexpr int row_threads = 256;
constexpr int column_tile = 32;   // columns per dgamma/dbeta block (one warp wide)
constexpr int row_lanes = 8;      // threads per column splitting a block's rows
constexpr int rows_per_chunk = 256;

// Sums `value` over the block (row_threads threads); every thread gets the total.
__device__ float block_sum(float value, float* scratch) {
    for (int offset = 16; offset > 0; offset /= 2) value += __shfl_xor_sync(0xffffffffU, value, offset);
    const int warp = static_cast<int>(threadIdx.x) / 32;
    if (threadIdx.x % 32 == 0) scratch[warp] = value;
    __syncthreads();
    float total = 0.0F;
    for (int w = 0; w < row_threads / 32; ++w) total += scratch[w];
    __syncthreads();  // scratch is reused by the next call
    return total;
}

// One block per row: dx = rstd * (g - mean(g) - xhat * mean(g * xhat)), g = dy * gamma.
__global__ void layernorm_bwd_dx_kernel(const float* dy, const float* x, const float* gamma, const float* mean,
                                        const float* rstd, float* dx, std::int64_t n) {
    __shared__ float scratch[row_threads / 32];
    const std::int64_t row = blockIdx.x;
    const float mu = mean[row];
    const float rs = rstd[row];
    const float* dy_row = dy + row * n;
    const float* x_row = x + row * n;
    float sum_g = 0.0F;
    float sum_g_xhat = 0.0F;
    for (std::int64_t c = threadIdx.x; c < n; c += row_threads) {
        const float g = dy_row[c] * gamma[c];
        sum_g += g;
        sum_g_xhat += g * (x_row[c] - mu) * rs;
    }
    const float mean_g = block_sum(sum_g, scratch) / static_cast<float>(n);
    const float mean_g_xhat = block_sum(sum_g_xhat, scratch) / static_cast<float>(n);
    for (std::int64_t c = threadIdx.x; c < n; c += row_threads) {
        const float xhat = (x_row[c] - mu) * rs;
        dx[row * n + c] = rs * (dy_row[c] * gamma[c] - mean_g - xhat * mean_g_xhat);
    }
}

// dgamma += sum over a chunk of rows of dy * xhat, dbeta += sum of dy: a block per
// (32 columns, chunk of rows), partial sums added atomically.
__global__ void layernorm_bwd_dgamma_dbeta_kernel(const float* dy, const float* x, const float* mean,
                                                  const float* rstd, float* dgamma, float* dbeta, std::int64_t m,
                                                  std::int64_t n) {
    __shared__ float part_gamma[row_lanes][column_tile];
    __shared__ float part_beta[row_lanes][column_tile];
    const std::int64_t c = std::int64_t{blockIdx.x} * column_tile + threadIdx.x;
    const std::int64_t first = std::int64_t{blockIdx.y} * rows_per_chunk;
    const std::int64_t last = first + rows_per_chunk < m ? first + rows_per_chunk : m;
    float sum_gamma = 0.0F;
    float sum_beta = 0.0F;
    if (c < n) {
        for (std::int64_t r = first + threadIdx.y; r < last; r += row_lanes) {
            const float g = dy[r * n + c];
            sum_gamma += g * (x[r * n + c] - mean[r]) * rstd[r];
            sum_beta += g;
        }
    }
    part_gamma[threadIdx.y][threadIdx.x] = sum_gamma;
    part_beta[threadIdx.y][threadIdx.x] = sum_beta;
    __syncthreads();
    if (threadIdx.y == 0 && c < n) {
        for (int lane = 1; lane < row_lanes; ++lane) {
            sum_gamma += part_gamma[lane][threadIdx.x];
            sum_beta += part_beta[lane][threadIdx.x];
        }
        atomicAdd(dgamma + c, sum_gamma);
        atomicAdd(dbeta + c, sum_beta);
    }
}

}  // namespace

namespace reference {

void layernorm_fwd_stats_host(const float* x, float* mean, float* rstd, std::int64_t m, std::int64_t n) {
    for (std::int64_t r = 0; r < m; ++r) {
        const float* row = x + r * n;
        double sum = 0.0;
        for (std::int64_t c = 0; c < n; ++c) sum += row[c];
        const double mu = sum / static_cast<double>(n);
        double var = 0.0;
        for (std::int64_t c = 0; c < n; ++c) var += (row[c] - mu) * (row[c] - mu);
        mean[r] = static_cast<float>(mu);
        rstd[r] = static_cast<float>(1.0 / std::sqrt(var / static_cast<double>(n) + layernorm_eps));
    }
}

void layernorm_bwd(const float* dy, const float* x, const float* gamma, const float* mean, const float* rstd,
                   float* dx, float* dgamma, float* dbeta, std::int64_t m, std::int64_t n, CUstream_st* stream) {
    layernorm_bwd_dx_kernel<<<static_cast<unsigned>(m), row_threads, 0, stream>>>(dy, x, gamma, mean, rstd, dx, n);
    cudaMemsetAsync(dgamma, 0, sizeof(float) * static_cast<std::size_t>(n), stream);
    cudaMemsetAsync(dbeta, 0, sizeof(float) * static_cast<std::size_t>(n), stream);
    const dim3 grid(static_cast<unsigned>((n + column_tile - 1) / column_tile),
                    static_cast<unsigned>((m + rows_per_chunk - 1) / rows_per_chunk));
    layernorm_bwd_dgamma_dbeta_kernel<<<grid, dim3(column_tile, row_lanes), 0, stream>>>(dy, x, mean, rstd, dgamma,
                                                                                        dbeta, m, n);
}

}  // namespace reference
