#define BOOST_TEST_MODULE bench_device_availability
#include <boost/test/unit_test.hpp>

#include <string>

#include "runtime/cuda/device_availability.hpp"
#include "runtime/runtime.hpp"

// Whether a CUDA bench skips or fails, from what cudaGetDeviceCount answered:
// only "no device" is a skip; a GPU that CUDA cannot use must fail, naming why.
namespace fb = forge::bench;

namespace {

fb::DeviceCountAnswer failed(int code, std::string name, std::string text) {
    return {true, code, std::move(name), std::move(text), 0};
}

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

BOOST_AUTO_TEST_CASE(no_device_error_is_a_skip) {
    BOOST_CHECK_EXCEPTION(
        fb::require_cuda_device(failed(fb::cuda_error_no_device, "cudaErrorNoDevice", "no CUDA-capable device is detected"), 0),
        fb::BackendUnavailable, [](const fb::BackendUnavailable& e) {
            return has(e.what(), "no CUDA device") && has(e.what(), "cudaErrorNoDevice") && has(e.what(), "nothing was measured");
        });
}

BOOST_AUTO_TEST_CASE(no_nvidia_driver_is_a_skip_though_cuda_calls_it_insufficient) {
    // Without libcuda.so.1 the runtime answers cudaErrorInsufficientDriver: no GPU here, not an old driver.
    fb::DeviceCountAnswer answer = failed(35, "cudaErrorInsufficientDriver", "CUDA driver version is insufficient");
    answer.driver_present = false;
    BOOST_CHECK_EXCEPTION(fb::require_cuda_device(answer, 0), fb::BackendUnavailable,
                          [](const fb::BackendUnavailable& e) {
                              return has(e.what(), "no NVIDIA driver") && has(e.what(), "libcuda.so.1");
                          });
}

BOOST_AUTO_TEST_CASE(a_driver_that_lists_no_device_is_a_skip) {
    BOOST_CHECK_THROW(fb::require_cuda_device({true, fb::cuda_success, "", "", 0}, 0), fb::BackendUnavailable);
}

BOOST_AUTO_TEST_CASE(an_insufficient_driver_is_a_failure_naming_the_error_and_the_fix) {
    // cudaErrorInsufficientDriver is 35: a GPU whose driver is older than the runtime.
    BOOST_CHECK_EXCEPTION(
        fb::require_cuda_device(
            failed(35, "cudaErrorInsufficientDriver", "CUDA driver version is insufficient for CUDA runtime version"), 0),
        fb::BackendBroken, [](const fb::BackendBroken& e) {
            return has(e.what(), "cudaErrorInsufficientDriver") && has(e.what(), "not a skip") &&
                   has(e.what(), "install a driver");
        });
}

BOOST_AUTO_TEST_CASE(a_broken_machine_is_never_taken_for_no_device) {
    // BackendBroken is not a BackendUnavailable, so the harness cannot turn it into a skip.
    static_assert(!std::is_base_of_v<fb::BackendUnavailable, fb::BackendBroken>);
    BOOST_CHECK_THROW(fb::require_cuda_device(failed(803, "cudaErrorSystemDriverMismatch", "mismatch"), 0),
                      fb::BackendBroken);
    BOOST_CHECK_EXCEPTION(fb::require_cuda_device(failed(999, "cudaErrorUnknown", "unknown error"), 0),
                          fb::BackendBroken,
                          [](const fb::BackendBroken& e) { return has(e.what(), "nvidia-smi"); });
}

BOOST_AUTO_TEST_CASE(a_device_index_beyond_those_visible_is_a_failure) {
    BOOST_CHECK_EXCEPTION(fb::require_cuda_device({true, fb::cuda_success, "", "", 2}, 3), fb::BackendBroken,
                          [](const fb::BackendBroken& e) {
                              return has(e.what(), "device 3") && has(e.what(), "2 device(s)") &&
                                     has(e.what(), "resource spec");
                          });
}

BOOST_AUTO_TEST_CASE(a_visible_device_is_used) {
    BOOST_CHECK_NO_THROW(fb::require_cuda_device({true, fb::cuda_success, "", "", 2}, 1));
}
