// One side's per-kernel table from several profiled calls, so that one noisy
// call cannot void a credit: each kernel's (or HOST region's) median per-call
// time, over calls that did not run it counted as zero.
#pragma once

#include <span>

#include "forge/table/kernel_table.hpp"

namespace forge::bench {

// Rows in first-seen order: time_ns = calls x the kernel's median per-call time,
// launches = calls x its median launches (rounded), so the table reads as the
// sum over `calls` profiled calls the way a profiler's digest does; profiler =
// {their total, calls}. Throws std::invalid_argument on no calls.
[[nodiscard]] KernelTable median_per_call(std::span<const KernelTable> calls);

}  // namespace forge::bench
