#include "forge/bench/region.hpp"

#include <atomic>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <vector>

#include "regions.hpp"
#include "timer.hpp"

namespace forge::bench {

namespace {

struct Recorder {
    std::mutex mutex;
    std::vector<KernelRow> rows;
};

std::atomic<Recorder*> active_recorder{nullptr};
thread_local region* innermost = nullptr;  // the open recording region on this thread

}  // namespace

region::region(const char* name) noexcept : name_(name) {
    if (active_recorder.load(std::memory_order_relaxed) == nullptr) return;
    recording_ = true;
    parent_ = innermost;
    innermost = this;
    start_ns_ = now_ns();
}

region::~region() {
    if (!recording_) return;
    const std::int64_t elapsed = now_ns() - start_ns_;
    innermost = parent_;
    if (parent_ != nullptr) parent_->child_ns_ += elapsed;
    Recorder* recorder = active_recorder.load(std::memory_order_acquire);
    if (recorder == nullptr) return;  // the recording ended while this region was open
    const std::lock_guard lock(recorder->mutex);
    recorder->rows.push_back(KernelRow{name_, 1, static_cast<double>(elapsed - child_ns_), 0.0});
}

RegionRecording::RegionRecording() {
    auto recorder = std::make_unique<Recorder>();
    Recorder* expected = nullptr;
    if (!active_recorder.compare_exchange_strong(expected, recorder.get(), std::memory_order_acq_rel)) {
        throw std::logic_error("forge::bench: a region recording is already active");
    }
    recorder.release();  // owned by active_recorder until the destructor
}

RegionRecording::~RegionRecording() { delete active_recorder.exchange(nullptr, std::memory_order_acq_rel); }

std::vector<KernelRow> RegionRecording::rows() const {
    Recorder* recorder = active_recorder.load(std::memory_order_acquire);
    const std::lock_guard lock(recorder->mutex);
    return recorder->rows;
}

}  // namespace forge::bench
