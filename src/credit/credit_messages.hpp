// What a credit's reasons and warnings say: which entry, which regex, which
// rows of which side, and what to change. Kernels on CUDA, regions on HOST.
#pragma once

#include <optional>
#include <span>
#include <string>

#include "forge/credit/credit.hpp"
#include "kernel_pattern.hpp"

namespace forge::credit_detail {

// table-missing: the side prices `priced` but the eval has no table for it.
[[nodiscard]] std::string table_missing_message(Side side, std::span<const std::string> priced, TableRows rows);

// regex-unmatched: each entry with its place in window.toml and its regex, the
// side's rows it was held against, a did-you-mean, and the fix.
[[nodiscard]] std::string unmatched_message(const WindowContract& contract, Side side,
                                            std::span<const Asymmetry* const> entries, const KernelTable& table,
                                            TableRows rows);

// coverage-out-of-band: the profiled per-call time is `coverage` x the reading.
[[nodiscard]] std::string coverage_message(Side side, double coverage, TableRows rows);

// match-implausible: the side's regexes match every one of its `row_count`
// named rows, or `credit.fraction` of its time; names the regexes and what
// they matched.
[[nodiscard]] std::string implausible_message(Side side, std::span<const KernelPattern> patterns,
                                              const SideCredit& credit, bool every_row, std::size_t row_count,
                                              TableRows rows);

}  // namespace forge::credit_detail
