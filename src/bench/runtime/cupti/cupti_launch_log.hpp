// The kernels a timed CUDA call launches, by name, from CUPTI's launch callbacks:
// host-side only (no device timestamps), so cheap enough inside a timed window.
#pragma once

#include <memory>
#include <string>

#include "runtime/runtime.hpp"

namespace forge::bench {

// Holds the CUPTI subscription for its lifetime. CUPTI allows one subscriber per
// process: under another CUPTI tool (ncu, nsys) there is none, and logs() says why.
class CuptiLaunchCallbacks {
public:
    CuptiLaunchCallbacks();
    ~CuptiLaunchCallbacks();
    CuptiLaunchCallbacks(const CuptiLaunchCallbacks&) = delete;
    CuptiLaunchCallbacks& operator=(const CuptiLaunchCallbacks&) = delete;

    // A log of the launches from now until it is destroyed; nullptr without a subscription.
    [[nodiscard]] std::unique_ptr<LaunchLog> log();
    [[nodiscard]] const std::string& unavailable_because() const noexcept { return unavailable_because_; }

private:
    void* subscriber_ = nullptr;  // CUpti_SubscriberHandle, kept out of this header
    std::string unavailable_because_;
};

}  // namespace forge::bench
