#include "forge/eval/run_history.hpp"

#include <cmath>
#include <utility>

#include "eval_reader.hpp"

namespace forge {

namespace {

using eval_detail::json;
using eval_detail::KeyPath;
using eval_detail::Reader;

// What a bench's history file holds, for the messages.
constexpr std::string_view history_shape =
    "a bench's run history {\"schema\": 2, \"benches\": [{\"bench\": ..., \"runs\": [{\"run\": {\"log_ratio\": ..., "
    "\"standard_error\": ...}, ...}]}]}; the bench neither reads nor replaces such a file: move it away to start a new "
    "history";

double finite_number(const Reader& reader, const json& object, const KeyPath& at, std::string_view key) {
    const json* value = Reader::member(object, key);
    if (!value || !value->is_number() || !std::isfinite(value->get<double>())) {
        reader.fail(at / key, (value ? std::string("is ") + eval_detail::describe(*value) : std::string("is missing")) +
                                  ", expected a finite number; the file is not " + std::string(history_shape));
    }
    return value->get<double>();
}

std::vector<stats::RunEstimate> kept_runs(const Reader& reader, const json& runs, const KeyPath& at) {
    if (!runs.is_array())
        reader.fail(at, std::string("is ") + eval_detail::describe(runs) + ", expected an array of runs");
    std::vector<stats::RunEstimate> out;
    for (std::size_t i = 0; i < runs.size(); ++i) {
        const json& entry = runs[i];
        const json* run = entry.is_object() ? Reader::member(entry, "run") : nullptr;
        if (!run || !run->is_object()) {
            reader.fail(at / i, "holds no \"run\" object {\"log_ratio\", \"standard_error\"}; the file is not " +
                                    std::string(history_shape));
        }
        const stats::RunEstimate kept{.log_ratio = finite_number(reader, *run, at / i / "run", "log_ratio"),
                                      .standard_error = finite_number(reader, *run, at / i / "run", "standard_error")};
        if (kept.standard_error < 0.0) {
            reader.fail(at / i / "run" / "standard_error", "is negative, expected a standard error >= 0");
        }
        out.push_back(kept);
    }
    return out;
}

}  // namespace

std::optional<std::filesystem::path> run_history_path(const EvalReport& eval) {
    if (!eval.operator_name || eval.operator_name->empty()) return std::nullopt;
    const std::filesystem::path name = *eval.operator_name + ".runs.json";
    if (name.has_parent_path()) return std::nullopt;  // the bench keeps no history for such a name either
    return std::filesystem::path(eval.path).parent_path() / name;
}

RunHistory parse_run_history(std::string_view text, const std::string& path, double ratio) {
    const json root = eval_detail::parse_json_file(text, path, "a bench's run history is JSON");
    const Reader reader(text, path);
    const KeyPath top;
    if (!root.is_object())
        reader.fail(top,
                    std::string("holds ") + eval_detail::describe(root) + ", expected " + std::string(history_shape));
    const json* schema = Reader::member(root, "schema");
    // Each history's runs, in the file's order (the last written last).
    std::vector<std::vector<stats::RunEstimate>> histories;
    if (schema && schema->is_number() && schema->get<double>() == 1.0) {
        const json* runs = Reader::member(root, "runs");
        if (!runs) reader.fail(top / "runs", "is missing; the file is not " + std::string(history_shape));
        histories.push_back(kept_runs(reader, *runs, top / "runs"));
    } else if (schema && schema->is_number() && schema->get<double>() == 2.0) {
        const json* benches = Reader::member(root, "benches");
        if (!benches || !benches->is_array()) {
            reader.fail(top / "benches", "is not an array of histories; the file is not " + std::string(history_shape));
        }
        for (std::size_t i = 0; i < benches->size(); ++i) {
            const json& bench = (*benches)[i];
            const json* runs = bench.is_object() ? Reader::member(bench, "runs") : nullptr;
            if (!runs)
                reader.fail(top / "benches" / i, "holds no \"runs\"; the file is not " + std::string(history_shape));
            histories.push_back(kept_runs(reader, *runs, top / "benches" / i / "runs"));
        }
    } else {
        reader.fail(top / "schema",
                    (schema ? std::string("is ") + eval_detail::describe(*schema) : std::string("is missing")) +
                        ", expected 1 or 2; the file is not " + std::string(history_shape));
    }
    RunHistory history{.path = path, .runs = {}, .histories = histories.size()};
    // The bench wrote this run last into its own history with the log of the
    // ratio eval.json holds: the latest history ending there is this run's.
    const double log_ratio = std::log(ratio);
    for (auto it = histories.rbegin(); it != histories.rend(); ++it) {
        if (!it->empty() && std::abs(it->back().log_ratio - log_ratio) <= 1e-12 * std::max(1.0, std::abs(log_ratio))) {
            history.runs = std::move(*it);
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
