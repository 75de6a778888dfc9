// The GPU's clocks and clock event reasons, read through NVML. NVML comes with
// the driver (libnvidia-ml.so.1), not the toolkit, so it is loaded when the
// bench starts, not linked: a bench runs, without readings, where it is absent.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "runtime/device_clocks.hpp"

namespace forge::bench {

class NvmlClocks {
public:
    // For the GPU on this PCI bus (cudaDeviceGetPCIBusId's form).
    explicit NvmlClocks(const std::string& pci_bus_id);
    ~NvmlClocks();
    NvmlClocks(const NvmlClocks&) = delete;
    NvmlClocks& operator=(const NvmlClocks&) = delete;

    // The clocks now; nullopt when NVML is not there or a query failed.
    [[nodiscard]] std::optional<ClockReading> read() const;
    // Why there are no readings (empty when there are): for eval.json's device facts.
    [[nodiscard]] const std::string& why_not() const noexcept { return why_not_; }

private:
    struct Api;
    std::unique_ptr<Api> api_;  // loaded and initialised, or null
    void* device_ = nullptr;
    std::string why_not_;
};

}  // namespace forge::bench
