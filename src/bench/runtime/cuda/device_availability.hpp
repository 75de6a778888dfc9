// Whether a CUDA bench can run, decided from what cudaGetDeviceCount answered.
// Plain C++ (the error as CUDA's code and name), so the rule is tested without a
// GPU: no device is a skip; a device CUDA cannot use is a failure that says why.
#pragma once

#include <string>

namespace forge::bench {

// cudaSuccess and cudaErrorNoDevice (cuda_runtime.cpp checks them against the header).
inline constexpr int cuda_success = 0;
inline constexpr int cuda_error_no_device = 100;

struct DeviceCountAnswer {
    // Whether this machine has an NVIDIA driver at all (libcuda.so.1 loads).
    // Without one the CUDA runtime answers cudaErrorInsufficientDriver, which is
    // then no device, not an old driver.
    bool driver_present = true;
    int error = cuda_success;  // cudaError_t, as an int
    std::string error_name;    // cudaGetErrorName, e.g. "cudaErrorInsufficientDriver"
    std::string error_text;    // cudaGetErrorString
    int count = 0;
};

// What cudaGetDeviceCount answers here (CUDA builds only: cuda_runtime.cpp).
[[nodiscard]] DeviceCountAnswer ask_cuda_for_devices();

// Returns when device `device` can be used. Throws BackendUnavailable (the bench
// skips) when there is no device at all, and BackendBroken (the bench fails) for
// any other error, or for a device index beyond those visible.
void require_cuda_device(const DeviceCountAnswer& answer, int device);

}  // namespace forge::bench
