// A side's reading held to what the machine can physically do: a call that
// moved the bytes the bench declares (Bench::work) faster than the memory
// allows did not move them. Its answer came from somewhere else (kept from an
// earlier call, made outside the window), or the bench declares more than the
// operation moves; either way its ratio measures something else.
//
// Not checked: FLOP/s against a compute peak, which depends on the dtype, the
// units a kernel uses and the clock under load, none of which a runtime
// reports soundly (and which a HOST side compiled for a wider vector unit than
// the harness's would pass).
#pragma once

#include <optional>
#include <string>

#include "forge/bench/bench.hpp"
#include "runtime/runtime.hpp"

namespace forge::bench {

// Why `side`'s median call of `median_ms` cannot have moved `work`'s bytes
// under `ceiling`; nullopt when it can, or when nothing declares its bytes.
[[nodiscard]] std::optional<std::string> beyond_memory_ceiling(Side side, const Work& work, double median_ms,
                                                               const MemoryCeiling& ceiling);

}  // namespace forge::bench
