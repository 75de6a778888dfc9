#include "forge/eval/run_history.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "eval_reader.hpp"

namespace forge {

namespace {

using eval_detail::json;
using eval_detail::KeyPath;
using eval_detail::Reader;

constexpr int history_schema = 2;  // 1: one bench's runs alone (still read)

// What to do about a file that is not a history, for every message.
constexpr std::string_view history_fix =
    "the bench keeps its earlier runs there and neither reads nor replaces another file: delete the file to start "
    "afresh";

// What a bench's history file holds, for the messages.
std::string history_shape() {
    return "a bench's run history {\"schema\": 2, \"benches\": [{\"bench\": ..., \"runs\": [{\"run\": "
           "{\"log_ratio\": ..., \"standard_error\": ...}, \"workloads\": {...}}, ...]}]}; " +
           std::string(history_fix);
}

double finite_number(const Reader& reader, const json& object, const KeyPath& at, std::string_view key) {
    const json* value = Reader::member(object, key);
    if (!value || !value->is_number() || !std::isfinite(value->get<double>())) {
        reader.fail(at / key, (value ? std::string("is ") + eval_detail::describe(*value) : std::string("is missing")) +
                                  ", expected a finite number; the file is not " + history_shape());
    }
    return value->get<double>();
}

// {"log_ratio": ..., "standard_error": ...} at `at`.
stats::RunEstimate estimate_at(const Reader& reader, const json* estimate, const KeyPath& at) {
    if (!estimate || !estimate->is_object()) {
        reader.fail(at, "is not an object {\"log_ratio\", \"standard_error\"}; the file is not " + history_shape());
    }
    const stats::RunEstimate kept{.log_ratio = finite_number(reader, *estimate, at, "log_ratio"),
                                  .standard_error = finite_number(reader, *estimate, at, "standard_error")};
    if (kept.standard_error < 0.0)
        reader.fail(at / "standard_error", "is negative, expected a standard error >= 0; " + std::string(history_fix));
    return kept;
}

KeptRun kept_run(const Reader& reader, const json& entry, const KeyPath& at) {
    if (!entry.is_object()) reader.fail(at, "is not a run; the file is not " + history_shape());
    KeptRun kept{
        .run = estimate_at(reader, Reader::member(entry, "run"), at / "run"), .workloads = {}, .memory_ms = {}};
    if (const json* workloads = Reader::member(entry, "workloads")) {
        if (!workloads->is_object()) {
            reader.fail(at / "workloads", "is " + eval_detail::describe(*workloads) +
                                              ", expected an object of each workload's estimate; " +
                                              std::string(history_fix));
        }
        for (const auto& [name, estimate] : workloads->items()) {
            kept.workloads.emplace(name, estimate_at(reader, &estimate, at / "workloads" / name));
        }
    }
    if (Reader::member(entry, "memory_ms") != nullptr) {
        const double memory_ms = finite_number(reader, entry, at, "memory_ms");
        if (!(memory_ms > 0.0))
            reader.fail(at / "memory_ms", "is not positive, expected a time in ms; " + std::string(history_fix));
        kept.memory_ms = memory_ms;
    }
    return kept;
}

BenchHistory bench_history(const Reader& reader, const json& object, const KeyPath& at) {
    const json* bench = Reader::member(object, "bench");
    if (!bench || !bench->is_string()) {
        reader.fail(at / "bench", "is not the bench's identity (a string); the file is not " + history_shape());
    }
    const json* runs = Reader::member(object, "runs");
    if (!runs || !runs->is_array()) {
        reader.fail(at / "runs", "is not an array of runs; the file is not " + history_shape());
    }
    BenchHistory history{.bench = bench->get<std::string>(), .machine = {}, .runs = {}};
    if (const json* machine = Reader::member(object, "machine")) {
        if (!machine->is_string()) {
            reader.fail(at / "machine", "is " + eval_detail::describe(*machine) +
                                            ", expected the machine the runs were on (a string); " +
                                            std::string(history_fix));
        }
        history.machine = machine->get<std::string>();
    }
    for (std::size_t i = 0; i < runs->size(); ++i)
        history.runs.push_back(kept_run(reader, (*runs)[i], at / "runs" / i));
    return history;
}

json estimate_json(const stats::RunEstimate& estimate) {
    return {{"log_ratio", estimate.log_ratio}, {"standard_error", estimate.standard_error}};
}

}  // namespace

std::vector<BenchHistory> parse_run_histories(std::string_view text, const std::string& path) {
    const json root =
        eval_detail::parse_json_file(text, path, "a bench's run history is JSON; " + std::string(history_fix));
    const Reader reader(text, path);
    const KeyPath top;
    if (!root.is_object())
        reader.fail(top, std::string("holds ") + eval_detail::describe(root) + ", expected " + history_shape());
    const json* schema = Reader::member(root, "schema");
    std::vector<BenchHistory> histories;
    if (schema && schema->is_number() && schema->get<double>() == 1.0) {
        histories.push_back(bench_history(reader, root, top));
    } else if (schema && schema->is_number() && schema->get<double>() == static_cast<double>(history_schema)) {
        const json* benches = Reader::member(root, "benches");
        if (!benches || !benches->is_array()) {
            reader.fail(top / "benches", "is not an array of histories; the file is not " + history_shape());
        }
        for (std::size_t i = 0; i < benches->size(); ++i) {
            const json& bench = (*benches)[i];
            if (!bench.is_object()) {
                reader.fail(top / "benches" / i, "is not a history; the file is not " + history_shape());
            }
            histories.push_back(bench_history(reader, bench, top / "benches" / i));
        }
    } else {
        reader.fail(top / "schema",
                    (schema ? std::string("is ") + eval_detail::describe(*schema) : std::string("is missing")) +
                        ", expected 1 or 2; the file is not " + history_shape());
    }
    return histories;
}

std::string run_histories_text(const std::vector<BenchHistory>& histories) {
    json benches = json::array();
    for (const BenchHistory& history : histories) {
        json runs = json::array();
        for (const KeptRun& kept : history.runs) {
            json workloads = json::object();
            for (const auto& [name, estimate] : kept.workloads) workloads[name] = estimate_json(estimate);
            json run = {{"run", estimate_json(kept.run)}, {"workloads", std::move(workloads)}};
            if (kept.memory_ms) run["memory_ms"] = *kept.memory_ms;
            runs.push_back(std::move(run));
        }
        json bench = {{"bench", history.bench}};
        if (!history.machine.empty()) bench["machine"] = history.machine;
        bench["runs"] = std::move(runs);
        benches.push_back(std::move(bench));
    }
    const json root = {{"schema", history_schema}, {"benches", std::move(benches)}};
    return root.dump(1) + "\n";
}

std::optional<std::filesystem::path> run_history_path(const EvalReport& eval) {
    if (!eval.operator_name || eval.operator_name->empty()) return std::nullopt;
    const std::filesystem::path name = *eval.operator_name + ".runs.json";
    if (name.has_parent_path()) return std::nullopt;  // the bench keeps no history for such a name either
    return std::filesystem::path(eval.path).parent_path() / name;
}

RunHistory parse_run_history(std::string_view text, const std::string& path, double ratio) {
    const std::vector<BenchHistory> histories = parse_run_histories(text, path);
    RunHistory history{.path = path, .runs = {}, .histories = histories.size()};
    // The bench wrote this run last into its own history with the log of the
    // ratio eval.json holds: the latest history ending there is this run's.
    const double log_ratio = std::log(ratio);
    for (auto it = histories.rbegin(); it != histories.rend(); ++it) {
        if (!it->runs.empty() &&
            std::abs(it->runs.back().run.log_ratio - log_ratio) <= 1e-12 * std::max(1.0, std::abs(log_ratio))) {
            for (const KeptRun& kept : it->runs) history.runs.push_back(kept.run);
            break;
        }
    }
    return history;
}

std::optional<RunHistory> read_run_history(const EvalReport& eval) {
    const std::optional<std::filesystem::path> file = run_history_path(eval);
    if (!file || !eval.ratio || !(*eval.ratio > 0.0)) return std::nullopt;
    const std::optional<std::string> text = eval_detail::read_json_file(*file, "the bench's run history");
    if (!text) return std::nullopt;
    return parse_run_history(*text, file->string(), *eval.ratio);
}

}  // namespace forge
