#include "harness/swept_round.hpp"

#include <cstdint>

#include "runtime/timer.hpp"

namespace forge::bench {

SweptRound::SweptRound(Runtime& runtime, double* sweep_s) : runtime_(runtime) {
    if (!runtime_.evicts_tensors()) return;
    const std::int64_t start = now_ns();
    runtime_.flush_cache();
    if (sweep_s != nullptr) *sweep_s += static_cast<double>(now_ns() - start) * 1e-9;
    swept_ = true;
}

void SweptRound::flush_caches(SideState& state) const {
    if (!swept_) runtime_.flush_cache();
    evict_before_call(runtime_, state);
}

}  // namespace forge::bench
