// CUDA per-kernel tables from CUPTI activity records: kernels, memcpy and memset
// of the profiled call, names demangled, launches merged by name.
#pragma once

#include <vector>

#include "forge/table/kernel_table.hpp"

namespace forge::bench {

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
    // one row per record: name, 1 launch, duration in ns.
    [[nodiscard]] std::vector<KernelRow> finish();
};

}  // namespace forge::bench
