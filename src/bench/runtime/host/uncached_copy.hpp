// A copy that leaves its destination out of every cache level, as evict_lines
// would after a plain copy, at less cost: a call's inputs are loaded before
// each timed call and must reach it from memory.
#pragma once

#include <cstddef>

namespace forge::bench {

// Copies `bytes` from `from` to `to` (not overlapping) and leaves every cache
// line of the destination out of the caches. x86-64: streaming stores, which
// neither read the destination's lines in nor leave them there (a line that
// was cached is evicted), and evict_lines for the partial lines at either end:
// about half the time of a copy and its eviction (docs/lab/README.md).
// Elsewhere: a copy, then evict_lines.
void copy_uncached(std::byte* to, const std::byte* from, std::size_t bytes) noexcept;

}  // namespace forge::bench
