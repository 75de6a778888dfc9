// How the Python oracle reads an eval value it does not type-check:
// `str(v)`, `float(v)`, `int(v)`, `bool(v)` and `str.strip()`. The prep check
// and the credit are lenient exactly where the oracle is, so they coerce
// the way it does instead of refusing.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace forge {

// Python's `str()` of the value json.loads would give: "None", "True", 4096,
// 0.5, 1e-05, a string itself; lists and objects as their repr ("[1, 2]",
// "{'a': 1}"), objects in key order (Python keeps file order).
[[nodiscard]] std::string python_str(const nlohmann::json& value);

// Python's `repr()`: as python_str, but a string is quoted ('bf16').
[[nodiscard]] std::string python_repr(const nlohmann::json& value);

// Python's `float()`: numbers, booleans, and strings in Python's float syntax
// (surrounding whitespace, "1_000.5", "inf", "nan"); nullopt where it raises.
[[nodiscard]] std::optional<double> python_float(const nlohmann::json& value);

// Python's `int()`: integers, booleans, finite floats truncated toward zero,
// strings of decimal digits ("  42", "1_000"); nullopt where it raises, and
// where the result does not fit 64 bits.
[[nodiscard]] std::optional<std::int64_t> python_int(const nlohmann::json& value);

// Python's truth value: null, false, 0, "", [] and {} are false.
[[nodiscard]] bool python_truthy(const nlohmann::json& value) noexcept;

// Python's `str.strip()`: removes Unicode whitespace (UTF-8) at both ends.
[[nodiscard]] std::string_view python_strip(std::string_view text) noexcept;

}  // namespace forge
