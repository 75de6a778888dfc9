// Waiting out a busy stretch of the machine. Another tenant's memory traffic
// can keep a machine busy for tens of seconds (on a shared 2-core VM beside the
// noisy neighbour: 20-70 s, in about one bench run in ten), during which a
// workload's rounds read another ratio (rmsnorm_fwd 1.46 against 2.0) and too
// few of them are quiet. A workload that fell back to such rounds is measured
// again once the machine reads quiet again, when that happens within the run's
// budget (StoppingParameters::machine_wait_s).
#pragma once

#include <cstddef>
#include <span>

#include "drift.hpp"
#include "runtime.hpp"

namespace forge::bench {

// A reading of the wait within this factor of the run's quietest is quiet.
// Wider than the rounds' quiet_margin for two reasons: the wait reads the
// memory calibration right after a flush, whose dirty lines it then writes
// back (10% slower than after a call, on a quiet 2-core VM), and rounds read
// the quiet ratio up to about 1.45x the quietest reading (stopping.hpp), while
// a long busy stretch reads 1.6-1.8x.
inline constexpr double machine_quiet_margin = 1.45;

// Whether a window of machine readings (memory calibrations, ms) says the
// machine is quiet again: at least half of them within machine_quiet_margin of
// the run's quietest reading. Half, not all: beside a neighbour that switches
// on and off every few hundred milliseconds, most of a quiet machine's
// readings are quiet; in a long busy stretch one in ten is.
[[nodiscard]] bool reads_quiet(std::span<const double> readings_ms, double quietest_ms);

struct MachineWait {
    bool quiet = false;     // a window read quiet before the budget ran out
    double waited_s = 0.0;  // the wait's wall time
};

// Reads the machine as the rounds do (a cache flush, then the memory
// calibration), `window` readings at a time, until a window reads quiet or
// `budget_s` has passed.
[[nodiscard]] MachineWait wait_for_quiet_machine(Runtime& runtime, double quietest_ms, double budget_s,
                                                 std::size_t window = 16);

}  // namespace forge::bench
