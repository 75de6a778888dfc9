#include "preemption.hpp"

#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cstdlib>

namespace forge::bench {

bool preempted(const SchedulerReading& before, const SchedulerReading& after, double call_ms,
               double tolerated_fraction) noexcept {
    if (before.run_queue_ns >= 0 && after.run_queue_ns >= 0) {
        const auto waited_ns = static_cast<double>(after.run_queue_ns - before.run_queue_ns);
        return waited_ns > tolerated_fraction * call_ms * 1e6;
    }
    return before.involuntary_switches >= 0 && after.involuntary_switches != before.involuntary_switches;
}

SchedulerWatch::SchedulerWatch() : schedstat_(::open("/proc/thread-self/schedstat", O_RDONLY | O_CLOEXEC)) {}

SchedulerWatch::~SchedulerWatch() {
    if (schedstat_ >= 0) ::close(schedstat_);
}

SchedulerReading SchedulerWatch::read() const noexcept {
    SchedulerReading reading;
    rusage usage{};
    if (::getrusage(RUSAGE_THREAD, &usage) == 0) reading.involuntary_switches = usage.ru_nivcsw;
    // "<ns on the CPU> <ns waiting on a run queue> <times run>"
    char text[96];
    if (schedstat_ < 0) return reading;
    const ssize_t length = ::pread(schedstat_, text, sizeof(text) - 1, 0);
    if (length <= 0) return reading;
    text[length] = '\0';
    char* end = nullptr;
    (void)std::strtoll(text, &end, 10);
    if (end == text) return reading;
    const char* wait = end;
    const long long waited = std::strtoll(wait, &end, 10);
    if (end != wait && waited >= 0) reading.run_queue_ns = waited;
    return reading;
}

}  // namespace forge::bench
