#include "runtime/kernel_calls.hpp"

#include <fcntl.h>
#include <cstdint>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace forge::bench::kernel {

namespace {

// The kernel's answer: a value, or -errno.
long system_call(long number, long a1 = 0, long a2 = 0, long a3 = 0, long a4 = 0) noexcept {
#if defined(__x86_64__)
    long result = 0;
    register long r10 asm("r10") = a4;
    asm volatile("syscall"
                 : "=a"(result)
                 : "a"(number), "D"(a1), "S"(a2), "d"(a3), "r"(r10)
                 : "rcx", "r11", "memory");
    return result;
#elif defined(__aarch64__)
    register long x8 asm("x8") = number;
    register long x0 asm("x0") = a1;
    register long x1 asm("x1") = a2;
    register long x2 asm("x2") = a3;
    register long x3 asm("x3") = a4;
    asm volatile("svc 0" : "+r"(x0) : "r"(x8), "r"(x1), "r"(x2), "r"(x3) : "memory");
    return x0;
#else
    return ::syscall(number, a1, a2, a3, a4);  // -1 on failure
#endif
}

template <typename Pointer>
long address(Pointer* pointer) noexcept {
    return static_cast<long>(reinterpret_cast<std::uintptr_t>(pointer));
}

}  // namespace

bool calls_directly() noexcept {
#if defined(__x86_64__) || defined(__aarch64__)
    return true;
#else
    return false;
#endif
}

std::int64_t clock_ns(clockid_t clock) noexcept {
    timespec time{};
    if (system_call(SYS_clock_gettime, clock, address(&time)) != 0) return -1;
    return static_cast<std::int64_t>(time.tv_sec) * 1'000'000'000 + time.tv_nsec;
}

int open_to_read(const char* path) noexcept {
    const long fd = system_call(SYS_openat, AT_FDCWD, address(path), O_RDONLY | O_CLOEXEC);
    return fd < 0 ? -1 : static_cast<int>(fd);
}

long read_at(int fd, char* buffer, std::size_t size, long offset) noexcept {
    const long length = system_call(SYS_pread64, fd, address(buffer), static_cast<long>(size), offset);
    return length < 0 ? -1 : length;
}

void close(int fd) noexcept { (void)system_call(SYS_close, fd); }

std::uint64_t random_bits() noexcept {
    std::uint64_t bits = 0;
    if (system_call(SYS_getrandom, address(&bits), sizeof bits, 0) == static_cast<long>(sizeof bits)) return bits;
    return static_cast<std::uint64_t>(clock_ns(CLOCK_MONOTONIC));
}

long involuntary_switches() noexcept {
    rusage usage{};
    if (system_call(SYS_getrusage, RUSAGE_THREAD, address(&usage)) != 0) return -1;
    return usage.ru_nivcsw;
}

long page_faults() noexcept {
    rusage usage{};
    if (system_call(SYS_getrusage, RUSAGE_SELF, address(&usage)) != 0) return -1;
    return usage.ru_minflt + usage.ru_majflt;
}

}  // namespace forge::bench::kernel
