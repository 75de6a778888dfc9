// The caches before each call of a round of calls (each side's at most one).
#pragma once

#include "harness/side_state.hpp"
#include "runtime/runtime.hpp"

namespace forge::bench {

// One flush for the whole round where the runtime evicts each side's tensors
// itself (Runtime::evicts_tensors): the flush is most of a HOST round's cost
// (twice a last-level cache that can be hundreds of MiB). Elsewhere each call
// gets the runtime's flush of its own.
class SweptRound {
public:
    // `sweep_s`: where given, the sweep's seconds are added to it.
    explicit SweptRound(Runtime& runtime, double* sweep_s = nullptr);

    // The caches before a call of the side: the runtime's flush (unless this
    // round swept them), then evict_before_call.
    void flush_caches(SideState& state) const;

private:
    Runtime& runtime_;
    bool swept_ = false;
};

}  // namespace forge::bench
