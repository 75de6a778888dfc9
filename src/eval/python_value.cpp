#include "forge/eval/python_value.hpp"

#include <array>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>

namespace forge {

namespace {

bool is_digit(char c) noexcept { return c >= '0' && c <= '9'; }

char ascii_lower(char c) noexcept { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

bool iequals(std::string_view a, std::string_view b) noexcept {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i) {
        if (ascii_lower(a[i]) != b[i]) return false;
    }
    return true;
}

// Python's whitespace characters (str.isspace), UTF-8 encoded: the ASCII ones,
// U+001C..U+001F, U+0085, U+00A0, U+1680, U+2000..U+200A, U+2028, U+2029,
// U+202F, U+205F, U+3000.
bool is_ascii_space(unsigned char c) noexcept { return (c >= 0x09 && c <= 0x0D) || (c >= 0x1C && c <= 0x20); }

bool is_space2(unsigned char a, unsigned char b) noexcept { return a == 0xC2 && (b == 0x85 || b == 0xA0); }

bool is_space3(unsigned char a, unsigned char b, unsigned char c) noexcept {
    if (a == 0xE1) return b == 0x9A && c == 0x80;
    if (a == 0xE2 && b == 0x80) return (c >= 0x80 && c <= 0x8A) || c == 0xA8 || c == 0xA9 || c == 0xAF;
    if (a == 0xE2) return b == 0x81 && c == 0x9F;
    return a == 0xE3 && b == 0x80 && c == 0x80;
}

std::size_t leading_space(std::string_view s) noexcept {
    const auto at = [&](std::size_t i) { return static_cast<unsigned char>(s[i]); };
    if (s.empty()) return 0;
    if (is_ascii_space(at(0))) return 1;
    if (s.size() >= 2 && is_space2(at(0), at(1))) return 2;
    if (s.size() >= 3 && is_space3(at(0), at(1), at(2))) return 3;
    return 0;
}

std::size_t trailing_space(std::string_view s) noexcept {
    const auto at = [&](std::size_t from_end) { return static_cast<unsigned char>(s[s.size() - from_end]); };
    if (s.empty()) return 0;
    if (is_ascii_space(at(1))) return 1;
    if (s.size() >= 2 && is_space2(at(2), at(1))) return 2;
    if (s.size() >= 3 && is_space3(at(3), at(2), at(1))) return 3;
    return 0;
}

// Python allows one underscore between two digits ("1_000"); anything else
// with an underscore is a ValueError. Returns the text without them, or
// nullopt when an underscore is misplaced.
std::optional<std::string> without_digit_underscores(std::string_view s) {
    std::string out;
    out.reserve(s.size());
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (s[i] != '_') {
            out += s[i];
            continue;
        }
        if (i == 0 || i + 1 == s.size() || !is_digit(s[i - 1]) || !is_digit(s[i + 1])) return std::nullopt;
    }
    return out;
}

// Decimal literal as Python's float() accepts it once the sign is gone:
// digits [. [digits]] | . digits, then an optional exponent.
bool is_decimal_literal(std::string_view s) noexcept {
    std::size_t i = 0;
    std::size_t mantissa_digits = 0;
    while (i < s.size() && is_digit(s[i])) ++i, ++mantissa_digits;
    if (i < s.size() && s[i] == '.') {
        ++i;
        while (i < s.size() && is_digit(s[i])) ++i, ++mantissa_digits;
    }
    if (mantissa_digits == 0) return false;
    if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
        ++i;
        if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
        const std::size_t exponent_start = i;
        while (i < s.size() && is_digit(s[i])) ++i;
        if (i == exponent_start) return false;
    }
    return i == s.size();
}

// from_chars reports overflow and underflow alike; Python gives inf or 0.
double out_of_range_value(std::string_view literal) {
    long long exponent = 0;
    const auto e = literal.find_first_of("eE");
    if (e != std::string_view::npos) {
        std::string_view digits = literal.substr(e + 1);
        const bool negative = !digits.empty() && digits.front() == '-';
        if (!digits.empty() && (digits.front() == '-' || digits.front() == '+')) digits.remove_prefix(1);
        for (char c : digits) {
            exponent = std::min<long long>(exponent * 10 + (c - '0'), 1'000'000'000);
        }
        if (negative) exponent = -exponent;
    }
    const std::string_view mantissa = literal.substr(0, e);
    const auto dot = mantissa.find('.');
    const std::string_view whole = mantissa.substr(0, dot);
    const auto first_nonzero = whole.find_first_not_of('0');
    // Magnitude ~ 10^(integer digits + exponent): positive means overflow.
    const long long integer_digits =
        first_nonzero == std::string_view::npos ? 0 : static_cast<long long>(whole.size() - first_nonzero);
    return integer_digits + exponent > 0 ? std::numeric_limits<double>::infinity() : 0.0;
}

std::string repr_string(const std::string& s) {
    const bool has_single = s.find('\'') != std::string::npos;
    const bool has_double = s.find('"') != std::string::npos;
    const char quote = has_single && !has_double ? '"' : '\'';
    std::string out(1, quote);
    for (char c : s) {
        const auto u = static_cast<unsigned char>(c);
        if (c == quote || c == '\\') {
            out += '\\';
            out += c;
        } else if (c == '\n') {
            out += "\\n";
        } else if (c == '\r') {
            out += "\\r";
        } else if (c == '\t') {
            out += "\\t";
        } else if (u < 0x20 || u == 0x7F) {
            std::array<char, 5> buf{};
            std::snprintf(buf.data(), buf.size(), "\\x%02x", u);
            out += buf.data();
        } else {
            out += c;
        }
    }
    out += quote;
    return out;
}

// repr() of a float: the shortest digits that round-trip, in fixed notation
// for 1e-4 <= |x| < 1e16 and exponent notation otherwise ("1e-05", "1e+16").
std::string repr_float(double x) {
    if (std::isnan(x)) return "nan";
    if (std::isinf(x)) return x < 0 ? "-inf" : "inf";
    std::array<char, 64> buf{};
    const auto [end, ec] =
        std::to_chars(buf.data(), buf.data() + buf.size(), std::fabs(x), std::chars_format::scientific);
    const std::string_view sci(buf.data(), static_cast<std::size_t>(end - buf.data()));
    const auto e = sci.find('e');
    std::string digits;
    for (char c : sci.substr(0, e)) {
        if (c != '.') digits += c;
    }
    int exponent = 0;
    std::string_view exponent_text = sci.substr(e + 1);
    if (exponent_text.front() == '+') exponent_text.remove_prefix(1);
    std::from_chars(exponent_text.data(), exponent_text.data() + exponent_text.size(), exponent);

    std::string out = std::signbit(x) ? "-" : "";
    const int n = static_cast<int>(digits.size());
    const int point = exponent + 1;  // digits before the decimal point
    if (point <= -4 || point > 16) {
        out += digits[0];
        if (n > 1) out += '.' + digits.substr(1);
        std::array<char, 16> exp_buf{};
        std::snprintf(exp_buf.data(), exp_buf.size(), "e%c%02d", exponent < 0 ? '-' : '+', std::abs(exponent));
        out += exp_buf.data();
    } else if (point <= 0) {
        out += "0." + std::string(static_cast<std::size_t>(-point), '0') + digits;
    } else if (point < n) {
        out += digits.substr(0, static_cast<std::size_t>(point)) + '.' + digits.substr(static_cast<std::size_t>(point));
    } else {
        out += digits + std::string(static_cast<std::size_t>(point - n), '0') + ".0";
    }
    return out;
}

std::optional<std::int64_t> parse_python_int(std::string_view text) {
    std::string_view s = python_strip(text);
    bool negative = false;
    if (!s.empty() && (s.front() == '+' || s.front() == '-')) {
        negative = s.front() == '-';
        s.remove_prefix(1);
    }
    const auto digits = without_digit_underscores(s);
    if (!digits || digits->empty()) return std::nullopt;
    std::uint64_t magnitude = 0;
    constexpr std::uint64_t limit = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()) + 1;
    for (char c : *digits) {
        if (!is_digit(c)) return std::nullopt;
        const auto d = static_cast<std::uint64_t>(c - '0');
        if (magnitude > (limit - d) / 10) return std::nullopt;
        magnitude = magnitude * 10 + d;
    }
    if (!negative && magnitude == limit) return std::nullopt;
    return negative ? static_cast<std::int64_t>(0 - magnitude) : static_cast<std::int64_t>(magnitude);
}

std::optional<double> parse_python_float(std::string_view text) {
    std::string_view s = python_strip(text);
    bool negative = false;
    if (!s.empty() && (s.front() == '+' || s.front() == '-')) {
        negative = s.front() == '-';
        s.remove_prefix(1);
    }
    const auto sign = [&](double v) { return negative ? -v : v; };
    if (iequals(s, "inf") || iequals(s, "infinity")) return sign(std::numeric_limits<double>::infinity());
    if (iequals(s, "nan")) return sign(std::numeric_limits<double>::quiet_NaN());
    const auto literal = without_digit_underscores(s);
    if (!literal || !is_decimal_literal(*literal)) return std::nullopt;
    double v = 0.0;
    const auto [ptr, ec] = std::from_chars(literal->data(), literal->data() + literal->size(), v);
    if (ec == std::errc::result_out_of_range) return sign(out_of_range_value(*literal));
    if (ec != std::errc{} || ptr != literal->data() + literal->size()) return std::nullopt;
    return sign(v);
}

}  // namespace

std::string_view python_strip(std::string_view text) noexcept {
    while (const std::size_t n = leading_space(text)) text.remove_prefix(n);
    while (const std::size_t n = trailing_space(text)) text.remove_suffix(n);
    return text;
}

std::string python_str(const nlohmann::json& value) {
    switch (value.type()) {
        case nlohmann::json::value_t::null: return "None";
        case nlohmann::json::value_t::boolean: return value.get<bool>() ? "True" : "False";
        case nlohmann::json::value_t::number_integer: return std::to_string(value.get<std::int64_t>());
        case nlohmann::json::value_t::number_unsigned: return std::to_string(value.get<std::uint64_t>());
        case nlohmann::json::value_t::number_float: return repr_float(value.get<double>());
        case nlohmann::json::value_t::string: return value.get<std::string>();
        case nlohmann::json::value_t::array: {
            std::string out = "[";
            for (const auto& item : value) {
                if (out.size() > 1) out += ", ";
                out += python_repr(item);
            }
            return out + "]";
        }
        case nlohmann::json::value_t::object: {
            std::string out = "{";
            for (const auto& [key, item] : value.items()) {
                if (out.size() > 1) out += ", ";
                out += repr_string(key) + ": " + python_repr(item);
            }
            return out + "}";
        }
        case nlohmann::json::value_t::binary:
        case nlohmann::json::value_t::discarded: break;
    }
    return "None";
}

std::string python_repr(const nlohmann::json& value) {
    return value.is_string() ? repr_string(value.get_ref<const std::string&>()) : python_str(value);
}

std::optional<double> python_float(const nlohmann::json& value) {
    switch (value.type()) {
        case nlohmann::json::value_t::boolean: return value.get<bool>() ? 1.0 : 0.0;
        case nlohmann::json::value_t::number_integer:
        case nlohmann::json::value_t::number_unsigned:
        case nlohmann::json::value_t::number_float: return value.get<double>();
        case nlohmann::json::value_t::string: return parse_python_float(value.get_ref<const std::string&>());
        default: return std::nullopt;
    }
}

std::optional<std::int64_t> python_int(const nlohmann::json& value) {
    switch (value.type()) {
        case nlohmann::json::value_t::boolean: return value.get<bool>() ? 1 : 0;
        case nlohmann::json::value_t::number_integer: return value.get<std::int64_t>();
        case nlohmann::json::value_t::number_unsigned: {
            const auto v = value.get<std::uint64_t>();
            if (v > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())) return std::nullopt;
            return static_cast<std::int64_t>(v);
        }
        case nlohmann::json::value_t::number_float: {
            const double v = std::trunc(value.get<double>());
            // NaN and inf raise in Python; past 2^63 it does not fit 64 bits.
            if (!(v >= -0x1p63 && v < 0x1p63)) return std::nullopt;
            return static_cast<std::int64_t>(v);
        }
        case nlohmann::json::value_t::string: return parse_python_int(value.get_ref<const std::string&>());
        default: return std::nullopt;
    }
}

bool python_truthy(const nlohmann::json& value) noexcept {
    switch (value.type()) {
        case nlohmann::json::value_t::boolean: return value.get<bool>();
        case nlohmann::json::value_t::number_integer: return value.get<std::int64_t>() != 0;
        case nlohmann::json::value_t::number_unsigned: return value.get<std::uint64_t>() != 0;
        case nlohmann::json::value_t::number_float: return value.get<double>() != 0.0;  // NaN is true
        case nlohmann::json::value_t::string: return !value.get_ref<const std::string&>().empty();
        case nlohmann::json::value_t::array:
        case nlohmann::json::value_t::object: return !value.empty();
        default: return false;
    }
}

}  // namespace forge
