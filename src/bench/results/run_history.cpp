#include "results/run_history.hpp"

#include <algorithm>
#include <cstddef>
#include <string>
#include <system_error>
#include <utility>

#include "forge/eval/eval.hpp"
#include "forge/io/file.hpp"

namespace forge::bench {

namespace {

// Every bench's history the file holds, in the order they were last written;
// none when there is no file.
std::vector<BenchHistory> histories_in(const std::filesystem::path& path) {
    std::error_code error;
    if (!std::filesystem::exists(path, error)) return {};
    try {
        return parse_run_histories(read_file(path), path.string());
    } catch (const FileError& e) {
        throw HistoryError(e.what());
    } catch (const EvalError& e) {
        throw HistoryError(e.what());
    }
}

}  // namespace

EarlierRuns read_earlier_runs(const std::filesystem::path& path, std::string_view identity, std::string_view machine) {
    EarlierRuns earlier;
    for (BenchHistory& history : histories_in(path)) {
        if (history.bench == identity) {
            earlier.own = std::move(history.runs);
            continue;
        }
        if (machine.empty() || history.machine != machine) continue;
        for (const KeptRun& run : history.runs) {
            if (!run.memory_ms) continue;
            earlier.quietest_elsewhere = std::min(earlier.quietest_elsewhere.value_or(*run.memory_ms), *run.memory_ms);
        }
    }
    return earlier;
}

std::vector<KeptRun> read_history(const std::filesystem::path& path, std::string_view identity) {
    return read_earlier_runs(path, identity, {}).own;
}

void write_history(const std::filesystem::path& path, std::string_view identity, std::string_view machine,
                   std::vector<KeptRun> runs) {
    if (runs.size() > kept_runs) runs.erase(runs.begin(), runs.end() - kept_runs);
    // The other benches' histories stay (a build directory that several nodes or
    // GPUs run from), this one's last, the least recently written dropped first.
    std::vector<BenchHistory> histories = histories_in(path);
    std::erase_if(histories, [&](const BenchHistory& history) { return history.bench == identity; });
    histories.push_back({.bench = std::string(identity), .machine = std::string(machine), .runs = std::move(runs)});
    if (histories.size() > kept_histories) {
        histories.erase(histories.begin(), histories.end() - static_cast<std::ptrdiff_t>(kept_histories));
    }
    try {
        write_file_atomically(path, run_histories_text(histories));
    } catch (const FileError& e) {
        throw HistoryError(e.what());
    }
}

}  // namespace forge::bench
