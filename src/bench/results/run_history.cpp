#include "results/run_history.hpp"

#include <cmath>
#include <system_error>
#include <utility>

#include <nlohmann/json.hpp>

#include "forge/io/file.hpp"

namespace forge::bench {

namespace {

constexpr int history_schema = 1;

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

}  // namespace

std::vector<HistoryEntry> read_history(const std::filesystem::path& path, std::string_view identity) {
    std::error_code error;
    if (!std::filesystem::exists(path, error)) return {};
    const auto unreadable = [&](const std::string& why) {
        return HistoryError(path.string() + ": not a bench history (" + why +
                            "); the bench keeps its earlier runs there: delete the file to start afresh");
    };
    try {
        const nlohmann::json json = nlohmann::json::parse(read_file(path));
        if (json.at("schema").get<int>() != history_schema) throw unreadable("an unknown schema");
        if (json.at("bench").get<std::string>() != identity) return {};
        std::vector<HistoryEntry> entries;
        for (const nlohmann::json& run : json.at("runs")) {
            HistoryEntry entry{.run = estimate_from(run.at("run")), .workloads = {}, .memory_ms = {}};
            for (const auto& [name, estimate] : run.at("workloads").items()) {
                entry.workloads.emplace(name, estimate_from(estimate));
            }
            if (const auto reading = run.find("memory_ms"); reading != run.end()) {
                entry.memory_ms = reading->get<double>();
                if (!(*entry.memory_ms > 0.0) || !std::isfinite(*entry.memory_ms)) {
                    throw std::invalid_argument("a memory_ms that is not a positive number");
                }
            }
            entries.push_back(std::move(entry));
        }
        return entries;
    } catch (const FileError& e) {
        throw HistoryError(e.what());
    } catch (const nlohmann::json::exception& e) {
        throw unreadable(e.what());
    } catch (const std::invalid_argument& e) {
        throw unreadable(e.what());
    }
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
    const nlohmann::json json = {{"schema", history_schema}, {"bench", std::string(identity)}, {"runs", runs}};
    try {
        write_file_atomically(path, json.dump(1) + "\n");
    } catch (const FileError& e) {
        throw HistoryError(e.what());
    } catch (const nlohmann::json::exception& e) {
        throw HistoryError(path.string() + ": cannot write it: " + e.what());
    }
}

}  // namespace forge::bench
