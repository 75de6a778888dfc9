// CUDA device work from CUPTI activity records: kernels (names demangled),
// memcpy and memset, with their start and end on CUPTI's clock and their stream.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <string>
#include <vector>

#include "runtime/cuda/device_profile.hpp"

namespace forge::bench {

// The readable name ncu and nsys show: "void gemm<float>(float const*, ...)";
// the name as given when it does not demangle.
[[nodiscard]] std::string demangled_kernel_name(const char* name);

// CUPTI's id of `stream`, as its activity records carry it.
[[nodiscard]] std::uint32_t cupti_stream_id(cudaStream_t stream);

// Collects activity records from construction to finish(). One at a time.
class CuptiActivityCollector {
public:
    // Throws BenchError naming CUPTI's reason when activity collection cannot start
    // (e.g. another profiler owns CUPTI).
    CuptiActivityCollector();
    ~CuptiActivityCollector();
    CuptiActivityCollector(const CuptiActivityCollector&) = delete;
    CuptiActivityCollector& operator=(const CuptiActivityCollector&) = delete;

    // Flushes CUPTI's buffers (the caller has synchronised the device) and returns
    // every record since construction. Throws BenchError when CUPTI dropped records
    // or a buffer could not be read: a table missing work would mis-price it.
    [[nodiscard]] std::vector<DeviceActivity> finish();
};

}  // namespace forge::bench
