// One contract file checked end to end: parse, rules, warnings. What `forge check`
// prints and what every other command consults before trusting a contract.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "forge/contract/contract.hpp"
#include "forge/contract/finding.hpp"

namespace forge {

struct ContractCheck {
    std::string path;                        // the window.toml the findings are about
    std::optional<WindowContract> contract;  // empty when absent or malformed
    std::vector<Finding> findings;           // errors and warnings, in file order per rule

    [[nodiscard]] bool declared() const noexcept { return contract && contract->declared(); }
    // Absent, malformed, undeclared or inconsistent: exit 13 for every command.
    [[nodiscard]] bool refused() const noexcept;
};

[[nodiscard]] ContractCheck check_contract(const std::filesystem::path& file_or_dir);
[[nodiscard]] ContractCheck check_contract_text(std::string_view text, std::string_view path);

}  // namespace forge
