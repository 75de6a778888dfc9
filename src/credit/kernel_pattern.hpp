// Kernel-name matching: one priced entry's regex, compiled once, searched in
// kernel names with Python `re.search` semantics (the contract module's
// Python-to-Boost translation).
#pragma once

#include <string_view>

#include "../contract/python_regex_boost.hpp"
#include "forge/contract/contract.hpp"

namespace forge::credit_detail {

class KernelPattern {
public:
    // Throws CreditError when the payer's regex does not compile.
    explicit KernelPattern(const Asymmetry& entry);

    // Throws CreditError when matching exceeds Boost's complexity bound.
    [[nodiscard]] bool found_in(std::string_view kernel) const;

    [[nodiscard]] const Asymmetry& entry() const noexcept { return *entry_; }

private:
    const Asymmetry* entry_;
    detail::CompiledPythonRegex compiled_;
};

}  // namespace forge::credit_detail
