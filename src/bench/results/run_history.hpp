// The bench's earlier runs on this machine: each run's ratio and each
// workload's, with the standard errors their intervals imply, kept in a file
// beside eval.json (RunOptions::history_path) so the next run can see how far
// its ratios move between runs (forge/stats/between_runs.hpp). The file's
// format is forge/eval/run_history.hpp's, which reports read; what is kept and
// for how long is decided here.
#pragma once

#include <cstddef>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string_view>
#include <vector>

#include "forge/eval/run_history.hpp"

namespace forge::bench {

// How many runs a history keeps: enough for a between-run variance, few enough
// that a machine's older state ages out.
inline constexpr std::size_t kept_runs = 10;

// How many benches' histories one file keeps: a bench's identity names its
// build and the machine or GPU it ran on, so a build directory that several
// nodes of a cluster run from keeps each node's runs apart.
inline constexpr std::size_t kept_histories = 16;

struct HistoryError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// What `path` keeps of the runs before this one, read in one pass.
struct EarlierRuns {
    // The bench `identity`'s own runs, oldest first: none when the file does not
    // exist or holds none for it (another build of the bench, another machine or
    // GPU, or how it runs changed).
    std::vector<KeptRun> own;
    // The lowest memory calibration of the runs on `machine` of other benches
    // than `identity` (most often other builds of this one, whose own history
    // starts afresh): how quiet this machine has been. None where `machine` is
    // empty, or no such run kept one.
    std::optional<double> quietest_elsewhere;
};

// Throws HistoryError naming the file when it cannot be read or is not a history.
[[nodiscard]] EarlierRuns read_earlier_runs(const std::filesystem::path& path, std::string_view identity,
                                            std::string_view machine);

// read_earlier_runs' `own` alone.
[[nodiscard]] std::vector<KeptRun> read_history(const std::filesystem::path& path, std::string_view identity);

// Writes the last kept_runs of `runs` as `identity`'s history on `machine`,
// atomically, keeping the file's other histories (up to kept_histories in all).
// Throws HistoryError naming the file.
void write_history(const std::filesystem::path& path, std::string_view identity, std::string_view machine,
                   std::vector<KeptRun> runs);

}  // namespace forge::bench
