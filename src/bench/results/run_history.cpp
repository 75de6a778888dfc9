#include "results/run_history.hpp"

#include <cmath>
#include <cstddef>
#include <system_error>
#include <utility>

#include <nlohmann/json.hpp>

#include "forge/io/file.hpp"

namespace forge::bench {

namespace {

constexpr int history_schema = 2;  // 1: one bench's runs alone (still read)

nlohmann::json estimate_json(const stats::RunEstimate& estimate) {
    return {{"log_ratio", estimate.log_ratio}, {"standard_error", estimate.standard_error}};
}

stats::RunEstimate estimate_from(const nlohmann::json& json) {
    stats::RunEstimate estimate{.log_ratio = json.at("log_ratio").get<double>(),
                                .standard_error = json.at("standard_error").get<double>()};
    if (!std::isfinite(estimate.log_ratio) || !std::isfinite(estimate.standard_error) ||
        estimate.standard_error < 0.0) {
        throw std::invalid_argument("an estimate that is not a finite log-ratio with a standard error >= 0");
    }
    return estimate;
}

// Each history's runs as the file holds them, by bench identity, in the order
// they were last written. A schema 1 file holds one history.
std::vector<std::pair<std::string, nlohmann::json>> histories_in(const std::filesystem::path& path) {
    std::vector<std::pair<std::string, nlohmann::json>> histories;
    std::error_code error;
    if (!std::filesystem::exists(path, error)) return histories;
    const auto unreadable = [&](const std::string& why) {
        return HistoryError(path.string() + ": not a bench history (" + why +
                            "); the bench keeps its earlier runs there: delete the file to start afresh");
    };
    try {
        const nlohmann::json json = nlohmann::json::parse(read_file(path));
        const int schema = json.at("schema").get<int>();
        if (schema == 1) {
            histories.emplace_back(json.at("bench").get<std::string>(), json.at("runs"));
        } else if (schema == history_schema) {
            for (const nlohmann::json& history : json.at("benches")) {
                histories.emplace_back(history.at("bench").get<std::string>(), history.at("runs"));
            }
        } else {
            throw unreadable("an unknown schema");
        }
        for (const auto& [identity, runs] : histories) {
            for (const nlohmann::json& run : runs) {
                (void)estimate_from(run.at("run"));
                for (const auto& [name, estimate] : run.at("workloads").items()) (void)estimate_from(estimate);
                if (const auto reading = run.find("memory_ms"); reading != run.end()) {
                    const double memory_ms = reading->get<double>();
                    if (!(memory_ms > 0.0) || !std::isfinite(memory_ms)) {
                        throw std::invalid_argument("a memory_ms that is not a positive number");
                    }
                }
            }
        }
        return histories;
    } catch (const FileError& e) {
        throw HistoryError(e.what());
    } catch (const nlohmann::json::exception& e) {
        throw unreadable(e.what());
    } catch (const std::invalid_argument& e) {
        throw unreadable(e.what());
    }
}

}  // namespace

std::vector<HistoryEntry> read_history(const std::filesystem::path& path, std::string_view identity) {
    for (const auto& [bench, runs] : histories_in(path)) {
        if (bench != identity) continue;
        std::vector<HistoryEntry> entries;
        for (const nlohmann::json& run : runs) {
            HistoryEntry entry{.run = estimate_from(run.at("run")), .workloads = {}, .memory_ms = {}};
            for (const auto& [name, estimate] : run.at("workloads").items()) {
                entry.workloads.emplace(name, estimate_from(estimate));
            }
            if (const auto reading = run.find("memory_ms"); reading != run.end()) {
                entry.memory_ms = reading->get<double>();
            }
            entries.push_back(std::move(entry));
        }
        return entries;
    }
    return {};
}

void write_history(const std::filesystem::path& path, std::string_view identity, std::vector<HistoryEntry> entries) {
    if (entries.size() > kept_runs) entries.erase(entries.begin(), entries.end() - kept_runs);
    nlohmann::json runs = nlohmann::json::array();
    for (const HistoryEntry& entry : entries) {
        nlohmann::json workloads = nlohmann::json::object();
        for (const auto& [name, estimate] : entry.workloads) workloads[name] = estimate_json(estimate);
        nlohmann::json run = {{"run", estimate_json(entry.run)}, {"workloads", std::move(workloads)}};
        if (entry.memory_ms) run["memory_ms"] = *entry.memory_ms;
        runs.push_back(std::move(run));
    }
    // The other benches' histories stay (a build directory that several nodes or
    // GPUs run from), this one's last, the least recently written dropped first.
    std::vector<std::pair<std::string, nlohmann::json>> histories = histories_in(path);
    std::erase_if(histories, [&](const auto& history) { return history.first == identity; });
    histories.emplace_back(std::string(identity), std::move(runs));
    if (histories.size() > kept_histories) {
        histories.erase(histories.begin(), histories.end() - static_cast<std::ptrdiff_t>(kept_histories));
    }
    nlohmann::json benches = nlohmann::json::array();
    for (auto& [bench, bench_runs] : histories) {
        benches.push_back({{"bench", bench}, {"runs", std::move(bench_runs)}});
    }
    const nlohmann::json json = {{"schema", history_schema}, {"benches", std::move(benches)}};
    try {
        write_file_atomically(path, json.dump(1) + "\n");
    } catch (const FileError& e) {
        throw HistoryError(e.what());
    } catch (const nlohmann::json::exception& e) {
        throw HistoryError(path.string() + ": cannot write it: " + e.what());
    }
}

}  // namespace forge::bench
