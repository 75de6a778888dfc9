#include "results/between_runs.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "forge/stats/between_runs.hpp"
#include "forge/stats/summary.hpp"
#include "results/run_history.hpp"

namespace forge::bench {

namespace {

// Where a run measured, as its history names it: the host (a build directory
// several cluster nodes run from) and the GPU by its UUID, not its index,
// which CUDA_VISIBLE_DEVICES and CTest's resource allocation renumber.
struct Machine {
    std::string name;         // "host H", " gpu U" or " device N" after it on CUDA
    bool host_known = false;  // without the host, the name says too little to compare other builds' runs by
};

Machine machine_of(const RunRecord& record, const RunOptions& options) {
    Machine machine;
    if (const auto host = record.launch.find("host");
        record.launch.is_object() && host != record.launch.end() && host->is_string()) {
        machine.name = "host " + host->get<std::string>();
        machine.host_known = true;
    }
    if (record.backend == Backend::cuda) {
        const auto uuid = record.device.find("uuid");
        const std::string gpu = uuid != record.device.end() && uuid->is_string()
                                    ? "gpu " + uuid->get<std::string>()
                                    : "device " + std::to_string(options.cuda_device);
        machine.name += (machine.name.empty() ? "" : " ") + gpu;
    }
    return machine;
}

// Runs of one bench share a history only when they measure the same way on
// the same machine.
std::string history_identity(const RunRecord& record, const RunOptions& options, const Machine& machine) {
    std::string identity = options.bench_identity;
    if (record.stopping.is_quick()) identity += " quick";
    if (!machine.name.empty()) identity += " " + machine.name;
    return identity;
}

// `interval` widened by the spread of `series`: the kept runs and this one.
// A ratio measured on a busier machine than theirs reaches their ratios too: it
// measured another state of the machine, and tells where the ratio is no better
// than they do.
BetweenRuns widen(stats::RatioInterval& interval, const std::vector<stats::RunEstimate>& series, double confidence,
                  bool busier) {
    BetweenRuns spread{.runs = series.size(),
                       .log_sd = std::sqrt(stats::between_run_variance(series)),
                       .within = interval,
                       .reaches_earlier_runs = busier && series.size() > 1};
    interval = stats::with_between_run_spread(interval, series, confidence);
    if (busier) interval = stats::reaching_every_run(interval, series);
    return spread;
}

std::string percent(double log_sd) {
    std::ostringstream text;
    text.precision(2);
    text << 100.0 * std::expm1(log_sd) << "%";
    return text.str();
}

// How busy the machine was for this run's ratios, and at best for the kept
// runs' and other builds' runs on this machine (`elsewhere`).
std::optional<MachineAcrossRuns> machine_across_runs(const RunRecord& record, const std::vector<KeptRun>& kept,
                                                     std::optional<double> elsewhere) {
    std::vector<double> readings;
    for (const WorkloadRecord& w : record.workloads) {
        for (const Round& round : w.rounds) {
            if (round.used) readings.push_back(round.memory_calibration_ms);
        }
    }
    if (readings.empty()) return std::nullopt;
    MachineAcrossRuns machine{.memory_ms = stats::median(readings), .earlier_memory_ms = {}};
    for (const KeptRun& entry : kept) {
        if (!entry.memory_ms) continue;
        machine.earlier_memory_ms = std::min(machine.earlier_memory_ms.value_or(*entry.memory_ms), *entry.memory_ms);
    }
    if (elsewhere && *elsewhere < machine.earlier_memory_ms.value_or(*elsewhere + 1.0)) {
        machine.earlier_memory_ms = elsewhere;
        machine.earlier_from_other_builds = true;
    }
    return machine;
}

// `reaches`: the intervals were widened to the bench's own kept runs' ratios
// (another build's ratios measured other code, and none reach them).
std::string busier_notice(const MachineAcrossRuns& machine, bool reaches) {
    std::ostringstream notice;
    notice.precision(3);
    notice << "this run's ratios come from rounds that read the machine busier than the bench's earlier runs here "
              "did (a median memory calibration of "
           << machine.memory_ms << " ms, theirs " << *machine.earlier_memory_ms << " ms at best"
           << (machine.earlier_from_other_builds ? ", in a run of another build of the bench on this machine" : "")
           << "): another load's memory traffic moves a memory-bound side more than the other, so its "
              "ratios may read differently on a quieter machine"
           << (reaches ? ", and its intervals reach the earlier runs' ratios too" : "")
           << "; rerun when the machine is quieter";
    return notice.str();
}

}  // namespace

void add_spread_between_runs(RunRecord& record, const RunOptions& options) {
    // A run that failed (outputs that differ, a caught violation) neither uses the history nor joins it.
    if (!record.passed() || !record.ratio || options.history_path.empty() || options.bench_identity.empty()) return;

    const Machine machine = machine_of(record, options);
    const std::string identity = history_identity(record, options, machine);
    // Other builds' runs are compared by the machine alone where the host is known.
    const std::string comparable_machine = machine.host_known ? machine.name : std::string();
    const double confidence = record.stopping.confidence;
    EarlierRuns earlier;
    bool ours = true;  // a file that is not a history may be someone's: never written over
    try {
        earlier = read_earlier_runs(options.history_path, identity, comparable_machine);
    } catch (const HistoryError& e) {
        ours = false;
        record.notices.push_back(std::string(e.what()) + ": this run's intervals include no earlier runs");
    }
    std::vector<KeptRun>& history = earlier.own;
    record.machine_across_runs = machine_across_runs(record, history, earlier.quietest_elsewhere);
    const bool busier = record.machine_across_runs && record.machine_across_runs->busier();
    if (busier) record.notices.push_back(busier_notice(*record.machine_across_runs, !history.empty()));
    KeptRun now;
    if (record.machine_across_runs) now.memory_ms = record.machine_across_runs->memory_ms;
    try {
        now.run = stats::run_estimate(*record.ratio, confidence);
        for (const WorkloadRecord& w : record.workloads) {
            now.workloads.emplace(w.workload->name, stats::run_estimate(w.ratio, confidence));
        }
    } catch (const std::invalid_argument&) {
        // A time of 0 makes a ratio of 0 or infinity: nothing to compare across runs.
        record.notices.push_back("a ratio or interval end that is not a positive number: this run neither uses "
                                 "nor joins the bench's earlier runs");
        return;
    }
    history.push_back(std::move(now));
    if (history.size() > kept_runs) history.erase(history.begin(), history.end() - kept_runs);

    std::vector<std::string> moved;
    std::vector<std::string> reached;  // workloads busier than their run, reaching the earlier runs
    for (WorkloadRecord& w : record.workloads) {
        std::vector<stats::RunEstimate> series;
        for (const KeptRun& entry : history) {
            if (const auto found = entry.workloads.find(w.workload->name); found != entry.workloads.end()) {
                series.push_back(found->second);
            }
        }
        // A workload whose ratio came from rounds its own run judged not quiet (a busy
        // stretch over it and its retake) measured a busier machine, though the run did not.
        w.between_runs = widen(w.ratio, series, confidence, busier || w.selection != RoundSelection::quiet);
        if (w.between_runs.log_sd > 0.0) moved.push_back(w.workload->name + " " + percent(w.between_runs.log_sd));
        if (!busier && w.between_runs.reaches_earlier_runs) reached.push_back("'" + w.workload->name + "'");
    }
    if (!reached.empty()) {
        std::ostringstream notice;
        notice << "the ratio" << (reached.size() > 1 ? "s" : "") << " of workload" << (reached.size() > 1 ? "s" : "");
        for (std::size_t i = 0; i < reached.size(); ++i) notice << (i == 0 ? " " : ", ") << reached[i];
        notice << " came from rounds that were not quiet (a busy stretch of the machine over "
               << (reached.size() > 1 ? "them" : "it")
               << "), so " << (reached.size() > 1 ? "their intervals reach" : "its interval reaches")
               << " the bench's earlier runs' ratios too (between_runs.reaches_earlier_runs)";
        record.notices.push_back(notice.str());
    }
    std::vector<stats::RunEstimate> runs;
    runs.reserve(history.size());
    for (const KeptRun& entry : history) runs.push_back(entry.run);
    record.between_runs = widen(*record.ratio, runs, confidence, busier);

    if (!moved.empty() || record.between_runs.log_sd > 0.0) {
        std::ostringstream notice;
        notice << "ratios moved between this bench's last " << history.size() << " runs here by more than each run's "
               << "own interval allows (a standard deviation between runs of";
        for (std::size_t i = 0; i < moved.size(); ++i) notice << (i == 0 ? " " : ", ") << moved[i];
        if (record.between_runs.log_sd > 0.0) {
            notice << (moved.empty() ? " " : "; ") << "the run's " << percent(record.between_runs.log_sd);
        }
        notice << "): each interval includes that spread (eval.json between_runs; the runs are kept in "
               << options.history_path.string() << ")";
        record.notices.push_back(notice.str());
    }
    if (!ours) return;
    try {
        write_history(options.history_path, identity, comparable_machine, std::move(history));
    } catch (const HistoryError& e) {
        record.notices.push_back(std::string(e.what()) + ": the next run will not see this one");
    }
}

}  // namespace forge::bench
