#include "python_text.hpp"

namespace forge::detail {

bool is_python_space(char32_t c) noexcept {
    if (c < 0x80) return (c >= 0x09 && c <= 0x0d) || (c >= 0x1c && c <= 0x20);
    return c == 0x85 || c == 0xa0 || c == 0x1680 || (c >= 0x2000 && c <= 0x200a) ||
           c == 0x2028 || c == 0x2029 || c == 0x202f || c == 0x205f || c == 0x3000;
}

namespace {

// One code point starting at `text[pos]`; advances `pos`. nullopt on an invalid
// sequence (overlong forms and surrogates included, as UTF-8 forbids them).
std::optional<char32_t> next_code_point(std::string_view text, std::size_t& pos) noexcept {
    const auto lead = static_cast<unsigned char>(text[pos]);
    if (lead < 0x80) {
        ++pos;
        return lead;
    }
    std::size_t length = 0;
    char32_t c = 0;
    if ((lead & 0xe0) == 0xc0) {
        length = 2;
        c = lead & 0x1f;
    } else if ((lead & 0xf0) == 0xe0) {
        length = 3;
        c = lead & 0x0f;
    } else if ((lead & 0xf8) == 0xf0) {
        length = 4;
        c = lead & 0x07;
    } else {
        return std::nullopt;
    }
    if (pos + length > text.size()) return std::nullopt;
    for (std::size_t i = 1; i < length; ++i) {
        const auto byte = static_cast<unsigned char>(text[pos + i]);
        if ((byte & 0xc0) != 0x80) return std::nullopt;
        c = (c << 6) | (byte & 0x3f);
    }
    static constexpr char32_t smallest[] = {0, 0, 0x80, 0x800, 0x10000};
    if (c < smallest[length] || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff)) return std::nullopt;
    pos += length;
    return c;
}

}  // namespace

std::optional<std::u32string> decode_utf8(std::string_view utf8) {
    std::u32string out;
    out.reserve(utf8.size());
    std::size_t pos = 0;
    while (pos < utf8.size()) {
        const auto c = next_code_point(utf8, pos);
        if (!c) return std::nullopt;
        out += *c;
    }
    return out;
}

void append_utf8(std::string& out, char32_t c) {
    if (c < 0x80) {
        out += static_cast<char>(c);
    } else if (c < 0x800) {
        out += static_cast<char>(0xc0 | (c >> 6));
        out += static_cast<char>(0x80 | (c & 0x3f));
    } else if (c < 0x10000) {
        out += static_cast<char>(0xe0 | (c >> 12));
        out += static_cast<char>(0x80 | ((c >> 6) & 0x3f));
        out += static_cast<char>(0x80 | (c & 0x3f));
    } else {
        out += static_cast<char>(0xf0 | (c >> 18));
        out += static_cast<char>(0x80 | ((c >> 12) & 0x3f));
        out += static_cast<char>(0x80 | ((c >> 6) & 0x3f));
        out += static_cast<char>(0x80 | (c & 0x3f));
    }
}

std::string_view python_strip(std::string_view utf8) noexcept {
    // Leading: walk forward code point by code point.
    std::size_t begin = 0;
    while (begin < utf8.size()) {
        std::size_t next = begin;
        const auto c = next_code_point(utf8, next);
        if (!c || !is_python_space(*c)) break;
        begin = next;
    }
    // Trailing: step back to each code point's lead byte.
    std::size_t end = utf8.size();
    while (end > begin) {
        std::size_t lead = end - 1;
        while (lead > begin && (static_cast<unsigned char>(utf8[lead]) & 0xc0) == 0x80) --lead;
        std::size_t next = lead;
        const auto c = next_code_point(utf8, next);
        if (!c || next != end || !is_python_space(*c)) break;
        end = lead;
    }
    return utf8.substr(begin, end - begin);
}

std::vector<std::string> split_python_names(std::string_view utf8) {
    std::vector<std::string> names;
    std::size_t start = 0;
    std::size_t pos = 0;
    const auto flush = [&](std::size_t end) {
        if (end > start) names.emplace_back(utf8.substr(start, end - start));
    };
    while (pos < utf8.size()) {
        const std::size_t here = pos;
        const auto c = next_code_point(utf8, pos);
        if (!c) {
            ++pos;  // an invalid byte is part of a name
        } else if (*c == ',' || is_python_space(*c)) {
            flush(here);
            start = pos;
        }
    }
    flush(utf8.size());
    return names;
}

}  // namespace forge::detail
