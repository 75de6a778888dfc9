#include "name_suggestion.hpp"

#include <algorithm>
#include <cstddef>
#include <vector>

namespace forge::credit_detail {

namespace {

char lower(char c) noexcept { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

// Sellers' approximate substring distance: the fewest insertions, deletions and
// substitutions that turn `pattern` into some substring of `text` (starting and
// ending anywhere in `text` is free). Stops at `limit` + 1 once every cell of a
// row exceeds `limit`: a row's minimum never falls in the rows below it.
std::size_t substring_distance(std::string_view pattern, std::string_view text, std::size_t limit) {
    std::vector<std::size_t> previous(text.size() + 1, 0);  // empty pattern: 0 edits anywhere
    std::vector<std::size_t> current(text.size() + 1);
    for (std::size_t i = 1; i <= pattern.size(); ++i) {
        current[0] = i;
        std::size_t row_minimum = i;
        for (std::size_t j = 1; j <= text.size(); ++j) {
            const std::size_t cost = lower(pattern[i - 1]) == lower(text[j - 1]) ? 0 : 1;
            current[j] = std::min({previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost});
            row_minimum = std::min(row_minimum, current[j]);
        }
        if (row_minimum > limit) return limit + 1;
        previous.swap(current);
    }
    return *std::min_element(previous.begin(), previous.end());
}

}  // namespace

std::optional<std::string> closest_name(std::string_view pattern, std::span<const std::string> names) {
    const std::size_t allowed = std::clamp<std::size_t>(pattern.size() / 3, 1, 4);
    std::optional<std::string> best;
    std::size_t best_distance = allowed + 1;
    for (const std::string& name : names) {
        // Kernel names of templated C++ run to thousands of characters; the
        // search is |pattern| x |name|, bounded by the start of the name.
        constexpr std::size_t searched = 256;
        const std::size_t distance =
            substring_distance(pattern, std::string_view(name).substr(0, searched), best_distance - 1);
        if (distance < best_distance) {
            best = name;
            best_distance = distance;
        }
    }
    return best;
}

}  // namespace forge::credit_detail
