// The run history a bench keeps beside its eval.json (`<operator>.runs.json`):
// the file's one format, which the bench reads and writes
// (src/bench/results/run_history.cpp decides what it keeps) and reports read:
// each kept run's ratio on the log scale with the standard error its interval
// implied, oldest first, this eval's own run last.
//
//     std::optional<RunHistory> history = read_run_history(eval);  // no file: nullopt
//     for (const stats::RunEstimate& run : history->runs) stats::interval_of(run);
#pragma once

#include <cstddef>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "forge/eval/eval.hpp"
#include "forge/stats/between_runs.hpp"

namespace forge {

// One run as a history keeps it.
struct KeptRun {
    stats::RunEstimate run;  // the geometric mean's
    std::map<std::string, stats::RunEstimate, std::less<>> workloads;
    // How busy the machine was for the run: the median memory calibration of
    // the rounds its ratios came from, in ms (absent from files written before
    // it was kept).
    std::optional<double> memory_ms;
};

// One bench's kept runs, oldest first. `bench` is its identity: its build and
// the machine or GPU it ran on. `machine`, that machine alone ("host H", with
// " gpu UUID" on CUDA): other builds' runs there tell a rebuilt bench how quiet
// the machine can be (empty in files written before it was kept, and where
// the host is unknown).
struct BenchHistory {
    std::string bench;
    std::string machine;
    std::vector<KeptRun> runs;
};

// Every bench's history `text` holds, in the file's order (the last written
// last); a schema 1 file holds one. `path` labels messages. Throws EvalError
// naming the file, the line and the key when it is not valid JSON or not a
// history (each run's log_ratio a finite number, its standard_error a finite
// number >= 0, a memory_ms a positive number, a machine a string).
[[nodiscard]] std::vector<BenchHistory> parse_run_histories(std::string_view text, const std::string& path);

// The text of a history file (schema 2) holding `histories` in that order.
[[nodiscard]] std::string run_histories_text(const std::vector<BenchHistory>& histories);

struct RunHistory {
    std::string path;  // the file
    // The kept runs of this eval's bench, oldest first: the file keeps one
    // history per bench build and machine (or GPU), and the one read is the
    // history whose last run is this eval's ratio. Empty when none is.
    // Each run's "run": {"log_ratio", "standard_error"} (the standard error of
    // the log-ratio from the run's rounds alone; stats::interval_of draws it).
    std::vector<stats::RunEstimate> runs;
    std::size_t histories = 0;  // how many the file holds, for a reader told none is this run's
};

// `<eval's directory>/<operator>.runs.json`, as the bench names it; nullopt for
// an eval without an operator name, or one that is a path.
[[nodiscard]] std::optional<std::filesystem::path> run_history_path(const EvalReport& eval);

// The history beside `eval` (run_history_path), or nullopt where there is no
// such file, or `eval` has no ratio (a skipped or failed bench joins none).
// Throws EvalError as parse_run_histories does.
[[nodiscard]] std::optional<RunHistory> read_run_history(const EvalReport& eval);

// Parses history text; `path` labels messages. Finds the history ending in
// `ratio` (the run's raw ratio) as read_run_history does.
[[nodiscard]] RunHistory parse_run_history(std::string_view text, const std::string& path, double ratio);

}  // namespace forge
