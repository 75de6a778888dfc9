// Kernel regexes are written in Python `re` syntax (the Python oracle compiles them
// with `re.compile` and matches with `re.search`). This is the validity check,
// with the oracle's verdicts; matching lives in the credit module.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace forge {

// Why Python's `re.compile(pattern)` refuses `pattern` (its reason, with the position
// in code points), or nullopt when it compiles.
[[nodiscard]] std::optional<std::string> python_regex_error(std::string_view pattern);

}  // namespace forge
