#include "forge/bench/region.hpp"

#include <array>
#include <atomic>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <vector>

#include "preemption.hpp"
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

region::counters& region::counters::operator+=(const counters& other) noexcept {
    ns += other.ns;
    run_queue_ns += other.run_queue_ns;
    others_cpu_ns += other.others_cpu_ns;
    known = known && other.known;
    return *this;
}

region::counters region::counters::operator-(const counters& earlier) const noexcept {
    return {ns - earlier.ns, run_queue_ns - earlier.run_queue_ns, others_cpu_ns - earlier.others_cpu_ns,
            known && earlier.known};
}

// The thread's scheduling counters now; `ns` is the caller's to take, so that
// the reading's own time lies outside the region's.
region::counters region::read_counters() noexcept {
    thread_local const SchedulerWatch watch;  // this thread's schedstat, kept open
    const SchedulerReading reading = watch.read();
    counters at;
    at.run_queue_ns = reading.run_queue_ns;
    at.others_cpu_ns = reading.process_cpu_ns - reading.thread_cpu_ns;
    at.known = reading.run_queue_ns >= 0 && reading.process_cpu_ns >= 0 && reading.thread_cpu_ns >= 0;
    return at;
}

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
    const std::int64_t entry_ns = now_ns();
    entry_ = read_counters();
    entry_.ns = entry_ns;
    start_ns_ = now_ns();
}

region::~region() {
    if (!recording_) return;
    const std::int64_t elapsed = now_ns() - start_ns_;
    counters exit = read_counters();
    exit.ns = now_ns();
    innermost = parent_;
    // From entry to exit, the readings included: the parent's own time and wait leave all of it out.
    const counters bracket = exit - entry_;
    if (parent_ != nullptr) parent_->children_ += bracket;
    const counters own = bracket - children_;
    const double own_ms = static_cast<double>(elapsed - children_.ns) * 1e-6;
    const double foreign_ms =
        own.known ? foreign_wait_in_call_ms(static_cast<double>(own.run_queue_ns) * 1e-6,
                                            static_cast<double>(own.ns) * 1e-6, own_ms,
                                            static_cast<double>(own.others_cpu_ns) * 1e-6)
                  : 0.0;
    Recorder* recorder = active_recorder.load(std::memory_order_acquire);
    if (recorder == nullptr) return;  // the recording ended while this region was open
    const std::lock_guard lock(recorder->mutex);
    recorder->rows.push_back(KernelRow{name_, 1, (own_ms - foreign_ms) * 1e6, 0.0});
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
