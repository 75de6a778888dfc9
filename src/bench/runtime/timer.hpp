// The HOST clock: CLOCK_MONOTONIC in nanoseconds, read by system call (slower
// than the vDSO's read; docs/lab/README.md), so that no code linked into the
// bench can set it back (kernel_calls.hpp).
#pragma once

#include <time.h>

#include <cstdint>

#include "runtime/kernel_calls.hpp"

namespace forge::bench {

[[nodiscard]] inline std::int64_t now_ns() noexcept { return kernel::clock_ns(CLOCK_MONOTONIC); }

// Keeps the compiler from moving memory accesses across a clock read.
inline void compiler_barrier() noexcept { asm volatile("" ::: "memory"); }

}  // namespace forge::bench
