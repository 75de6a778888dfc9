// The HOST clock: monotonic nanoseconds (a vDSO read, tens of nanoseconds).
#pragma once

#include <chrono>
#include <cstdint>

namespace forge::bench {

[[nodiscard]] inline std::int64_t now_ns() noexcept {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

// Keeps the compiler from moving memory accesses across a clock read.
inline void compiler_barrier() noexcept { asm volatile("" ::: "memory"); }

}  // namespace forge::bench
