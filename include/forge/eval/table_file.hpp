// A per-kernel table file, as `forge table import` writes it from an Nsight
// Compute or Nsight Systems export: {"kernels": [rows], "profiler": {"total_ns",
// "calls"}}. Read the way eval.json's tables are read, as one side's readings
// without a timed reading, so a contract's regexes (forge check) and the credit
// (forge credit) can be held to a profile taken outside the bench.
#pragma once

#include <filesystem>
#include <string_view>

#include "forge/eval/eval.hpp"

namespace forge {

// EvalError when the file is missing, unreadable or malformed (naming the file,
// the line and the key).
[[nodiscard]] SideReading load_table_file(const std::filesystem::path& file);

// Parses table file text; `path` labels messages.
[[nodiscard]] SideReading parse_table_file(std::string_view text, std::string_view path);

}  // namespace forge
