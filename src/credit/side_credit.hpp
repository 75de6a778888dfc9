// One side's priced entries against that side's per-kernel table (the
// Python oracle's _side_credit).
#pragma once

#include <optional>
#include <span>
#include <vector>

#include "forge/credit/credit.hpp"
#include "kernel_pattern.hpp"

namespace forge::credit_detail {

struct PricedSide {
    SideCredit credit;
    std::vector<const Asymmetry*> unmatched;  // the entries behind credit.unmatched, for messages
    // The regexes together match every named row of the table (all but the
    // HOST "(unmarked)" rest), and there is at least one.
    bool every_row_matched = false;
    std::size_t named_rows = 0;
};

// `patterns`: the side's priced entries in file order. Every row a pattern
// matches counts once toward matched_ns, also a second row of the same name
// (the oracle counts only the last such row: difference 1 in the Python oracle's README).
[[nodiscard]] PricedSide side_credit(std::span<const KernelPattern> patterns, const std::optional<KernelTable>& table);

}  // namespace forge::credit_detail
