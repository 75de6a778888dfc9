// Whether the scheduler kept the timing thread off its CPU during a call. On a
// busy machine a long call (several time slices) waits for its CPU far more
// often than a short one, so such calls bias the ratio towards the shorter
// side; rounds with one are set aside where enough clean ones exist.
//
// A wait long enough to matter, not any context switch: beside a neighbour
// that wakes now and then, most of a 35 ms call's switches cost it a few tens
// of microseconds (its preempted readings were within 2% of its clean ones),
// and setting all of them aside left too few rounds to estimate from.
#pragma once

#include <cstdint>

namespace forge::bench {

// The thread's scheduling counters at one moment.
struct SchedulerReading {
    long involuntary_switches = -1;  // getrusage(RUSAGE_THREAD); -1: unknown
    std::int64_t run_queue_ns = -1;  // time spent runnable but not running (schedstat); -1: unknown
};

// A call was preempted when its thread waited on a run queue during it for more
// than `tolerated_fraction` of the call's time; where the system does not
// count that wait, when it was switched out involuntarily at all.
inline constexpr double tolerated_wait_fraction = 0.002;

[[nodiscard]] bool preempted(const SchedulerReading& before, const SchedulerReading& after, double call_ms,
                             double tolerated_fraction = tolerated_wait_fraction) noexcept;

// Reads the constructing thread's counters (/proc/thread-self/schedstat, kept open).
class SchedulerWatch {
public:
    SchedulerWatch();
    ~SchedulerWatch();
    SchedulerWatch(const SchedulerWatch&) = delete;
    SchedulerWatch& operator=(const SchedulerWatch&) = delete;

    [[nodiscard]] SchedulerReading read() const noexcept;

private:
    int schedstat_ = -1;
};

}  // namespace forge::bench
