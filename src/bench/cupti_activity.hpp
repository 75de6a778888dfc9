// CUDA device work from CUPTI activity records: kernels (names demangled),
// memcpy and memset, with their start and end on CUPTI's clock.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace forge::bench {

struct DeviceActivity {
    enum class Kind { kernel, memcpy, memset };

    Kind kind = Kind::kernel;
    std::string name;          // the kernel's demangled name, or nsys's name for a copy or a set
    std::uint64_t start_ns = 0;
    std::uint64_t end_ns = 0;
    std::uint64_t bytes = 0;   // memcpy, memset
    std::uint32_t value = 0;   // memset: the byte value set

    [[nodiscard]] double duration_ns() const noexcept {
        return end_ns > start_ns ? static_cast<double>(end_ns - start_ns) : 0.0;
    }
};

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
