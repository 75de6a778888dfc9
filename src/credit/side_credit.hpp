// One side's priced entries against that side's per-kernel table (the
// reference's _side_credit).
#pragma once

#include <optional>
#include <span>

#include "forge/credit/credit.hpp"
#include "kernel_pattern.hpp"

namespace forge::credit_detail {

// `patterns`: the side's priced entries in file order. Every row a pattern
// matches counts once toward matched_ns, also a second row of the same name
// (the reference counts only the last such row: deliberate difference 1).
[[nodiscard]] SideCredit side_credit(std::span<const KernelPattern> patterns, const std::optional<KernelTable>& table);

}  // namespace forge::credit_detail
