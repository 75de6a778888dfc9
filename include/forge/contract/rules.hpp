// The contract's rules: why a parsed contract cannot anchor a run (errors, in
// both directions) and what it cannot yet price (warnings). docs/reference/window-toml.md
// lists the codes.
#pragma once

#include <vector>

#include "forge/contract/contract.hpp"
#include "forge/contract/finding.hpp"

namespace forge {

// Empty when the contract is declared and consistent.
[[nodiscard]] std::vector<Finding> window_findings(const WindowContract& contract);

// Non-refusing notes (`price-unpriced`); empty for an undeclared contract.
[[nodiscard]] std::vector<Finding> window_warnings(const WindowContract& contract);

}  // namespace forge
