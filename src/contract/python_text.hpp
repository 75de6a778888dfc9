// Text the way the Python oracle sees it: code points, and `str.strip()` /
// `re` `\s` whitespace, which is Unicode whitespace, not just ASCII blanks.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace forge::detail {

// Python's `str.isspace()` for one code point.
[[nodiscard]] bool is_python_space(char32_t c) noexcept;

// The code points of `utf8`; empty when it is not valid UTF-8.
[[nodiscard]] std::optional<std::u32string> decode_utf8(std::string_view utf8);

void append_utf8(std::string& out, char32_t c);

// Python's `str.strip()` on valid UTF-8 (invalid sequences are kept as they are).
[[nodiscard]] std::string_view python_strip(std::string_view utf8) noexcept;

// Python's `re.split(r"[,\s]+", text)` with the empty pieces dropped.
[[nodiscard]] std::vector<std::string> split_python_names(std::string_view utf8);

}  // namespace forge::detail
