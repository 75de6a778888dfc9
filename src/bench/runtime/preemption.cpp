#include "runtime/preemption.hpp"

#include <time.h>

#include <algorithm>
#include <cstdlib>

#include "runtime/kernel_calls.hpp"
#include "runtime/timer.hpp"

namespace forge::bench {

namespace {

// The process's and the calling thread's CPU clocks, into a reading's two
// fields (-1 where one cannot be read, as SchedulerReading marks a field it lacks).
void read_cpu_clocks(SchedulerReading& reading) noexcept {
    reading.process_cpu_ns = kernel::clock_ns(CLOCK_PROCESS_CPUTIME_ID);
    reading.thread_cpu_ns = kernel::clock_ns(CLOCK_THREAD_CPUTIME_ID);
}

// The CPU time of all the process's threads but this one at `reading`; -1: unknown.
std::int64_t other_threads_ns(const SchedulerReading& reading) noexcept {
    if (reading.process_cpu_ns < 0 || reading.thread_cpu_ns < 0) return -1;
    return std::max<std::int64_t>(reading.process_cpu_ns - reading.thread_cpu_ns, 0);
}

}  // namespace

std::optional<double> run_queue_wait_ms(const SchedulerReading& before, const SchedulerReading& after) noexcept {
    if (before.run_queue_ns < 0 || after.run_queue_ns < 0) return std::nullopt;
    return static_cast<double>(after.run_queue_ns - before.run_queue_ns) * 1e-6;
}

std::optional<double> other_threads_cpu_ms(const SchedulerReading& before, const SchedulerReading& after) noexcept {
    const std::int64_t before_ns = other_threads_ns(before);
    const std::int64_t after_ns = other_threads_ns(after);
    if (before_ns < 0 || after_ns < 0) return std::nullopt;
    return static_cast<double>(std::max<std::int64_t>(after_ns - before_ns, 0)) * 1e-6;
}

double foreign_wait_in_call_ms(double wait_ms, double bracket_ms, double call_ms, double other_threads_ms) noexcept {
    const double outside_ms = std::max(0.0, bracket_ms - call_ms);
    return std::clamp(wait_ms - outside_ms - std::max(0.0, other_threads_ms), 0.0, std::max(0.0, call_ms));
}

std::optional<double> foreign_wait_ms(const SchedulerReading& before, const SchedulerReading& after,
                                      double bracket_ms, double call_ms) noexcept {
    const std::optional<double> waited_ms = run_queue_wait_ms(before, after);
    const std::optional<double> other_threads_ms = other_threads_cpu_ms(before, after);
    if (!waited_ms || !other_threads_ms) return std::nullopt;
    return foreign_wait_in_call_ms(*waited_ms, bracket_ms, call_ms, *other_threads_ms);
}

bool preempted(const SchedulerReading& before, const SchedulerReading& after, double call_ms,
               double tolerated_fraction) noexcept {
    if (const std::optional<double> waited_ms = run_queue_wait_ms(before, after)) {
        return *waited_ms > tolerated_fraction * call_ms;
    }
    return before.involuntary_switches >= 0 && after.involuntary_switches != before.involuntary_switches;
}

bool WatchedReading::preempted() const noexcept { return bench::preempted(before, after, ms); }

std::optional<double> WatchedReading::foreign_wait_ms() const noexcept {
    return bench::foreign_wait_ms(before, after, bracket_ms, ms);
}

std::int64_t other_threads_cpu_ns() noexcept {
    SchedulerReading clocks;
    read_cpu_clocks(clocks);
    return other_threads_ns(clocks);
}

SchedulerWatch::SchedulerWatch() : schedstat_(kernel::open_to_read("/proc/thread-self/schedstat")) {}

SchedulerWatch::~SchedulerWatch() {
    if (schedstat_ >= 0) kernel::close(schedstat_);
}

SchedulerReading SchedulerWatch::read() const noexcept {
    SchedulerReading reading;
    reading.involuntary_switches = kernel::involuntary_switches();
    read_cpu_clocks(reading);
    reading.run_queue_ns = run_queue_ns();
    return reading;
}

WatchedReading SchedulerWatch::watch(const std::function<double()>& timed) const {
    const std::int64_t bracket_start = now_ns();
    WatchedReading reading;
    reading.before = read();
    reading.ms = timed();
    reading.after = read();
    reading.bracket_ms = static_cast<double>(now_ns() - bracket_start) * 1e-6;
    return reading;
}

std::int64_t SchedulerWatch::run_queue_ns() const noexcept {
    // "<ns on the CPU> <ns waiting on a run queue> <times run>"
    char text[96];
    if (schedstat_ < 0) return -1;
    const long length = kernel::read_at(schedstat_, text, sizeof(text) - 1, 0);
    if (length <= 0) return -1;
    text[length] = '\0';
    char* end = nullptr;
    (void)std::strtoll(text, &end, 10);
    if (end == text) return -1;
    const char* wait = end;
    const long long waited = std::strtoll(wait, &end, 10);
    return end != wait && waited >= 0 ? waited : -1;
}

}  // namespace forge::bench
