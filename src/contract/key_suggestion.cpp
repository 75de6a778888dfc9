#include "key_suggestion.hpp"

#include <algorithm>
#include <cstddef>
#include <vector>

namespace forge::detail {

namespace {

char lower(char c) noexcept { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

// Optimal string alignment distance: insertions, deletions, substitutions and
// transpositions of neighbours ("studnet" -> "student" is one edit).
std::size_t edit_distance(std::string_view a, std::string_view b) {
    const std::size_t n = b.size();
    std::vector<std::size_t> before(n + 1);
    std::vector<std::size_t> previous(n + 1);
    std::vector<std::size_t> current(n + 1);
    for (std::size_t j = 0; j <= n; ++j) previous[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
        current[0] = i;
        for (std::size_t j = 1; j <= n; ++j) {
            const std::size_t cost = lower(a[i - 1]) == lower(b[j - 1]) ? 0 : 1;
            current[j] = std::min({previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost});
            if (i > 1 && j > 1 && lower(a[i - 1]) == lower(b[j - 2]) && lower(a[i - 2]) == lower(b[j - 1])) {
                current[j] = std::min(current[j], before[j - 2] + 1);
            }
        }
        before.swap(previous);
        previous.swap(current);
    }
    return previous[n];
}

}  // namespace

std::optional<std::string_view> closest_key(std::string_view typed, std::span<const std::string_view> known) {
    std::optional<std::string_view> best;
    std::size_t best_distance = 0;
    for (std::string_view candidate : known) {
        // A third of the key's length, between 1 and 3 edits: close enough to be a typo.
        const std::size_t allowed = std::clamp<std::size_t>(candidate.size() / 3, 1, 3);
        const std::size_t gap = typed.size() > candidate.size() ? typed.size() - candidate.size()
                                                                 : candidate.size() - typed.size();
        if (gap > allowed) continue;
        const std::size_t distance = edit_distance(typed, candidate);
        if (distance <= allowed && (!best || distance < best_distance)) {
            best = candidate;
            best_distance = distance;
        }
    }
    return best;
}

}  // namespace forge::detail
