// How findings are shown: one compiler-style line each for people, JSON for machines.
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "forge/contract/check.hpp"
#include "forge/contract/finding.hpp"

namespace forge {

// "path:12:1: error[entry-duplicate]: message" (line and column omitted when unknown).
[[nodiscard]] std::string format_finding(const Finding& finding, std::string_view path);

// {"code", "severity", "subject", "message", "line", "column"}; absent ones are null.
[[nodiscard]] nlohmann::json to_json(const Finding& finding);

// {"path", "declared", "findings": [...], "prep_entries": [{"subject", "name", "line", "column"}]}:
// one entry of `forge check --format json`.
[[nodiscard]] nlohmann::json to_json(const ContractCheck& check);

}  // namespace forge
