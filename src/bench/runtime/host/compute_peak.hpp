// The most arithmetic a HOST run can get: a physical limit no call can beat
// doing the FLOPs it declares, against which a side's reading is checked
// (physical_floor.hpp).
#pragma once

#include <string>

namespace forge::bench {

struct ComputePeak {
    double gflops = 0.0;   // the best reading, one thread or all; 0 where not measured
    unsigned threads = 0;  // how many ran at once in that reading
    // What was timed: "amx-int8" (AMX's int8 dot products), or the fp32 fused
    // multiply-adds of "avx512f" or "avx2+fma", or "sse2" (a multiply and an add).
    std::string instructions;
    // How far past `gflops` a reading is beyond doubt: the room left by
    // operations denser than those timed, and by a clock lower while they were.
    double margin = 0.0;
};

// Independent chains of the densest arithmetic this CPU has (x86-64): AMX's
// int8 tile dot products where the CPU and Linux allow them, else fp32
// multiply-adds on the widest vectors; on one thread, then on one per
// hardware thread at once; the best of three passes of each, a few
// milliseconds a pass. Elsewhere nothing is measured (gflops 0).
[[nodiscard]] ComputePeak measure_compute_peak();

}  // namespace forge::bench
