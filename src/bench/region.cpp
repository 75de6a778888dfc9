#include "forge/bench/region.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <vector>

#include "runtime/preemption.hpp"
#include "runtime/regions.hpp"
#include "runtime/timer.hpp"

namespace forge::bench {

namespace {

constexpr std::size_t max_logged_names = 64;

struct Recorder;
std::atomic<Recorder*> active_recorder{nullptr};
thread_local region* innermost = nullptr;  // the open recording region on this thread

struct Recorder {
    std::mutex mutex;
    std::vector<KernelRow> rows;
    // The regions' own readings on the recording thread, which no row holds:
    // the call's (unmarked) row leaves them out.
    std::thread::id recording_thread = std::this_thread::get_id();
    std::atomic<std::int64_t> readings_ns{0};
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
    other_threads_cpu_ns += other.other_threads_cpu_ns;
    known = known && other.known;
    return *this;
}

region::counters region::counters::operator-(const counters& earlier) const noexcept {
    return {ns - earlier.ns, run_queue_ns - earlier.run_queue_ns, other_threads_cpu_ns - earlier.other_threads_cpu_ns,
            known && earlier.known};
}

// The thread's run-queue wait and the process's other threads' CPU time now;
// `ns` is the caller's to take, so that the reading's own time lies outside the region's.
region::counters region::read_counters() noexcept {
    thread_local const SchedulerWatch watch;  // this thread's schedstat, kept open
    const std::int64_t waited = watch.run_queue_ns();
    const std::int64_t others = other_threads_cpu_ns();
    return {0, waited, others, waited >= 0 && others >= 0};
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
    const counters span = exit - entry_;  // entry reading to exit reading
    const counters own = span - children_;
    const double own_ms = static_cast<double>(elapsed - children_.ns) * 1e-6;
    const double span_ms = static_cast<double>(own.ns) * 1e-6;  // entry to exit reading, less nested brackets
    const double outside_ms = std::max(0.0, span_ms - own_ms);     // the readings' part of it
    const double wait_ms = own.known ? static_cast<double>(own.run_queue_ns) * 1e-6 : 0.0;
    // Less what the side's own threads may have taken of this CPU (an OpenMP
    // team's workers): that wait is the side's work, as the call's is.
    const double others_ms = own.known ? static_cast<double>(own.other_threads_cpu_ns) * 1e-6 : 0.0;
    const double foreign_ms = foreign_wait_in_call_ms(wait_ms, span_ms, own_ms, others_ms);
    Recorder* recorder = active_recorder.load(std::memory_order_acquire);
    if (recorder != nullptr) {  // null: the recording ended while this region was open
        const std::lock_guard lock(recorder->mutex);
        recorder->rows.push_back(KernelRow{name_, 1, (own_ms - foreign_ms) * 1e6, 0.0});
    }
    // From entry to here, the readings and the row's recording included: the
    // parent's own time and wait leave all of it out, and (unmarked) all but
    // the region's own time. (A preemption in the few us after the exit reading
    // lands in this bracket's time but not its wait; rare, and the profile's
    // median over calls outvotes the call it lands in.)
    counters bracket = span;
    bracket.ns = now_ns() - entry_.ns;
    if (parent_ != nullptr) parent_->children_ += bracket;
    if (recorder != nullptr && std::this_thread::get_id() == recorder->recording_thread) {
        // Less the wait that landed in the readings: the call's wait holds it.
        const double readings_ms = static_cast<double>(bracket.ns - elapsed) * 1e-6 - std::min(wait_ms, outside_ms);
        recorder->readings_ns.fetch_add(static_cast<std::int64_t>(std::max(0.0, readings_ms) * 1e6),
                                        std::memory_order_relaxed);
    }
}

RegionRecording::RegionRecording() { activate(std::make_unique<Recorder>()); }

RegionRecording::~RegionRecording() { delete active_recorder.exchange(nullptr, std::memory_order_acq_rel); }

std::vector<KernelRow> RegionRecording::rows() const {
    Recorder* recorder = active_recorder.load(std::memory_order_acquire);
    const std::lock_guard lock(recorder->mutex);
    return recorder->rows;
}

double RegionRecording::readings_ns() const {
    const Recorder* recorder = active_recorder.load(std::memory_order_acquire);
    return static_cast<double>(recorder->readings_ns.load(std::memory_order_relaxed));
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
