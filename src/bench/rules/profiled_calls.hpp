// One side's per-kernel table from several profiled calls, so that one noisy
// call cannot void a credit: each kernel's (or HOST region's) median per-call
// time, over calls that did not run it counted as zero.
#pragma once

#include <cstddef>
#include <span>

#include "forge/table/kernel_table.hpp"

namespace forge::bench {

// Rows in first-seen order: time_ns = calls x the kernel's median per-call time,
// launches = calls x its median launches (rounded), so the table reads as the
// sum over `calls` profiled calls the way a profiler's digest does; profiler =
// {their total, calls}. A call the profiler could not read (no digest: CUDA
// under another profiler, a CUPTI failure) is no table, not a zero-time one:
// the others' median, or no table (no rows, no digest) when none was read.
// Throws std::invalid_argument on no calls.
[[nodiscard]] KernelTable median_per_call(std::span<const KernelTable> calls);

// How many profiled calls a side takes. A median of `first` calls beside a busy
// neighbour can land on a busy stretch the timed rounds' median did not (or the
// other way), and a credit then is refused as unreconciled for noise, not for a
// profile that misses the call: so while the table a side's credit depends on
// reads outside the coverage band of its timed median, `step` more, up to `most`.
// A profile that does not describe the call stays out of band at any count.
struct ProfiledCallCount {
    std::size_t first = 3;
    std::size_t step = 3;
    std::size_t most = 15;

    // The calls wanted after `table` (median_per_call of the calls so far, taken
    // `taken`) against the side's timed median `timed_ms`: `taken` when they
    // reconcile (or no coverage can be read) or when `most` are taken.
    [[nodiscard]] std::size_t wanted(const KernelTable& table, std::size_t taken, double timed_ms) const;
};

}  // namespace forge::bench
