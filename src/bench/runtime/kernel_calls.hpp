// The clocks and the scheduler's counters the harness times with, read by the
// system call instruction itself, never through a symbol. Code linked into a
// bench (a student's own clock_gettime or pread, a library in LD_PRELOAD) may
// define any C library function, and every caller in the process then reaches
// its definition, std::chrono's clock and the harness's own calls included: a
// student could set the clock back by the time its call took, or say the call
// spent it waiting for its CPU (tests/unit/bench_interposed_clock_test.cpp).
// Not defended: code that rewrites the harness's instructions in memory.
//
// On x86-64 and AArch64 Linux; elsewhere these go through the C library's
// syscall(), which such code could define too.
#pragma once

#include <time.h>

#include <cstddef>
#include <cstdint>

namespace forge::bench::kernel {

// Whether the calls below reach the kernel without any symbol (x86-64, AArch64).
[[nodiscard]] bool calls_directly() noexcept;

// The clock's time in ns (clock_gettime: CLOCK_MONOTONIC, the thread's or the
// process's CPU time); -1 when it cannot be read.
[[nodiscard]] std::int64_t clock_ns(clockid_t clock) noexcept;

// A file opened to read (close-on-exec); -1 when it cannot be.
[[nodiscard]] int open_to_read(const char* path) noexcept;
// Up to `size` bytes at `offset`; the count read, or -1.
[[nodiscard]] long read_at(int fd, char* buffer, std::size_t size, long offset) noexcept;
void close(int fd) noexcept;

// 64 bits from the kernel's random source (getrandom), for seeds no code in
// the process can know before they are drawn; the clock's nanoseconds where
// that source fails.
[[nodiscard]] std::uint64_t random_bits() noexcept;

// The calling thread's involuntary context switches (getrusage(RUSAGE_THREAD)); -1: unknown.
[[nodiscard]] long involuntary_switches() noexcept;

// The process's page faults so far, minor and major, every thread's
// (getrusage(RUSAGE_SELF)): a side's call may fault on threads of its own. -1: unknown.
[[nodiscard]] long page_faults() noexcept;

}  // namespace forge::bench::kernel
