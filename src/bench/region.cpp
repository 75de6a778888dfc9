#include "forge/bench/region.hpp"

#include <array>
#include <atomic>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <vector>

#include "regions.hpp"
#include "timer.hpp"

namespace forge::bench {

namespace {

constexpr std::size_t max_logged_names = 64;

struct Recorder;
std::atomic<Recorder*> active_recorder{nullptr};
thread_local region* innermost = nullptr;  // the open recording region on this thread

struct Recorder {
    std::mutex mutex;
    std::vector<KernelRow> rows;
    // A name log (RegionNameLog) notes names only, lock-free: it runs inside timed calls.
    bool names_only = false;
    std::array<std::atomic<const char*>, max_logged_names> names{};
    std::atomic<bool> overflowed{false};

    void note(const char* name) noexcept {
        for (std::atomic<const char*>& slot : names) {
            const char* held = slot.load(std::memory_order_relaxed);
            if (held == nullptr && slot.compare_exchange_strong(held, name, std::memory_order_relaxed)) return;
            if (held == name) return;
        }
        overflowed.store(true, std::memory_order_relaxed);
    }
};

void activate(std::unique_ptr<Recorder> recorder) {
    Recorder* expected = nullptr;
    if (!active_recorder.compare_exchange_strong(expected, recorder.get(), std::memory_order_acq_rel)) {
        throw std::logic_error("forge::bench: a region recording is already active");
    }
    recorder.release();  // owned by active_recorder until deactivated
}

}  // namespace

region::region(const char* name) noexcept : name_(name) {
    if (active_recorder.load(std::memory_order_relaxed) == nullptr) return;
    Recorder* recorder = active_recorder.load(std::memory_order_acquire);
    if (recorder == nullptr) return;
    if (recorder->names_only) {
        recorder->note(name);
        return;
    }
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

RegionRecording::RegionRecording() { activate(std::make_unique<Recorder>()); }

RegionRecording::~RegionRecording() { delete active_recorder.exchange(nullptr, std::memory_order_acq_rel); }

std::vector<KernelRow> RegionRecording::rows() const {
    Recorder* recorder = active_recorder.load(std::memory_order_acquire);
    const std::lock_guard lock(recorder->mutex);
    return recorder->rows;
}

RegionNameLog::RegionNameLog() {
    auto recorder = std::make_unique<Recorder>();
    recorder->names_only = true;
    activate(std::move(recorder));
}

RegionNameLog::~RegionNameLog() { delete active_recorder.exchange(nullptr, std::memory_order_acq_rel); }

KernelNames RegionNameLog::names() const {
    const Recorder* recorder = active_recorder.load(std::memory_order_acquire);
    KernelNames result;
    for (const std::atomic<const char*>& slot : recorder->names) {
        if (const char* name = slot.load(std::memory_order_relaxed)) result.names.insert(name);
    }
    result.complete = !recorder->overflowed.load(std::memory_order_relaxed);
    return result;
}

}  // namespace forge::bench
