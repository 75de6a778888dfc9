// "Did you mean": the kernel or region name a priced regex that matched nothing
// most likely meant, for the regex-unmatched message.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace forge::credit_detail {

// The name holding the closest approximate occurrence of `pattern`'s text
// (regexes name a part of a kernel name, so the pattern may sit anywhere in it;
// case is ignored), when that occurrence is within a third of the pattern's
// length in edits (at least 1, at most 4); nullopt when no name comes that close.
[[nodiscard]] std::optional<std::string> closest_name(std::string_view pattern, std::span<const std::string> names);

}  // namespace forge::credit_detail
