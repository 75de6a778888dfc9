#include "forge/table/number.hpp"

#include <array>
#include <charconv>
#include <cmath>

namespace forge {

namespace {

bool is_ascii_digit(char c) noexcept { return c >= '0' && c <= '9'; }

std::string_view trim_spaces(std::string_view text) noexcept {
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) {
        text.remove_prefix(1);
    }
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) {
        text.remove_suffix(1);
    }
    return text;
}

bool is_absent(std::string_view text) noexcept {
    return text.empty() || text == "n/a" || text == "N/A";
}

// The integer part's thousands separators must sit every three digits.
bool separators_group_by_three(std::string_view integer_part) noexcept {
    std::size_t digits_since_separator = 0;
    bool seen_separator = false;
    for (std::size_t i = 0; i < integer_part.size(); ++i) {
        if (integer_part[i] == ',') {
            if (i == 0 || (seen_separator && digits_since_separator != 3) ||
                (!seen_separator && digits_since_separator > 3)) {
                return false;
            }
            seen_separator = true;
            digits_since_separator = 0;
        } else {
            ++digits_since_separator;
        }
    }
    return !seen_separator || digits_since_separator == 3;
}

}  // namespace

ParsedNumber parse_number(std::string_view text) noexcept {
    text = trim_spaces(text);
    if (is_absent(text)) {
        return {ParsedNumber::Status::absent, 0.0};
    }
    constexpr ParsedNumber invalid{ParsedNumber::Status::invalid, 0.0};
    std::string_view body = text;
    if (body.front() == '+' || body.front() == '-') {
        body.remove_prefix(1);
    }
    // The integer part: digits, possibly grouped by separators.
    std::size_t integer_end = 0;
    while (integer_end < body.size() && (is_ascii_digit(body[integer_end]) || body[integer_end] == ',')) {
        ++integer_end;
    }
    const std::string_view integer_part = body.substr(0, integer_end);
    if (!separators_group_by_three(integer_part) || body.find(',', integer_end) != std::string_view::npos) {
        return invalid;
    }
    // from_chars reads neither a leading '+' nor separators: copy the number without them.
    std::array<char, 64> buffer{};
    std::size_t length = 0;
    if (text.front() == '-') {
        buffer[length++] = '-';
    }
    for (const char c : body) {
        if (c == ',') {
            continue;
        }
        if (length == buffer.size()) {
            return invalid;
        }
        buffer[length++] = c;
    }
    double value = 0.0;
    const char* const end = buffer.data() + length;
    const auto [stop, error] = std::from_chars(buffer.data(), end, value);
    if (error != std::errc{} || stop != end || !std::isfinite(value)) {
        return invalid;
    }
    return {ParsedNumber::Status::value, value};
}

}  // namespace forge
