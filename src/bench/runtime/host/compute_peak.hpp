// The most fp32 arithmetic a HOST run can get: a physical limit no call can
// beat doing the FLOPs it declares, against which a side's reading is checked
// (physical_floor.hpp).
#pragma once

#include <string>

namespace forge::bench {

struct ComputePeak {
    double gflops = 0.0;       // the best reading, one thread or all; 0 where not measured
    unsigned threads = 0;      // how many ran at once in that reading
    std::string instructions;  // the fused multiply-adds timed: "avx512f", "avx2+fma", "sse2" (a multiply and an add)
};

// Independent chains of fp32 multiply-adds on the widest vector unit this
// CPU has (x86-64), on one thread, then on one per hardware thread at once;
// the best of three passes of each, a few milliseconds a pass. Elsewhere
// nothing is measured (gflops 0).
[[nodiscard]] ComputePeak measure_compute_peak();

}  // namespace forge::bench
