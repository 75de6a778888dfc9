// Reading `window.toml` (toml++): a contract, or a `malformed` refusal naming
// the file, line and key. Unknown keys come back as `unknown-key` warnings.
#pragma once

#include <filesystem>
#include <optional>
#include <string_view>
#include <vector>

#include "forge/contract/contract.hpp"
#include "forge/contract/finding.hpp"

namespace forge {

struct ParsedContract {
    std::optional<WindowContract> contract;  // empty when the file is refused
    std::vector<Finding> findings;           // `malformed` / `contract-absent`, or warnings
};

// `path` labels messages and is stored in the contract; it is not opened.
[[nodiscard]] ParsedContract parse_window_contract(std::string_view text, std::string_view path = {});

// The contract file a path names: `DIR/window.toml` for a directory, else the path itself.
[[nodiscard]] std::filesystem::path contract_file(const std::filesystem::path& file_or_dir);

// Reads a file: a `window.toml`, or a directory holding one. Absent -> `contract-absent`;
// unreadable -> `malformed`.
[[nodiscard]] ParsedContract load_window_contract(const std::filesystem::path& file_or_dir);

}  // namespace forge
