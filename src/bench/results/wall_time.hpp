// Where a workload's wall time went: its measured calls, and what the harness
// spent around them, each part timed where it happens (eval.json's
// workloads[].wall_time). What the parts leave of the total is the harness's
// bookkeeping between them (other_s).
#pragma once

#include <cstdint>

#include "runtime/timer.hpp"

namespace forge::bench {

struct WallTime {
    double total_s = 0.0;        // the workload from its first tensor to its sides' teardown
    double setup_s = 0.0;        // drawing its inputs, the prep step, the sides' setup
    double correctness_s = 0.0;  // the untimed calls checked before the rounds
    double warm_up_s = 0.0;
    double measured_s = 0.0;       // the timed calls of the rounds the ratio counts, both sides
    double set_aside_s = 0.0;      // the timed calls of the rounds it sets aside
    double flushes_s = 0.0;        // the rounds' cache sweeps and tensor evictions
    double loads_s = 0.0;          // the rounds' inputs copied into the sides' tensors
    double output_checks_s = 0.0;  // the rounds' outputs, guards and prep tensors checked
    double fresh_inputs_s = 0.0;   // fresh rounds' inputs drawn
    double calibrations_s = 0.0;   // between rounds: the memory and clock calibrations, the device's clocks
    double pipelined_s = 0.0;
    double profiled_s = 0.0;

    [[nodiscard]] double other_s() const noexcept {
        return total_s - setup_s - correctness_s - warm_up_s - measured_s - set_aside_s - flushes_s - loads_s -
               output_checks_s - fresh_inputs_s - calibrations_s - pipelined_s - profiled_s;
    }
    [[nodiscard]] double measured_fraction() const noexcept { return total_s > 0.0 ? measured_s / total_s : 0.0; }
};

// Adds the wall time of its scope to `seconds`.
class Stopwatch {
public:
    explicit Stopwatch(double& seconds) noexcept : seconds_(seconds), start_(now_ns()) {}
    Stopwatch(const Stopwatch&) = delete;
    Stopwatch& operator=(const Stopwatch&) = delete;
    ~Stopwatch() { seconds_ += static_cast<double>(now_ns() - start_) * 1e-9; }

private:
    double& seconds_;
    std::int64_t start_;
};

}  // namespace forge::bench
