// The run: the definition checked against window.toml, each workload measured
// in turn, busy ones measured again, earlier runs' spread added, eval.json written.
#include "forge/bench/run.hpp"

#include <algorithm>
#include <cstdint>
#include <exception>
#include <filesystem>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "forge/stats/ratio_interval.hpp"
#include "harness/workload_run.hpp"
#include "results/between_runs.hpp"
#include "results/eval_writer.hpp"
#include "results/record.hpp"
#include "rules/declarations.hpp"
#include "rules/physical_floor.hpp"
#include "rules/retake.hpp"
#include "rules/stopping.hpp"
#include "runtime/runtime.hpp"

namespace forge::bench {

namespace {

// A workload a busy stretch of the machine fooled, or one that fell back to busy
// rounds while another found quiet ones (retake.hpp), is measured once more,
// its new rounds pooled with the first's: the pooled measurement's notices
// replace the first's.
void retake_busy_workloads(const BenchDefinition& bench, const WindowContract& contract, Runtime& runtime,
                           const RunOptions& options, RunRecord& record) {
    for (const std::size_t w : workloads_to_retake(record.workloads, record.stopping)) {
        if (!record.problems.empty()) return;
        const Workload& workload = bench.workloads()[w];
        const std::string prefix = "workload '" + workload.name + "': ";
        const auto retake_notices = static_cast<std::ptrdiff_t>(record.notices.size());  // the retake's come after
        if (options.log != nullptr) {
            *options.log << "[forge bench] " << workload.name
                         << ": too few quiet rounds against the whole run's readings of the machine, measured again\n";
        }
        // A retake costs at most the cap: no wait for quiet rounds on top of it
        // (one that fell back has already waited its turn).
        StoppingParameters stopping = record.stopping;
        stopping.quiet_wait_s = 0.0;
        WorkloadRecord retaken =
            measure_workload(bench, contract, runtime, options, workload, record, stopping, &record.workloads[w]);
        record.notices.erase(std::remove_if(record.notices.begin(), record.notices.begin() + retake_notices,
                                            [&](const std::string& notice) { return notice.starts_with(prefix); }),
                             record.notices.begin() + retake_notices);
        record.notices.push_back(prefix + "measured again at the end of the run; its rounds are pooled with the "
                                          "first measurement's");
        retaken.work = record.workloads[w].work;
        retaken.retaken = true;
        record.workloads[w] = std::move(retaken);
    }
}

// Whether a side's median call passed the memory's or the arithmetic's
// ceiling for the bytes or FLOPs the bench declares (physical_floor.hpp).
template <typename Ceiling, typename Beyond>
bool any_reading_past(const Ceiling& ceiling, Beyond beyond, const RunRecord& record) {
    for (const WorkloadRecord& w : record.workloads) {
        if (!w.work) continue;
        for (const Side side : sides) {
            if (beyond(side, *w.work, w.side(side).samples.median, ceiling)) return true;
        }
    }
    return false;
}

// Each side's median call held to a ceiling: a reading past it is a problem of the run.
template <typename Ceiling, typename Beyond>
void refuse_readings_past(const Ceiling& ceiling, Beyond beyond, RunRecord& record) {
    for (const WorkloadRecord& w : record.workloads) {
        if (!w.work) continue;
        for (const Side side : sides) {
            if (auto why = beyond(side, *w.work, w.side(side).samples.median, ceiling)) {
                record.problems.push_back("workload '" + w.workload->name + "': " + *why);
            }
        }
    }
}

// The physical floor: readings past the memory's or the arithmetic's ceiling,
// each refused only after the runtime measured that ceiling again.
void hold_to_the_machine(Runtime& runtime, RunRecord& record) {
    if (const std::optional<MemoryCeiling> ceiling = runtime.memory_ceiling()) {
        if (any_reading_past(*ceiling, beyond_memory_ceiling, record)) {
            refuse_readings_past(
                runtime.memory_ceiling_measured_again(fastest_memory_calibration_gbps(record)).value_or(*ceiling),
                beyond_memory_ceiling, record);
        }
    }
    if (const std::optional<ComputeCeiling> ceiling = runtime.compute_ceiling()) {
        if (any_reading_past(*ceiling, beyond_compute_ceiling, record)) {
            refuse_readings_past(runtime.compute_ceiling_measured_again().value_or(*ceiling), beyond_compute_ceiling,
                                 record);
        }
    }
}

// The bootstrap's seed: fixed by the workloads' own seeds, so the same rounds
// always give the same interval.
std::uint64_t bootstrap_seed(const RunRecord& record) {
    std::uint64_t seed = 0x666F726765ULL;  // "forge"
    for (const WorkloadRecord& w : record.workloads) seed = seed * 0x100000001B3ULL ^ w.workload->seed;
    return seed;
}

// The run's ratio: the geometric mean of its workloads' ratios, with its interval.
stats::RatioInterval run_ratio(const RunRecord& record) {
    std::vector<stats::PairedRounds> paired;
    for (const WorkloadRecord& w : record.workloads) paired.push_back(w.estimated_rounds);
    return stats::geomean_ratio(paired, bootstrap_seed(record), record.stopping.confidence);
}

std::unique_ptr<Runtime> make_runtime(Backend backend, const RunOptions& options) {
    return backend == Backend::cuda ? make_cuda_runtime(options.cuda_device, options.cuda_architectures)
                                    : make_host_runtime(options.host_flush_bytes);
}

// A run's result from its record: eval.json (written when asked), the problems and notices logged.
RunResult finish(const RunRecord& record, const RunOptions& options) {
    RunResult result;
    result.eval = to_eval_json(record);
    result.problems = record.problems;
    result.notices = record.notices;
    result.exit_code = record.passed() ? exit_code::ok : exit_code::problems;
    if (options.log != nullptr) {
        for (const std::string& problem : result.problems) *options.log << "[forge bench] problem: " << problem << "\n";
        for (const std::string& notice : result.notices) *options.log << "[forge bench] notice: " << notice << "\n";
    }
    if (!options.eval_path.empty()) write_eval(options.eval_path, result.eval);
    return result;
}

}  // namespace

RunResult run(const Bench& card_bench, const WindowContract& contract, const RunOptions& options) {
    const BenchDefinition bench(card_bench);
    RunResult result;
    if (std::vector<std::string> problems = bench.problems(); !problems.empty()) {
        result.exit_code = exit_code::usage;
        result.problems = std::move(problems);
        return result;
    }

    RunRecord record;
    record.operator_name = options.operator_name;
    if (!contract.path.empty()) record.contract = std::filesystem::absolute(contract.path).string();
    record.contract_digest = contract.digest;
    record.backend = bench.backend();
    record.has_prep = static_cast<bool>(bench.prep_step());
    record.stopping = options.quick ? StoppingParameters::quick() : StoppingParameters::standard();
    if (bench.precision()) record.stopping.precision = *bench.precision();
    if (options.precision) record.stopping.precision = *options.precision;
    if (options.time_cap_s) record.stopping.max_wall_s = *options.time_cap_s;
    record.build = options.build;
    record.launch = options.launch;
    record.against_itself = options.against_itself;
    // Before the device: a definition that disagrees with window.toml fails on
    // every machine, a GPU-less one included (eval.json then has no device facts).
    record.problems = declaration_problems(bench, contract);
    if (!record.problems.empty()) return finish(record, options);

    std::unique_ptr<Runtime> runtime;
    try {
        runtime = make_runtime(bench.backend(), options);
    } catch (const BackendBroken& e) {
        // A device that is there but unusable (a driver too old, a failed context):
        // a failure naming the error, never a skip that CTest counts as a pass.
        result.exit_code = exit_code::problems;
        result.problems.push_back(e.what());
        return result;
    } catch (const BackendUnavailable& e) {
        // Written, not left absent: forge report lists the operator as measuring
        // nothing, and why, instead of dropping it.
        result.exit_code = exit_code::skipped;
        result.problems.push_back(e.what());
        result.eval =
            skipped_eval_json(options.operator_name, bench.backend(), e.what(), options.build, options.launch);
        if (!options.eval_path.empty()) write_eval(options.eval_path, result.eval);
        return result;
    }

    record.notices = options.notices;
    const std::vector<std::string> runtime_notices = runtime->notices();
    record.notices.insert(record.notices.end(), runtime_notices.begin(), runtime_notices.end());
    try {
        for (const Workload& workload : bench.workloads()) {
            record.workloads.push_back(
                measure_workload(bench, contract, *runtime, options, workload, record, record.stopping));
            if (bench.declare_work()) record.workloads.back().work = bench.declare_work()(workload);
        }
        retake_busy_workloads(bench, contract, *runtime, options, record);
        hold_to_the_machine(*runtime, record);
        record.complete = true;
    } catch (const std::exception& e) {
        // A call that threw (an undeclared tensor, a failed launch): no numbers for this run.
        record.problems.push_back(e.what());
    }

    record.device = runtime->device_facts();  // after the run: the load average at its end
    const std::vector<std::string> after_run = runtime->notices_after_run();
    record.notices.insert(record.notices.end(), after_run.begin(), after_run.end());
    record.peak_dram_gbps = runtime->peak_dram_gbps();
    if (record.complete) record.ratio = run_ratio(record);
    add_spread_between_runs(record, options);
    return finish(record, options);
}

}  // namespace forge::bench