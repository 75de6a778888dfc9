#include "forge/table/time_unit.hpp"

#include <array>
#include <cctype>

namespace forge {

namespace {

struct UnitSpelling {
    std::string_view spelling;
    double nanoseconds;
};

constexpr std::array<UnitSpelling, 12> spellings{{
    {"nsecond", 1.0}, {"ns", 1.0}, {"nsec", 1.0},
    {"usecond", 1e3}, {"us", 1e3}, {"usec", 1e3},
    {"msecond", 1e6}, {"ms", 1e6}, {"msec", 1e6},
    {"second", 1e9}, {"s", 1e9}, {"sec", 1e9},
}};

}  // namespace

std::optional<double> nanoseconds_per(std::string_view unit) noexcept {
    // Units are short; a longer text is not one of them.
    std::array<char, 16> folded{};
    std::size_t length = 0;
    for (const char c : unit) {
        if (c == ' ' || c == '\t') {
            continue;
        }
        if (length == folded.size()) {
            return std::nullopt;
        }
        folded[length++] = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
    const std::string_view key(folded.data(), length);
    for (const UnitSpelling& entry : spellings) {
        if (entry.spelling == key) {
            return entry.nanoseconds;
        }
    }
    return std::nullopt;
}

}  // namespace forge
