// What a run's record adds up to, computed before anything is written: each
// workload's round counts, its precision and throughput, and the run's
// geometric means. eval_writer only serialises a record with its summary
// (Google Benchmark's runner, statistics and reporters are the model).
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

#include "results/record.hpp"
#include "rules/noise_floor.hpp"
#include "rules/throughput.hpp"

namespace forge::bench {

struct ThroughputBySide {
    SideThroughput reference;
    SideThroughput student;
};

struct WorkloadSummary {
    std::size_t preempted_rounds = 0;
    std::size_t throttled_rounds = 0;
    // The precision the rounds themselves reached, as the stopping rule judged
    // it: the ratio's interval is wider once the spread between runs is in it.
    double rounds_half_width = 0.0;
    bool precision_reached = false;
    std::optional<ThroughputBySide> throughput;  // from each side's median time; none without declared work
};

struct RunSummary {
    std::vector<WorkloadSummary> workloads;  // in the record's order
    // Each side's median time, its geometric mean over the workloads; none
    // where a reading is not positive (a clock that could not resolve the call).
    std::optional<double> reference_ms;
    std::optional<double> student_ms;
    // Each throughput figure's geometric mean over the workloads; none without declared work.
    std::optional<ThroughputBySide> throughput;
    bool precision_reached = true;          // every workload's
    bool drift_flagged = false;             // any workload's
    std::optional<NoiseFloor> noise_floor;  // an A/A run's (RunRecord::against_itself)
};

[[nodiscard]] RunSummary summarize(const RunRecord& record);

}  // namespace forge::bench
