// Numbers as profilers write them in CSV: "8,192" and "9,495.42" (thousands
// separators), "6.75", "1e+06"; "" and "n/a" mean no value.
#pragma once

#include <string_view>

namespace forge {

struct ParsedNumber {
    enum class Status { value, absent, invalid };
    Status status = Status::absent;
    double value = 0.0;  // finite; meaningful only when status is value

    [[nodiscard]] bool has_value() const noexcept { return status == Status::value; }
};

// Surrounding spaces are ignored. Thousands separators must group the integer
// part by three ("1,234,567"); anything else that is not a finite decimal number
// ("12.0.1", "1,23", "NVIDIA B200", "inf") is invalid.
[[nodiscard]] ParsedNumber parse_number(std::string_view text) noexcept;

}  // namespace forge
