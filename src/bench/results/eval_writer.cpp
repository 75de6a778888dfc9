#include "results/eval_writer.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <variant>
#include <vector>

#include "forge/eval/eval_keys.hpp"
#include "forge/io/file.hpp"
#include "results/run_history.hpp"
#include "results/run_summary.hpp"
#include "rules/round_schedule.hpp"

namespace forge::bench {

namespace {

nlohmann::json samples_json(const SideRecord& side) {
    return {{"n", side.samples.n},
            {"median_ms", side.samples.median},
            {"min_ms", side.samples.min},
            {"q1_ms", side.samples.q1},
            {"q3_ms", side.samples.q3},
            {"max_ms", side.samples.max}};
}

nlohmann::json interval_json(const stats::RatioInterval& interval) { return {interval.low, interval.high}; }

// A value, or null where it is unknown.
nlohmann::json figure(const std::optional<double>& value) {
    return value ? nlohmann::json(*value) : nlohmann::json(nullptr);
}

// The GPU's clocks after a round: null where the backend reads none.
nlohmann::json clocks_json(const std::optional<ClockReading>& clocks) {
    if (!clocks) return nullptr;
    return {{"sm_mhz", clocks->sm_mhz},
            {"memory_mhz", clocks->memory_mhz},
            {"throttle_reasons", throttle_reasons(clocks->reasons)}};
}

// Every reading in the order taken, so anyone can recompute the interval.
nlohmann::json rounds_json(const WorkloadRecord& w) {
    nlohmann::json rounds = nlohmann::json::array();
    for (const Round& round : w.rounds) {
        rounds.push_back({{"first", to_string(round.first)},
                          {"input_variant", round.input_variant},
                          {"fresh", round.fresh},
                          {"layout", round.layout},
                          {eval_key::reference_ms, round.reference_ms},
                          {eval_key::student_ms, round.student_ms},
                          {"t_s", round.t_s},
                          {"calibration_ms", round.calibration_ms},
                          {"memory_calibration_ms", round.memory_calibration_ms},
                          {"preempted", round.preempted},
                          {"reference_wait_ms", figure(round.reference_wait_ms)},
                          {"student_wait_ms", figure(round.student_wait_ms)},
                          {"throttled", round.throttled},
                          {"clocks", clocks_json(round.clocks)},
                          {"used", round.used}});
    }
    return rounds;
}

nlohmann::json stopping_json(const WorkloadRecord& w, const WorkloadSummary& summary) {
    return {{eval_key::reason, to_string(w.stop)},
            {eval_key::preset, w.stopping_preset},
            {eval_key::rounds, w.rounds.size()},
            {"preempted_rounds", summary.preempted_rounds},
            {"throttled_rounds", summary.throttled_rounds},
            {"estimated_from", to_string(w.selection)},
            {"rounds_used", w.estimated_rounds.log_ratios.size()},
            {"waited_for_quiet", w.waited_for_quiet},
            {"retaken", w.retaken},
            {"memory_calibration_before_ms", w.memory_calibration_before_ms},
            {"half_width", summary.rounds_half_width},
            {"measured_s", w.measured_s},
            {"fresh_inputs_s", w.wall.fresh_inputs_s},
            {"wall_s", w.rounds_wall_s}};
}

nlohmann::json wall_time_json(const WallTime& wall) {
    return {{"total_s", wall.total_s},
            {"setup_s", wall.setup_s},
            {"correctness_s", wall.correctness_s},
            {"warm_up_s", wall.warm_up_s},
            {"measured_s", wall.measured_s},
            {"set_aside_s", wall.set_aside_s},
            {"flushes_s", wall.flushes_s},
            {"loads_s", wall.loads_s},
            {"output_checks_s", wall.output_checks_s},
            {"fresh_inputs_s", wall.fresh_inputs_s},
            {"calibrations_s", wall.calibrations_s},
            {"pipelined_s", wall.pipelined_s},
            {"profiled_s", wall.profiled_s},
            {"other_s", wall.other_s()},
            {"measured_fraction", wall.measured_fraction()}};
}

// Fresh rounds against the others (fresh_inputs.hpp); null with fewer than two of either.
nlohmann::json reuse_json(const std::optional<Reuse>& reuse) {
    if (!reuse) return nullptr;
    return {{"fresh_rounds", reuse->fresh_rounds},
            {"seen_rounds", reuse->seen_rounds},
            {"gain", reuse->gain},
            {"resolves", reuse->resolves},
            {"rank_z", reuse->rank_z},
            {"student_gained", reuse->student_gained()},
            {"reference_gained", reuse->reference_gained()}};
}

nlohmann::json drift_json(const Drift& drift) {
    return {{"calibration_block_medians_ms", drift.block_medians_ms},
            {"moved", drift.moved},
            {"flagged", drift.flagged}};
}

nlohmann::json ratio_drift_json(const RatioDrift& drift) {
    return {{"block_ratios", drift.block_ratios},
            {"moved", drift.moved},
            {"kruskal_wallis_h", drift.kruskal_wallis_h},
            {"p_value", drift.p_value},
            {"flagged", drift.flagged}};
}

// The rule every workload's rounds stopped by, with its parameters.
nlohmann::json stopping_rule_json(const StoppingParameters& p) {
    return {{"criterion", StoppingCriterion::name},
            {eval_key::preset, p.preset},
            {"precision", p.precision},
            {"confidence", p.confidence},
            {"min_rounds", p.min_rounds},
            {"max_rounds", p.max_rounds},
            {"min_measured_s", p.min_measured_s},
            {"max_wall_s", p.max_wall_s},
            {"quiet_wait_s", p.quiet_wait_s},
            {"retake_busy_workloads", p.retake_busy_workloads},
            {"warmup_s", p.warmup_s},
            {"min_fresh_rounds", p.min_fresh_rounds},
            {"order", RoundSchedule::in_words()},
            {"estimator",
             "exp(median of per-round log((reference_ms - reference_wait_ms) / (student_ms - student_wait_ms))), "
             "a wait that is null counting as 0; each side's ms (samples) the median of its readings less their "
             "waits over the same rounds"},
            {"fresh_inputs",
             "two rounds in eight (one with each side first) take inputs drawn for that round alone, a round "
             "ahead, from a seed of the kernel's random source, while drawing them costs at most a quarter of the "
             "rounds' wall time, and rounds go on, every other one fresh, until min_fresh_rounds exist; the student's "
             "outputs there are held to the reference's; "
             "each round's log-ratio less the median of the seen rounds with the same side first; reuse.gain is "
             "exp(median on the two variants - median on fresh rounds), refused (student) or noticed (reference) "
             "over at least 5 fresh rounds beyond reuse.resolves, exp(max(4 standard errors of the two medians, "
             "2%)), with Mann-Whitney's reuse.rank_z beyond 3; over the rounds not throttled and not preempted, or "
             "preempted with both calls' waits read"},
            {"interval", "hull of the sign-test interval and Student's t on the layouts' medians"},
            {"round_selection",
             "quiet rounds (no preempted call, no throttled GPU, memory calibration within 30% of the "
             "run's quietest reading) when min_rounds exist, waiting up to quiet_wait_s past max_wall_s "
             "for them; else undisturbed rounds (no preempted call, no throttled GPU); else all; only quiet rounds "
             "reach the precision"},
            {"run_interval",
             "hull of a percentile bootstrap over each workload's layouts and rounds (2000 resamples, seeded) and "
             "the workloads' intervals carried to their geometric mean"},
            {eval_key::between_runs,
             "DerSimonian and Laird's between-run variance of the log-ratio over this run and the last earlier "
             "runs of the same bench executable kept in the history file beside eval.json (up to " +
                 std::to_string(kept_runs) +
                 " in all); its square root times Student's t quantile (runs - 1 degrees of freedom) added in "
                 "quadrature to each side of ratio_ci up to the lowest and highest the runs' "
                 "own intervals reach, and to every kept run's ratio (between_runs.reaches_earlier_runs) where "
                 "this run's rounds read the machine busier than theirs (between_runs.machine.busier), or, for a "
                 "workload, where its ratio came from rounds that were not quiet; between_runs.within_run_ci is "
                 "the interval from this run's rounds alone"}};
}

nlohmann::json prep_outputs_json(const PrepRecord& prep) {
    nlohmann::json outputs = nlohmann::json::object();
    for (const TensorSpec& spec : prep.outputs) {
        outputs[spec.name] = {{eval_key::shape, spec.shape}, {eval_key::dtype, to_string(spec.dtype)}};
    }
    return outputs;
}

nlohmann::json prep_json(const RunRecord& record) {
    if (!record.has_prep || record.workloads.empty() || !record.workloads.front().prep) return nullptr;
    nlohmann::json workloads = nlohmann::json::array();
    for (const WorkloadRecord& w : record.workloads) {
        if (!w.prep) continue;
        workloads.push_back({{eval_key::name, w.workload->name},
                             {eval_key::outputs, prep_outputs_json(*w.prep)},
                             {eval_key::mutated, w.prep->mutated},
                             {"ms", w.prep->ms}});
    }
    // The top level mirrors the first workload, for readers of single-workload files.
    const PrepRecord& first = *record.workloads.front().prep;
    return {{eval_key::outputs, prep_outputs_json(first)},
            {eval_key::mutated, first.mutated},
            {"ms", first.ms},
            {eval_key::workloads, std::move(workloads)}};
}

// The comparison applied (its name and threshold: atol and rtol, or the relative
// L2 threshold) and every error measured, whichever comparison applied.
nlohmann::json comparison_json(const ComparisonResult& comparison) {
    nlohmann::json out = {{"comparison", comparison_name(comparison.applied)}};
    if (const auto* tolerance = std::get_if<Tolerance>(&comparison.applied)) {
        out["atol"] = tolerance->atol;
        out["rtol"] = tolerance->rtol;
    } else {
        out["threshold"] = std::get<RelativeL2>(comparison.applied).max;
    }
    out["max_abs_error"] = comparison.max_abs_error;
    out["max_rel_error"] = comparison.max_rel_error;
    // Infinite when only the reference is all zero: JSON has no infinity.
    out["relative_l2_error"] = std::isfinite(comparison.relative_l2_error)
                                   ? nlohmann::json(comparison.relative_l2_error)
                                   : nlohmann::json(nullptr);
    out["mismatches"] = comparison.mismatches;
    out["non_finite"] = comparison.non_finite;
    out[eval_key::passed] = comparison.passed();
    return out;
}

nlohmann::json correctness_json(const RunRecord& record) {
    nlohmann::json outputs = nlohmann::json::object();
    for (const OutputCheck& check : record.outputs) {
        nlohmann::json output = comparison_json(check.comparison);
        output[eval_key::dtype] = to_string(check.spec.dtype);
        if (check.dtype_varies) {
            // Each workload's dtype set its thresholds: performance.workloads[].outputs
            // holds each workload's.
            output[eval_key::dtype] = "per workload";
            for (const char* threshold : {"atol", "rtol", "threshold"}) output.erase(threshold);
        }
        output["start"] = check.start;
        outputs[check.spec.name] = std::move(output);
    }
    return {{eval_key::passed, record.passed()},
            {eval_key::outputs, std::move(outputs)},
            {eval_key::problems, record.problems}};
}

// Each compared output's errors in one workload, over its input variants.
nlohmann::json workload_outputs_json(const RunRecord& record, const Workload& workload) {
    nlohmann::json outputs = nlohmann::json::object();
    for (const OutputCheck& check : record.outputs) {
        if (const auto found = check.workloads.find(workload.name); found != check.workloads.end()) {
            outputs[check.spec.name] = comparison_json(found->second);
        }
    }
    return outputs;
}

nlohmann::json throughput_json(const SideThroughput& t) {
    return {{eval_key::gflops, figure(t.gflops)},
            {eval_key::gbps, figure(t.gbps)},
            {eval_key::peak_dram_bandwidth_fraction, figure(t.peak_dram_bandwidth_fraction)}};
}

// Each side's; null without declared work.
nlohmann::json throughput_json(const std::optional<ThroughputBySide>& t) {
    if (!t) return nullptr;
    return {{eval_key::reference, throughput_json(t->reference)}, {eval_key::student, throughput_json(t->student)}};
}

nlohmann::json work_json(const WorkloadRecord& w) {
    if (!w.work) return nullptr;
    return {{"flops", figure(w.work->flops)}, {"bytes", figure(w.work->bytes)}};
}

// Per side; null where the samples' kernels could not be seen (CUDA under another profiler).
nlohmann::json kernel_set_changed_json(const WorkloadRecord& w) {
    const auto side = [](const std::optional<bool>& changed) -> nlohmann::json {
        if (changed) return *changed;
        return nullptr;
    };
    return {{eval_key::reference, side(w.reference.kernel_set_changed)},
            {eval_key::student, side(w.student.kernel_set_changed)}};
}

// Per side; null where the process's page faults could not be read.
nlohmann::json page_faults_json(const WorkloadRecord& w) {
    const auto side = [](const std::optional<long>& faults) -> nlohmann::json {
        if (faults) return *faults;
        return nullptr;
    };
    return {{eval_key::reference, side(w.reference.page_faults)}, {eval_key::student, side(w.student.page_faults)}};
}

// The spread between runs an interval includes; null when the bench kept no history.
nlohmann::json between_runs_json(const BetweenRuns& spread) {
    if (spread.runs == 0) return nullptr;
    return {{eval_key::runs, spread.runs},
            {eval_key::log_sd, spread.log_sd},
            {eval_key::within_run_ci, interval_json(spread.within)},
            {eval_key::reaches_earlier_runs, spread.reaches_earlier_runs}};
}

// The run's: with how busy the machine was for this run and, at best, for the
// kept ones and other builds' runs on this machine.
nlohmann::json run_between_runs_json(const RunRecord& record) {
    nlohmann::json json = between_runs_json(record.between_runs);
    if (json.is_null() || !record.machine_across_runs) return json;
    const MachineAcrossRuns& machine = *record.machine_across_runs;
    const nlohmann::json earlier =
        machine.earlier_memory_ms ? nlohmann::json(*machine.earlier_memory_ms) : nlohmann::json(nullptr);
    json[eval_key::machine] = {{"memory_ms", machine.memory_ms},
                               {"earlier_memory_ms", earlier},
                               {"earlier_from_other_builds", machine.earlier_from_other_builds},
                               {eval_key::busier, machine.busier()}};
    return json;
}

nlohmann::json noise_floor_json(const std::optional<NoiseFloor>& floor) {
    if (!floor) return nullptr;
    return {{eval_key::side, to_string(floor->side)},
            {eval_key::n_workloads, floor->workloads},
            {eval_key::workloads_called_apart, floor->workloads_called_apart},
            {eval_key::run_called_apart, floor->run_called_apart},
            {eval_key::resolves, floor->resolves}};
}

nlohmann::json performance_json(const RunRecord& record, const RunSummary& summary) {
    nlohmann::json workloads = nlohmann::json::array();
    for (std::size_t i = 0; i < record.workloads.size(); ++i) {
        const WorkloadRecord& w = record.workloads[i];
        const WorkloadSummary& counted = summary.workloads[i];
        const KernelTable& ref_table = w.reference.kernels;
        const KernelTable& stu_table = w.student.kernels;
        workloads.push_back(
            {{eval_key::name, w.workload->name},
             {"params", w.workload->params},
             {"seed", w.workload->seed},
             {eval_key::reference_ms, w.reference.samples.median},
             {eval_key::student_ms, w.student.samples.median},
             {"work", work_json(w)},
             {eval_key::throughput, throughput_json(counted.throughput)},
             {eval_key::ratio, w.ratio.ratio},
             {eval_key::ratio_ci, interval_json(w.ratio)},
             {eval_key::verdict, stats::to_string(w.ratio.verdict())},
             {eval_key::between_runs, between_runs_json(w.between_runs)},
             {eval_key::precision_reached, counted.precision_reached},
             {eval_key::stopping, stopping_json(w, counted)},
             {"wall_time", wall_time_json(w.wall)},
             {"drift", drift_json(w.drift)},
             {"ratio_drift", ratio_drift_json(w.ratio_drift)},
             {"reuse", reuse_json(w.reuse)},
             {eval_key::rounds, rounds_json(w)},
             {"pipelined",
              {{eval_key::reference_ms, w.reference.pipelined_ms},
               {eval_key::student_ms, w.student.pipelined_ms},
               {eval_key::calls,
                {{eval_key::reference, w.reference.pipelined_calls}, {eval_key::student, w.student.pipelined_calls}}}}},
             {"samples",
              {{eval_key::reference, samples_json(w.reference)}, {eval_key::student, samples_json(w.student)}}},
             {eval_key::outputs, workload_outputs_json(record, *w.workload)},
             {eval_key::kernel_set_changed, kernel_set_changed_json(w)},
             {"page_faults", page_faults_json(w)},
             {eval_key::kernels,
              {{eval_key::reference, to_json(ref_table)[eval_key::kernels]},
               {eval_key::student, to_json(stu_table)[eval_key::kernels]}}},
             {eval_key::profiler,
              {{eval_key::reference, to_json(ref_table)[eval_key::profiler]},
               {eval_key::student, to_json(stu_table)[eval_key::profiler]}}}});
    }
    const stats::RatioInterval& run_ratio = record.ratio.value();  // set with the run (harness.cpp)
    return {{"mode", "per_call"},
            {eval_key::n_workloads, record.workloads.size()},
            {eval_key::reference_ms, figure(summary.reference_ms)},
            {eval_key::student_ms, figure(summary.student_ms)},
            {eval_key::throughput, throughput_json(summary.throughput)},
            {eval_key::ratio, run_ratio.ratio},
            {eval_key::ratio_ci, interval_json(run_ratio)},
            {eval_key::verdict, stats::to_string(run_ratio.verdict())},
            {eval_key::between_runs, run_between_runs_json(record)},
            {eval_key::precision_reached, summary.precision_reached},
            {"drift_flagged", summary.drift_flagged},
            {eval_key::a_a, noise_floor_json(summary.noise_floor)},
            {eval_key::stopping, stopping_rule_json(record.stopping)},
            {eval_key::prep, prep_json(record)},
            {eval_key::workloads, std::move(workloads)}};
}

}  // namespace

nlohmann::json to_eval_json(const RunRecord& record) {
    return {{eval_key::schema_version, eval_schema_version},
            {eval_key::operator_name, record.operator_name},
            {eval_key::contract, record.contract},
            {eval_key::contract_digest,
             record.contract_digest.empty() ? nlohmann::json() : nlohmann::json(record.contract_digest)},
            {eval_key::backend, to_string(record.backend)},
            {eval_key::device, record.device},
            {eval_key::build, record.build},
            {eval_key::launch, record.launch},
            {eval_key::correctness, correctness_json(record)},
            {eval_key::notices, record.notices},
            {eval_key::performance, record.complete ? performance_json(record, summarize(record)) : nullptr}};
}

nlohmann::json skipped_eval_json(const std::string& operator_name, Backend backend, const std::string& reason,
                                 const nlohmann::json& build, const nlohmann::json& launch) {
    return {{eval_key::schema_version, eval_schema_version},
            {eval_key::operator_name, operator_name},
            {eval_key::backend, to_string(backend)},
            {eval_key::skipped, {{eval_key::reason, reason}}},
            {eval_key::build, build},
            {eval_key::launch, launch},
            {eval_key::correctness, nullptr},
            {eval_key::performance, nullptr}};
}

void write_eval(const std::filesystem::path& file, const nlohmann::json& eval) {
    // Serialised first: a document that cannot be written (invalid UTF-8 in a
    // name) throws before the old file is touched.
    std::string text;
    try {
        text = eval.dump(2) + "\n";
    } catch (const nlohmann::json::exception& e) {
        throw FileError(file.string() + ": cannot write it: " + e.what());
    }
    write_file_atomically(file, text);
}

}  // namespace forge::bench
