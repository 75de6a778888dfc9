// eval.json, schema version 1 (what `forge prep`, `forge credit` and `forge report`
// read): built from a run's record and written atomically (a reader sees the old
// file or the new one, never half).
#pragma once

#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include "forge/eval/eval.hpp"  // eval_schema_version: the version the readers read

#include "results/record.hpp"

namespace forge::bench {

[[nodiscard]] nlohmann::json to_eval_json(const RunRecord& record);

// A run that measured nothing because the backend cannot run here (no device):
// "skipped": {"reason"}, correctness and performance null; "build" still says how
// the bench was built (a CUDA card's architectures, seen on a machine without a GPU)
// and "launch" where it ran (a node without a GPU, named).
[[nodiscard]] nlohmann::json skipped_eval_json(const std::string& operator_name, Backend backend,
                                               const std::string& reason, const nlohmann::json& build,
                                               const nlohmann::json& launch);

// Throws forge::FileError (the old file untouched) when it cannot be written.
void write_eval(const std::filesystem::path& file, const nlohmann::json& eval);

}  // namespace forge::bench
