// "Did you mean": the known key closest to a typed one, for `unknown-key` warnings
// and for a misspelled class or produced_by.
#pragma once

#include <optional>
#include <span>
#include <string_view>

namespace forge::detail {

// The known key within a small edit distance of `typed` (a transposition counts
// as one edit, case is ignored), or nullopt when none is close enough to suggest.
[[nodiscard]] std::optional<std::string_view> closest_key(std::string_view typed,
                                                          std::span<const std::string_view> known);

}  // namespace forge::detail
