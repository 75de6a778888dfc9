#include "nesting_depth.hpp"

#include <algorithm>
#include <array>
#include <vector>

namespace forge::detail {

namespace {

// What a byte does to the count, outside strings and comments.
enum class Role : unsigned char { resets, continues, dot, open, close, quote, comment };

constexpr std::array<Role, 256> roles = [] {
    std::array<Role, 256> out{};
    out.fill(Role::resets);
    for (int c = 'a'; c <= 'z'; ++c) out[static_cast<std::size_t>(c)] = Role::continues;
    for (int c = 'A'; c <= 'Z'; ++c) out[static_cast<std::size_t>(c)] = Role::continues;
    for (int c = '0'; c <= '9'; ++c) out[static_cast<std::size_t>(c)] = Role::continues;
    for (char c : {'_', '-', '+', ' ', '\t'}) out[static_cast<unsigned char>(c)] = Role::continues;
    out['.'] = Role::dot;
    out['['] = out['{'] = Role::open;
    out[']'] = out['}'] = Role::close;
    out['"'] = out['\''] = Role::quote;
    out['#'] = Role::comment;
    return out;
}();

class Scanner {
public:
    explicit Scanner(std::string_view text) : text_(text) {}

    std::optional<SourceLocation> run(std::size_t limit) {
        std::vector<std::size_t> open;  // the depth inside each open [ or {
        std::size_t dots = 0;           // dots in the current dotted run
        while (pos_ < text_.size()) {
            const std::size_t base = open.empty() ? 0 : open.back();
            switch (roles[static_cast<unsigned char>(text_[pos_])]) {
                case Role::continues: ++pos_; break;
                case Role::resets:
                    dots = 0;
                    ++pos_;
                    break;
                case Role::dot:
                    if (base + ++dots > limit) return location();
                    ++pos_;
                    break;
                case Role::open:
                    open.push_back(base + dots + 1);
                    if (open.back() > limit) return location();
                    dots = 0;
                    ++pos_;
                    break;
                case Role::close:
                    if (!open.empty()) open.pop_back();
                    dots = 0;
                    ++pos_;
                    break;
                case Role::quote: skip_string(); break;  // a quoted key segment continues a dotted run
                case Role::comment:
                    pos_ = std::min(text_.find('\n', pos_), text_.size());
                    dots = 0;
                    break;
            }
        }
        return std::nullopt;
    }

private:
    // Counted only when the scan fails, to keep the loop lean.
    [[nodiscard]] SourceLocation location() const noexcept {
        const std::string_view before = text_.substr(0, pos_);
        const std::size_t line_start = before.rfind('\n') + 1;  // npos + 1 == 0
        return {1 + static_cast<int>(std::count(before.begin(), before.end(), '\n')),
                1 + static_cast<int>(pos_ - line_start)};
    }

    // From an opening quote past the closing one, or to the end of the line where
    // a one-line string is left open (the parser reports that).
    void skip_string() noexcept {
        const char quote = text_[pos_];
        const std::string_view triple = quote == '"' ? "\"\"\"" : "'''";
        const bool multiline = text_.substr(pos_, 3) == triple;
        const bool escapes = quote == '"';
        pos_ += multiline ? 3 : 1;
        while (pos_ < text_.size()) {
            const char c = text_[pos_];
            if (escapes && c == '\\') {
                pos_ += 2;
            } else if (!multiline && c == '\n') {
                return;
            } else if (!multiline && c == quote) {
                ++pos_;
                return;
            } else if (multiline && text_.substr(pos_, 3) == triple) {
                pos_ += 3;
                // Up to two more quotes belong to the string: """a""""" holds a"".
                for (int extra = 0; extra < 2 && pos_ < text_.size() && text_[pos_] == quote; ++extra) ++pos_;
                return;
            } else {
                ++pos_;
            }
        }
    }

    std::string_view text_;
    std::size_t pos_ = 0;
};

}  // namespace

std::optional<SourceLocation> find_nesting_deeper_than(std::string_view text, std::size_t limit) {
    return Scanner(text).run(limit);
}

}  // namespace forge::detail
