#include "nesting_depth.hpp"

#include <vector>

namespace forge::detail {

namespace {

bool is_key_char(char c) noexcept {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-' ||
           c == '+' || c == ' ' || c == '\t';
}

class Scanner {
public:
    explicit Scanner(std::string_view text) : text_(text) {}

    std::optional<SourceLocation> run(std::size_t limit) {
        std::vector<std::size_t> open;  // the depth inside each open [ or {
        std::size_t dots = 0;           // dots in the current dotted run
        while (pos_ < text_.size()) {
            const char c = text_[pos_];
            const std::size_t base = open.empty() ? 0 : open.back();
            if (c == '#') {
                skip_comment();
                dots = 0;
            } else if (c == '"' || c == '\'') {
                skip_string(c);  // a quoted key segment continues a dotted run
            } else if (c == '.') {
                ++dots;
                if (base + dots > limit) return here();
                advance();
            } else if (c == '[' || c == '{') {
                open.push_back(base + dots + 1);
                if (open.back() > limit) return here();
                dots = 0;
                advance();
            } else if (c == ']' || c == '}') {
                if (!open.empty()) open.pop_back();
                dots = 0;
                advance();
            } else {
                if (!is_key_char(c)) dots = 0;
                advance();
            }
        }
        return std::nullopt;
    }

private:
    SourceLocation here() const noexcept { return {line_, static_cast<int>(pos_ - line_start_) + 1}; }

    void advance() noexcept {
        if (text_[pos_] == '\n') {
            ++line_;
            line_start_ = pos_ + 1;
        }
        ++pos_;
    }

    void skip_comment() noexcept {
        while (pos_ < text_.size() && text_[pos_] != '\n') advance();
    }

    // From an opening quote past the closing one, or to the end of the line where
    // a one-line string is left open (the parser reports that).
    void skip_string(char quote) noexcept {
        const std::string_view triple = quote == '"' ? "\"\"\"" : "'''";
        const bool multiline = text_.substr(pos_, 3) == triple;
        const bool escapes = quote == '"';
        advance_by(multiline ? 3 : 1);
        while (pos_ < text_.size()) {
            const char c = text_[pos_];
            if (escapes && c == '\\') {
                advance_by(2);
            } else if (!multiline && c == '\n') {
                return;
            } else if (!multiline && c == quote) {
                advance();
                return;
            } else if (multiline && text_.substr(pos_, 3) == triple) {
                advance_by(3);
                // Up to two more quotes belong to the string: """a""""" holds a"".
                for (int extra = 0; extra < 2 && pos_ < text_.size() && text_[pos_] == quote; ++extra) advance();
                return;
            } else {
                advance();
            }
        }
    }

    void advance_by(std::size_t count) noexcept {
        for (std::size_t i = 0; i < count && pos_ < text_.size(); ++i) advance();
    }

    std::string_view text_;
    std::size_t pos_ = 0;
    std::size_t line_start_ = 0;
    int line_ = 1;
};

}  // namespace

std::optional<SourceLocation> find_nesting_deeper_than(std::string_view text, std::size_t limit) {
    return Scanner(text).run(limit);
}

}  // namespace forge::detail
