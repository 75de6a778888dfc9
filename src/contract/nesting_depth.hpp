// How deep a TOML text can nest, found by a cheap scan before it is parsed:
// toml++ recurses once per level of dotted keys and frees tables recursively, so
// `a.a.a...` a few hundred thousand deep would overflow the stack.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>

#include "forge/contract/finding.hpp"

namespace forge::detail {

// Where the text first nests deeper than `limit` (dotted key segments, table
// headers, arrays and inline tables together), or nullopt. Strings and comments
// are skipped; the count can only overestimate, by one for a float's decimal point.
[[nodiscard]] std::optional<SourceLocation> find_nesting_deeper_than(std::string_view text, std::size_t limit);

}  // namespace forge::detail
