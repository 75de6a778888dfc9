#include "runtime/cuda/nvml_clocks.hpp"

#include <dlfcn.h>

#include <cstdint>
#include <memory>
#include <utility>

namespace forge::bench {

// The few NVML entry points the readings need, by their exported names and C
// signatures (nvml.h; nvmlReturn_t is an int, NVML_SUCCESS 0, a device an
// opaque pointer). Newer drivers call the reasons "clock events"; older ones
// only export the "throttle reasons" name of the same query.
struct NvmlClocks::Api {
    using Init = int (*)();
    using Shutdown = int (*)();
    using HandleByPciBusId = int (*)(const char*, void**);
    using ClockInfo = int (*)(void*, int, unsigned*);
    using Reasons = int (*)(void*, unsigned long long*);

    static constexpr int success = 0;
    static constexpr int clock_sm = 1;      // NVML_CLOCK_SM
    static constexpr int clock_memory = 2;  // NVML_CLOCK_MEM

    explicit Api(void* loaded) : library(loaded) {}
    Api(const Api&) = delete;
    Api& operator=(const Api&) = delete;
    ~Api() {
        if (initialised) shutdown();
        dlclose(library);
    }

    void* library;
    bool initialised = false;
    Shutdown shutdown = nullptr;
    HandleByPciBusId handle_by_pci_bus_id = nullptr;
    ClockInfo clock_info = nullptr;
    Reasons reasons = nullptr;
};

namespace {

template <class Function>
Function symbol(void* library, const char* name) {
    return reinterpret_cast<Function>(dlsym(library, name));
}

}  // namespace

NvmlClocks::NvmlClocks(const std::string& pci_bus_id) {
    void* library = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (library == nullptr) {
        why_not_ = "NVML (libnvidia-ml.so.1, part of the NVIDIA driver) could not be loaded";
        return;
    }
    auto api = std::make_unique<Api>(library);
    api->shutdown = symbol<Api::Shutdown>(library, "nvmlShutdown");
    api->handle_by_pci_bus_id = symbol<Api::HandleByPciBusId>(library, "nvmlDeviceGetHandleByPciBusId_v2");
    api->clock_info = symbol<Api::ClockInfo>(library, "nvmlDeviceGetClockInfo");
    api->reasons = symbol<Api::Reasons>(library, "nvmlDeviceGetCurrentClocksEventReasons");
    if (api->reasons == nullptr) api->reasons = symbol<Api::Reasons>(library, "nvmlDeviceGetCurrentClocksThrottleReasons");
    const auto init = symbol<Api::Init>(library, "nvmlInit_v2");
    if (init == nullptr || api->shutdown == nullptr || api->handle_by_pci_bus_id == nullptr ||
        api->clock_info == nullptr || api->reasons == nullptr) {
        why_not_ = "this NVML lacks the clock queries (nvmlDeviceGetClockInfo, clock event reasons)";
        return;
    }
    if (const int status = init(); status != Api::success) {
        why_not_ = "NVML did not initialise (nvmlInit_v2: NVML error " + std::to_string(status) + ")";
        return;
    }
    api->initialised = true;
    if (const int status = api->handle_by_pci_bus_id(pci_bus_id.c_str(), &device_); status != Api::success) {
        why_not_ = "NVML does not know the GPU at PCI bus " + pci_bus_id + " (NVML error " + std::to_string(status) +
                   ")";
        return;
    }
    api_ = std::move(api);
}

NvmlClocks::~NvmlClocks() = default;

std::optional<ClockReading> NvmlClocks::read() const {
    if (api_ == nullptr) return std::nullopt;
    ClockReading reading;
    unsigned long long reasons = 0;
    if (api_->clock_info(device_, Api::clock_sm, &reading.sm_mhz) != Api::success ||
        api_->clock_info(device_, Api::clock_memory, &reading.memory_mhz) != Api::success ||
        api_->reasons(device_, &reasons) != Api::success) {
        return std::nullopt;
    }
    reading.reasons = reasons;
    return reading;
}

}  // namespace forge::bench
