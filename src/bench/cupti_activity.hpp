// CUDA device work from CUPTI activity records: kernels (names demangled),
// memcpy and memset, with their start and end on CUPTI's clock.
#pragma once

#include <cupti.h>

#include <string>
#include <vector>

#include "device_profile.hpp"

namespace forge::bench {

// CUPTI's own words for a result code.
[[nodiscard]] std::string cupti_result_text(CUptiResult result);

// The readable name ncu and nsys show: "void gemm<float>(float const*, ...)";
// the name as given when it does not demangle.
[[nodiscard]] std::string demangled_kernel_name(const char* name);

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
    // every record since construction.
    [[nodiscard]] std::vector<DeviceActivity> finish();
};

}  // namespace forge::bench
