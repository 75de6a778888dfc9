// A contract's priced entries with their regexes compiled, split by payer:
// compiled once, then priced against each workload's tables.
#pragma once

#include <string>
#include <vector>

#include "forge/credit/credit.hpp"
#include "kernel_pattern.hpp"

namespace forge::credit_detail {

class PricedEntries {
public:
    // Refers to `contract`'s entries: the contract must outlive it. Throws
    // CreditError when a priced entry's regex does not compile.
    explicit PricedEntries(const WindowContract& contract);

    // Nothing priced (or the contract undeclared): there is no credit.
    [[nodiscard]] bool empty() const noexcept { return student_.empty() && reference_.empty(); }

    // The Python oracle's window_credit for one workload's two sides, and the
    // warnings beside it; `rows` words the messages.
    [[nodiscard]] Credit price(const SideReading& student, const SideReading& reference, TableRows rows) const;

private:
    const WindowContract* contract_;
    std::vector<KernelPattern> student_;
    std::vector<KernelPattern> reference_;
    std::vector<std::string> unpriced_;
};

}  // namespace forge::credit_detail
