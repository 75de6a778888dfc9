// Memory a side maps afresh on every call. Its page faults are the operating
// system's work inside the side's window (mapping and zeroing each page),
// whose cost differs from machine to machine and run to run far more than the
// kernel's: on one VM a fault took 11 µs, so a 32 MiB temporary cost a call
// 90 ms (docs/lab/README.md). The harness says so; it does not take them out.
#pragma once

#include <string>

#include "forge/bench/bench.hpp"

namespace forge::bench {

// Faults a call at which a side is said to map memory afresh: 4 MiB of 4 KiB
// pages, a few milliseconds of a call even where a fault costs a microsecond.
inline constexpr long many_page_faults = 1024;

// The notice for a side whose profiled calls took `faults` page faults each (median).
[[nodiscard]] std::string page_faults_notice(Side side, long faults);

}  // namespace forge::bench
