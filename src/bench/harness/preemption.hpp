// Whether the timing thread was taken off its CPU during a call. On a busy
// machine the scheduler preempts a long call far more often than a short one
// (a 10 ms call spans several time slices, a 1 ms call fits in one), so
// preempted calls bias the ratio towards the shorter side; rounds with a
// preempted call are set aside where enough clean ones exist.
#pragma once

#include <sys/resource.h>

namespace forge::bench {

// The calling thread's involuntary context switches so far (getrusage(RUSAGE_THREAD));
// -1 where the system cannot say.
[[nodiscard]] inline long involuntary_context_switches() noexcept {
    rusage usage{};
    return ::getrusage(RUSAGE_THREAD, &usage) == 0 ? usage.ru_nivcsw : -1;
}

}  // namespace forge::bench
