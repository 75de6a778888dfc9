#include "eval_writer.hpp"

#include <string>
#include <vector>

#include "forge/io/file.hpp"

namespace forge::bench {

namespace {

nlohmann::json samples_json(const SideRecord& side) {
    return {{"n", side.samples.n},
            {"median_ms", side.samples.median},
            {"min_ms", side.samples.min},
            {"q1_ms", side.samples.q1},
            {"q3_ms", side.samples.q3},
            {"max_ms", side.samples.max},
            {"stable", side.stable}};
}

nlohmann::json prep_outputs_json(const PrepRecord& prep) {
    nlohmann::json outputs = nlohmann::json::object();
    for (const TensorSpec& spec : prep.outputs) {
        outputs[spec.name] = {{"shape", spec.shape}, {"dtype", to_string(spec.dtype)}};
    }
    return outputs;
}

nlohmann::json prep_json(const RunRecord& record) {
    if (!record.has_prep || record.workloads.empty() || !record.workloads.front().prep) return nullptr;
    nlohmann::json workloads = nlohmann::json::array();
    for (const WorkloadRecord& w : record.workloads) {
        if (!w.prep) continue;
        workloads.push_back({{"name", w.workload->name},
                             {"outputs", prep_outputs_json(*w.prep)},
                             {"mutated", w.prep->mutated},
                             {"ms", w.prep->ms}});
    }
    // The top level mirrors the first workload, for readers of single-workload files.
    const PrepRecord& first = *record.workloads.front().prep;
    return {{"outputs", prep_outputs_json(first)},
            {"mutated", first.mutated},
            {"ms", first.ms},
            {"workloads", std::move(workloads)}};
}

nlohmann::json correctness_json(const RunRecord& record) {
    nlohmann::json outputs = nlohmann::json::object();
    for (const OutputCheck& check : record.outputs) {
        outputs[check.spec.name] = {{"max_abs_error", check.comparison.max_abs_error},
                                    {"max_rel_error", check.comparison.max_rel_error},
                                    {"atol", check.tolerance.atol},
                                    {"rtol", check.tolerance.rtol},
                                    {"mismatches", check.comparison.mismatches},
                                    {"dtype", to_string(check.spec.dtype)},
                                    {"passed", check.comparison.passed()}};
    }
    return {{"passed", record.passed()}, {"outputs", std::move(outputs)}, {"problems", record.problems}};
}

// The verdict's geometric mean; null when a reading is not positive (a clock that
// could not resolve the call), rather than a made-up figure.
nlohmann::json geomean_or_null(const std::vector<double>& values) {
    for (double value : values) {
        if (!(value > 0.0)) return nullptr;
    }
    return stats::geometric_mean(values);
}

nlohmann::json ratio_or_null(double reference_ms, double student_ms) {
    if (!(reference_ms > 0.0) || !(student_ms > 0.0)) return nullptr;
    return reference_ms / student_ms;
}

// Per side; null where the samples' kernels could not be seen (CUDA under another profiler).
nlohmann::json kernel_set_changed_json(const WorkloadRecord& w) {
    const auto side = [](const std::optional<bool>& changed) -> nlohmann::json {
        if (changed) return *changed;
        return nullptr;
    };
    return {{"reference", side(w.reference.kernel_set_changed)}, {"student", side(w.student.kernel_set_changed)}};
}

nlohmann::json performance_json(const RunRecord& record) {
    if (!record.complete) return nullptr;
    std::vector<double> reference_ms;
    std::vector<double> student_ms;
    std::vector<double> ratios;
    nlohmann::json workloads = nlohmann::json::array();
    for (const WorkloadRecord& w : record.workloads) {
        const double ref = w.reference.samples.median;
        const double stu = w.student.samples.median;
        reference_ms.push_back(ref);
        student_ms.push_back(stu);
        ratios.push_back(stu > 0.0 ? ref / stu : 0.0);
        const KernelTable& ref_table = w.reference.kernels;
        const KernelTable& stu_table = w.student.kernels;
        workloads.push_back(
            {{"name", w.workload->name},
             {"params", w.workload->params},
             {"seed", w.workload->seed},
             {"reference_ms", ref},
             {"student_ms", stu},
             {"ratio", ratio_or_null(ref, stu)},
             {"pipelined",
              {{"reference_ms", w.reference.pipelined_ms},
               {"student_ms", w.student.pipelined_ms},
               {"calls", {{"reference", w.reference.pipelined_calls}, {"student", w.student.pipelined_calls}}}}},
             {"samples", {{"reference", samples_json(w.reference)}, {"student", samples_json(w.student)}}},
             {"kernel_set_changed", kernel_set_changed_json(w)},
             {"kernels", {{"reference", to_json(ref_table)["kernels"]}, {"student", to_json(stu_table)["kernels"]}}},
             {"profiler", {{"reference", to_json(ref_table)["profiler"]}, {"student", to_json(stu_table)["profiler"]}}}});
    }
    return {{"mode", "per_call"},
            {"n_workloads", record.workloads.size()},
            {"reference_ms", geomean_or_null(reference_ms)},
            {"student_ms", geomean_or_null(student_ms)},
            {"ratio", geomean_or_null(ratios)},
            {"prep", prep_json(record)},
            {"workloads", std::move(workloads)}};
}

}  // namespace

nlohmann::json to_eval_json(const RunRecord& record) {
    return {{"schema_version", eval_schema_version},
            {"operator", record.operator_name},
            {"contract", record.contract},
            {"backend", to_string(record.backend)},
            {"device", record.device},
            {"correctness", correctness_json(record)},
            {"notices", record.notices},
            {"performance", performance_json(record)}};
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
