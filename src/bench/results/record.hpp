// What a run measured and found, before it becomes eval.json.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "forge/bench/bench.hpp"
#include "forge/stats/ratio_interval.hpp"
#include "forge/stats/summary.hpp"
#include "forge/table/kernel_table.hpp"
#include "results/wall_time.hpp"
#include "rules/compare.hpp"
#include "rules/counted_rounds.hpp"
#include "rules/drift.hpp"
#include "rules/fresh_inputs.hpp"
#include "rules/stopping.hpp"
#include "runtime/device_clocks.hpp"

namespace forge::bench {

// The spread between this bench's runs on this machine that an interval
// includes (between_runs.hpp); runs == 0: no history was kept.
struct BetweenRuns {
    std::size_t runs = 0;         // the runs it comes from, this one included
    double log_sd = 0.0;          // the between-run standard deviation of the log-ratio
    stats::RatioInterval within;  // the interval from this run's rounds alone
    // The interval also reaches every kept run's ratio: this one was measured on a
    // busier machine than theirs (the run's rounds, or the workload's, not quiet).
    bool reaches_earlier_runs = false;
};

// How busy the machine was for this run and for the kept runs of the bench:
// the median memory calibration (ms) of the rounds their ratios came from. A
// run whose rounds read the machine busier than the earlier runs' did measured
// another machine state, whose memory traffic moves a memory-bound side more
// than the other; its own quiet-round selection cannot see that when the
// whole run was busy.
struct MachineAcrossRuns {
    double memory_ms = 0.0;                   // this run's
    // The lowest of the kept runs' and of other builds' runs on this machine, where recorded.
    std::optional<double> earlier_memory_ms;
    // The lowest was another build's run on this machine: a rebuilt bench's
    // history starts afresh, and the machine's quiet state is still known.
    bool earlier_from_other_builds = false;

    // Busier than the quiet margin allows over the lowest of the earlier runs'.
    [[nodiscard]] bool busier() const noexcept {
        return earlier_memory_ms && !within_quiet_margin(memory_ms, *earlier_memory_ms);
    }
};

struct SideRecord {
    stats::SampleSummary samples;      // per-call milliseconds, over the rounds
    double pipelined_ms = 0.0;         // back-to-back calls / N
    int pipelined_calls = 0;           // N
    KernelTable kernels;               // median per call over the profiled calls
    // A timed sample ran other kernels than the profiled call (see workload_profile.cpp);
    // nullopt when the backend could not see the samples' kernels.
    std::optional<bool> kernel_set_changed;
    // The page faults of a profiled call, the median over them (the whole
    // process's, minor and major); nullopt where they could not be read.
    std::optional<long> page_faults;
};

struct PrepRecord {
    std::vector<TensorSpec> outputs;   // what the prep step produced
    std::vector<std::string> mutated;  // prep tensors a timed call changed
    double ms = 0.0;                   // the prep step's own time
};

// One paired round: both sides timed back to back, each from a cold cache
// (SweptRound, harness/swept_round.hpp).
struct Round {
    Side first = Side::reference;      // the side timed first (the order alternates)
    int input_variant = 0;             // 0 and 1 alternate; a fresh round's is its own, from 2 on
    bool fresh = false;                // inputs drawn for this round alone (fresh_inputs.hpp)
    std::size_t layout = 0;            // which copy of each side's tensors the round used
    double reference_ms = 0.0;
    double student_ms = 0.0;
    double t_s = 0.0;                  // when the round started, from the workload's first round
    double calibration_ms = 0.0;       // the drift calibration timed after it
    double memory_calibration_ms = 0.0;  // the memory calibration timed after it
    bool used = true;                  // among the rounds the ratio comes from
    bool preempted = false;            // a call of the round was descheduled
    // How long another process kept each call's timing thread from its CPU
    // inside its reading (its run-queue wait, less what the side's own threads
    // may have taken; HOST, where the system counts it).
    std::optional<double> reference_wait_ms;
    std::optional<double> student_wait_ms;
    std::optional<ClockReading> clocks;  // the GPU's clocks after the round, where the backend reads them
    bool throttled = false;            // the GPU slowed itself during the round (ClockWatch)

    // A side's call as the ratio and the ms columns take it: its reading less
    // the wait another process imposed on it. A long call waits through more of
    // a neighbour's time slices than a short one, which would bend the ratio
    // towards the shorter side, and a call's time against its profiled regions'
    // (the credit's coverage) would read the neighbour's share of the CPU. What
    // the neighbour evicted meanwhile stays in.
    [[nodiscard]] double reference_call_ms() const { return reference_ms - reference_wait_ms.value_or(0.0); }
    [[nodiscard]] double student_call_ms() const { return student_ms - student_wait_ms.value_or(0.0); }

    // log(reference / student call). A call faster than the clock resolves reads
    // 0 and counts as one clock tick (1 ns), not log(0).
    [[nodiscard]] double log_ratio() const {
        return std::log(std::max(reference_call_ms(), 1e-6) / std::max(student_call_ms(), 1e-6));
    }
};

struct WorkloadRecord {
    [[nodiscard]] SideRecord& side(Side s) { return s == Side::reference ? reference : student; }
    [[nodiscard]] const SideRecord& side(Side s) const { return s == Side::reference ? reference : student; }

    const Workload* workload = nullptr;
    std::optional<PrepRecord> prep;    // only when the bench has a prep step
    SideRecord reference;
    SideRecord student;
    std::vector<Round> rounds;
    double memory_calibration_before_ms = 0.0;  // read after warm-up, before the first round
    // From the rounds' paired log-ratios; once the run is done, with between_runs' spread.
    stats::RatioInterval ratio;
    BetweenRuns between_runs;
    stats::PairedRounds estimated_rounds;  // the rounds `ratio` comes from
    RoundSelection selection = RoundSelection::quiet;
    StopReason stop = StopReason::precision_reached;
    bool waited_for_quiet = false;     // the rounds went past the cap, waiting for quiet ones
    bool retaken = false;              // measured again at the end of the run (retake_busy_workloads)
    // The preset its rounds stopped by: the run's, or "quick" once the run had failed a check.
    std::string_view stopping_preset;
    double rounds_wall_s = 0.0;        // the rounds' wall time, harness work included
    double measured_s = 0.0;           // both sides' timed calls, summed
    WallTime wall;                     // a retake's adds to its first measurement's
    Drift drift;
    RatioDrift ratio_drift;            // over the counted rounds, in time order
    std::optional<Reuse> reuse;        // fresh rounds against the others, where both exist

    // Round r as the rules read it (counted_rounds.hpp), its machine reading the
    // slower of the memory calibrations before and after it: a neighbour's busy
    // stretch that began or ended during the round shows in one of the two.
    [[nodiscard]] RoundReading reading(std::size_t r) const {
        const Round& round = rounds[r];
        const double before_ms = r == 0 ? memory_calibration_before_ms : rounds[r - 1].memory_calibration_ms;
        return {.log_ratio = round.log_ratio(),
                .cluster = round.layout,
                .measured_ms = round.reference_ms + round.student_ms,
                .disturbed = round.preempted || round.throttled,
                .machine_ms = std::max(round.memory_calibration_ms, before_ms)};
    }
    [[nodiscard]] std::vector<RoundReading> readings() const {
        std::vector<RoundReading> out;
        for (std::size_t r = 0; r < rounds.size(); ++r) out.push_back(reading(r));
        return out;
    }
    std::optional<Work> work;          // what one call does (Bench::work), for throughput
};

struct OutputCheck {
    TensorSpec spec;                   // the first workload's
    // Workloads declared it in different dtypes, so held it to different thresholds.
    bool dtype_varies = false;
    ComparisonResult comparison;       // student held to the reference, over every workload and input variant
    // The same per workload (over its input variants), by workload name.
    std::map<std::string, ComparisonResult, std::less<>> workloads;
    std::string start;                 // what it holds before a call: "poisoned" (NaN) or how it accumulates
};

struct RunRecord {
    std::string operator_name;
    std::string contract;  // the window.toml the run was held to, absolute: `forge report` reads it
    std::string contract_digest;  // its text's: the checks refuse a contract edited since
    Backend backend = Backend::host;
    nlohmann::json device;
    std::optional<double> peak_dram_gbps;  // the device's peak DRAM bandwidth, where known (CUDA)
    std::vector<OutputCheck> outputs;  // the outputs both sides produce
    std::vector<std::string> problems; // correctness failures and caught violations, for people
    std::vector<std::string> notices;  // what a reader should know but does not fail the run
    std::set<std::string, std::less<>> said_once;  // keys of what the run says once (harness/findings.hpp)
    bool has_prep = false;
    StoppingParameters stopping;
    nlohmann::json build;              // how the bench was built (RunOptions::build)
    nlohmann::json launch;             // where it ran (RunOptions::launch)
    std::optional<Side> against_itself;  // the A/A run's side (RunOptions::against_itself)
    bool complete = false;             // every workload was measured
    std::vector<WorkloadRecord> workloads;
    // The geometric mean of the workloads' ratios, when complete, with between_runs' spread.
    std::optional<stats::RatioInterval> ratio;
    BetweenRuns between_runs;
    std::optional<MachineAcrossRuns> machine_across_runs;  // with a history only

    [[nodiscard]] bool passed() const noexcept { return problems.empty() && complete; }
};

}  // namespace forge::bench
