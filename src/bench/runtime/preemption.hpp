// Whether the scheduler kept the timing thread off its CPU during a call. On a
// busy machine a long call (several time slices) waits for its CPU far more
// often than a short one, so such calls bias the ratio towards the shorter
// side; rounds with one are set aside where enough clean ones exist.
//
// A wait long enough to matter, not any context switch: beside a neighbour
// that wakes now and then, most of a long call's switches cost it microseconds
// (its preempted readings read as its clean ones), and setting all of them aside
// left too few rounds to estimate from (docs/design/measurement.md, "Quiet
// rounds"; the figures: docs/lab/README.md).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>

namespace forge::bench {

// The thread's scheduling counters at one moment.
struct SchedulerReading {
    long involuntary_switches = -1;  // getrusage(RUSAGE_THREAD); -1: unknown
    std::int64_t run_queue_ns = -1;  // time spent runnable but not running (schedstat); -1: unknown
    std::int64_t process_cpu_ns = -1;  // CPU time of all the process's threads; -1: unknown
    std::int64_t thread_cpu_ns = -1;   // CPU time of this thread; -1: unknown
};

// How long the thread waited on a run queue between the two readings, in ms;
// nothing where the system does not count it.
[[nodiscard]] std::optional<double> run_queue_wait_ms(const SchedulerReading& before,
                                                      const SchedulerReading& after) noexcept;

// The CPU time the process's other threads took between the two readings, in
// ms; nothing where it is not known.
[[nodiscard]] std::optional<double> other_threads_cpu_ms(const SchedulerReading& before,
                                                         const SchedulerReading& after) noexcept;

// Of `wait_ms` waited between two readings `bracket_ms` apart, what another
// process took from the `call_ms` call between them: at least what neither the
// time outside the call nor `other_threads_ms`, the CPU time the process's
// other threads took meanwhile, can hold. A preemption lands at a return to
// user mode as often as not, so the readings' own system calls are where one
// outside the call happens; and a side's own threads may have taken this CPU,
// which is the side's work, not a neighbour's.
[[nodiscard]] double foreign_wait_in_call_ms(double wait_ms, double bracket_ms, double call_ms,
                                             double other_threads_ms) noexcept;

// foreign_wait_in_call_ms from the readings around a call `bracket_ms` apart
// (the first taken after the bracket's start, the second before its end);
// nothing where the system does not count the wait or the CPU time.
[[nodiscard]] std::optional<double> foreign_wait_ms(const SchedulerReading& before, const SchedulerReading& after,
                                                    double bracket_ms, double call_ms) noexcept;

// A call was preempted when its thread waited on a run queue during it for more
// than `tolerated_fraction` of the call's time; where the system does not
// count that wait, when it was switched out involuntarily at all.
inline constexpr double tolerated_wait_fraction = 0.002;

[[nodiscard]] bool preempted(const SchedulerReading& before, const SchedulerReading& after, double call_ms,
                             double tolerated_fraction = tolerated_wait_fraction) noexcept;

// A reading `timed` returned (ms), with the thread's counters around it and
// the time between those two readings.
struct WatchedReading {
    double ms = 0.0;
    SchedulerReading before;
    SchedulerReading after;
    double bracket_ms = 0.0;

    [[nodiscard]] bool preempted() const noexcept;
    [[nodiscard]] std::optional<double> foreign_wait_ms() const noexcept;
};

// The CPU time of all the process's threads but the calling one so far, in ns;
// -1 where it cannot be read. Two clock reads, about 3 us.
[[nodiscard]] std::int64_t other_threads_cpu_ns() noexcept;

// Reads the constructing thread's counters (/proc/thread-self/schedstat, kept open).
class SchedulerWatch {
public:
    SchedulerWatch();
    ~SchedulerWatch();
    SchedulerWatch(const SchedulerWatch&) = delete;
    SchedulerWatch& operator=(const SchedulerWatch&) = delete;

    [[nodiscard]] SchedulerReading read() const noexcept;
    // Runs `timed` between two readings.
    [[nodiscard]] WatchedReading watch(const std::function<double()>& timed) const;
    // Only the run-queue wait so far (one read of schedstat); -1: unknown.
    [[nodiscard]] std::int64_t run_queue_ns() const noexcept;

private:
    int schedstat_ = -1;
};

}  // namespace forge::bench
