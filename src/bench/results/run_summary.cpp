#include "results/run_summary.hpp"

#include <algorithm>

#include "forge/stats/summary.hpp"

namespace forge::bench {

namespace {

std::optional<double> geomean_if_positive(const std::vector<double>& values) {
    if (values.empty()) return std::nullopt;
    if (!std::all_of(values.begin(), values.end(), [](double value) { return value > 0.0; })) return std::nullopt;
    return stats::geometric_mean(values);
}

WorkloadSummary summarize(const RunRecord& record, const WorkloadRecord& w) {
    WorkloadSummary summary;
    summary.preempted_rounds = static_cast<std::size_t>(
        std::count_if(w.rounds.begin(), w.rounds.end(), [](const Round& r) { return r.preempted; }));
    summary.throttled_rounds = static_cast<std::size_t>(
        std::count_if(w.rounds.begin(), w.rounds.end(), [](const Round& r) { return r.throttled; }));
    summary.rounds_half_width = (w.between_runs.runs > 0 ? w.between_runs.within : w.ratio).relative_half_width();
    summary.precision_reached = w.stop == StopReason::precision_reached;
    if (w.work) {
        summary.throughput = ThroughputBySide{throughput(*w.work, w.reference.samples.median, record.peak_dram_gbps),
                                              throughput(*w.work, w.student.samples.median, record.peak_dram_gbps)};
    }
    return summary;
}

// Each figure's geometric mean over the workloads, as the run's milliseconds are.
SideThroughput run_throughput(const std::vector<WorkloadSummary>& workloads, Side side) {
    std::vector<std::optional<double>> gflops;
    std::vector<std::optional<double>> gbps;
    std::vector<std::optional<double>> fraction;
    for (const WorkloadSummary& w : workloads) {
        const SideThroughput& t = side == Side::reference ? w.throughput->reference : w.throughput->student;
        gflops.push_back(t.gflops);
        gbps.push_back(t.gbps);
        fraction.push_back(t.peak_dram_bandwidth_fraction);
    }
    return {geomean_of_all(gflops), geomean_of_all(gbps), geomean_of_all(fraction)};
}

}  // namespace

RunSummary summarize(const RunRecord& record) {
    RunSummary run;
    std::vector<double> reference_ms;
    std::vector<double> student_ms;
    for (const WorkloadRecord& w : record.workloads) {
        run.workloads.push_back(summarize(record, w));
        reference_ms.push_back(w.reference.samples.median);
        student_ms.push_back(w.student.samples.median);
        run.precision_reached = run.precision_reached && run.workloads.back().precision_reached;
        run.drift_flagged = run.drift_flagged || w.drift.flagged || w.ratio_drift.flagged;
    }
    run.reference_ms = geomean_if_positive(reference_ms);
    run.student_ms = geomean_if_positive(student_ms);
    const bool all_declared =
        !run.workloads.empty() && std::all_of(run.workloads.begin(), run.workloads.end(),
                                              [](const WorkloadSummary& w) { return w.throughput.has_value(); });
    if (all_declared) {
        run.throughput = ThroughputBySide{run_throughput(run.workloads, Side::reference),
                                          run_throughput(run.workloads, Side::student)};
    }
    if (record.against_itself) {
        std::vector<stats::RatioInterval> ratios;
        for (const WorkloadRecord& w : record.workloads) ratios.push_back(w.ratio);
        run.noise_floor = noise_floor(*record.against_itself, ratios, record.ratio);
    }
    return run;
}

}  // namespace forge::bench
