#include "runtime/cuda/device_availability.hpp"

#include "runtime/runtime.hpp"

namespace forge::bench {

namespace {

// What to do about an error that is not "no device".
std::string remedy(const std::string& error_name) {
    if (error_name == "cudaErrorInsufficientDriver") {
        return "the NVIDIA driver is older than this CUDA runtime: install a driver that supports it (nvidia-smi "
               "shows the newest CUDA version the driver supports), or build with a toolkit no newer than that";
    }
    if (error_name == "cudaErrorSystemDriverMismatch") {
        return "the driver's user-space library and kernel module differ in version: reboot, or reinstall the driver";
    }
    if (error_name == "cudaErrorDevicesUnavailable") {
        return "every GPU is busy or in a compute mode that refuses this process (nvidia-smi -q -d COMPUTE)";
    }
    return "check that nvidia-smi lists the GPU and that the driver loads (dmesg names the reason)";
}

}  // namespace

void require_cuda_device(const DeviceCountAnswer& answer, int device) {
    if (!answer.driver_present) {
        throw BackendUnavailable("no CUDA device to run this bench on (no NVIDIA driver: libcuda.so.1 does not load" +
                                 (answer.error == cuda_success ? std::string()
                                                               : "; CUDA says " + answer.error_name) +
                                 "): nothing was measured; run it on a machine with an NVIDIA GPU");
    }
    if (answer.error == cuda_error_no_device || (answer.error == cuda_success && answer.count == 0)) {
        throw BackendUnavailable("no CUDA device to run this bench on (" +
                                 (answer.error == cuda_success ? std::string("the driver lists none")
                                                               : answer.error_name + ": " + answer.error_text) +
                                 "): nothing was measured; run it on a machine with an NVIDIA GPU");
    }
    if (answer.error != cuda_success) {
        throw BackendBroken("CUDA cannot use this machine's GPU: cudaGetDeviceCount failed with " + answer.error_name +
                            " (" + answer.error_text + "): a failure, not a skip; " + remedy(answer.error_name));
    }
    if (device < 0 || device >= answer.count) {
        throw BackendBroken("CUDA device " + std::to_string(device) + " was asked for, but " +
                            std::to_string(answer.count) +
                            " device(s) are visible: give CTest a resource spec of this machine's GPUs "
                            "(forge resource-spec -o FILE) and check CUDA_VISIBLE_DEVICES");
    }
}

}  // namespace forge::bench
