// A port of the checks in CPython 3.11's `re._parser` (and the two in
// `re._compiler`: fixed-width lookbehinds, the TEMPLATE flag), so a kernel regex
// is valid here exactly when `re.compile` accepts it. While it checks, it writes
// the equivalent Boost.Regex pattern (ICU flavour, code points), so matching
// needs no second parser. ICU supplies what Python takes from its Unicode
// database: character names (\N{...}) and identifier characters.
#include "forge/contract/python_regex.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include <boost/iterator/iterator_adaptor.hpp>
#include <unicode/uchar.h>

#include "python_regex_boost.hpp"
#include "python_text.hpp"

namespace forge {
namespace detail {
namespace {

constexpr std::uint64_t max_repeat = 4294967295U;  // _sre.MAXREPEAT
constexpr std::uint64_t max_groups = 1073741823U;  // _sre.MAXGROUPS
constexpr std::uint64_t max_code = 4294967295U;    // the farthest a lookbehind may look
// Python keeps widths exact and caps them at 2**64; capping at 2**64 - 1 only ever
// turns one lookbehind refusal into another.
constexpr std::uint64_t max_width = std::numeric_limits<std::uint64_t>::max();
// Python's recursive parser gives up (RecursionError) a little past 400 nested groups.
constexpr int max_group_nesting = 400;

enum Flag : unsigned {
    flag_ignorecase = 1U << 0,
    flag_locale = 1U << 1,
    flag_multiline = 1U << 2,
    flag_dotall = 1U << 3,
    flag_verbose = 1U << 4,
    flag_ascii = 1U << 5,
    flag_template = 1U << 6,
    flag_unicode = 1U << 7,
};
constexpr unsigned type_flags = flag_ascii | flag_locale | flag_unicode;
constexpr unsigned global_flags = flag_template;

unsigned flag_of(char32_t c) noexcept {
    switch (c) {
        case 'i': return flag_ignorecase;
        case 'L': return flag_locale;
        case 'm': return flag_multiline;
        case 's': return flag_dotall;
        case 'x': return flag_verbose;
        case 'a': return flag_ascii;
        case 't': return flag_template;
        case 'u': return flag_unicode;
        default: return 0;
    }
}

std::uint64_t add_width(std::uint64_t a, std::uint64_t b) noexcept {
    return a > max_width - b ? max_width : a + b;
}

std::uint64_t multiply_width(std::uint64_t a, std::uint64_t b) noexcept {
    if (a == 0 || b == 0) return 0;
    return a > max_width / b ? max_width : a * b;
}

struct Width {
    std::uint64_t lo = 0;
    std::uint64_t hi = 0;
};

bool is_ascii_letter(char32_t c) noexcept { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool is_digit(char32_t c) noexcept { return c >= '0' && c <= '9'; }
bool is_octal_digit(char32_t c) noexcept { return c >= '0' && c <= '7'; }
bool is_hex_digit(char32_t c) noexcept {
    return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

// `str.isidentifier()`: XID_Start (or '_') then XID_Continue.
bool is_identifier(std::u32string_view name) noexcept {
    if (name.empty()) return false;
    const auto property = [](char32_t c, UProperty which) {
        return u_hasBinaryProperty(static_cast<UChar32>(c), which) != 0;
    };
    if (!(name.front() == '_' || property(name.front(), UCHAR_XID_START))) return false;
    return std::all_of(name.begin() + 1, name.end(), [&](char32_t c) { return property(c, UCHAR_XID_CONTINUE); });
}

// `unicodedata.lookup(name)` for one character: a name or an alias, any case.
std::optional<char32_t> character_named(std::u32string_view name) {
    std::string ascii;
    for (char32_t c : name) {
        if (c >= 0x80) return std::nullopt;  // names are ASCII
        ascii += static_cast<char>(c);
    }
    for (UCharNameChoice choice : {U_UNICODE_CHAR_NAME, U_CHAR_NAME_ALIAS}) {
        UErrorCode status = U_ZERO_ERROR;
        const UChar32 c = u_charFromName(choice, ascii.c_str(), &status);
        if (U_SUCCESS(status)) return static_cast<char32_t>(c);
    }
    return std::nullopt;
}

std::string to_utf8(std::u32string_view text) {
    std::string out;
    for (char32_t c : text) append_utf8(out, c);
    return out;
}

std::string hex(char32_t c) {
    static constexpr char digits[] = "0123456789abcdef";
    std::string out;
    do {
        out.insert(out.begin(), digits[c & 0xf]);
        c >>= 4;
    } while (c != 0);
    return out;
}

// A code point outside a class: ASCII letters and digits as they are, anything
// else by number, so no character means something else to Boost.
std::string literal_text(char32_t c) {
    if (c < 0x80 && (is_ascii_letter(c) || is_digit(c) || c == '_')) return std::string(1, static_cast<char>(c));
    return "\\x{" + hex(c) + "}";
}

std::string class_range_text(char32_t lo, char32_t hi) { return literal_text(lo) + "-" + literal_text(hi); }

// Python's \s: the code points str.isspace() accepts.
constexpr std::string_view python_space_members =
    "\\x{9}-\\x{d}\\x{1c}-\\x{20}\\x{85}\\x{a0}\\x{1680}\\x{2000}-\\x{200a}\\x{2028}\\x{2029}\\x{202f}\\x{205f}\\x{3000}";
constexpr std::string_view ascii_word_members = "a-zA-Z0-9_";
// Python's \w: str.isalnum() (letters, and digits and numerals of every kind) or '_'.
constexpr std::string_view unicode_word_members = "[:Lu:][:Ll:][:Lt:][:Lm:][:Lo:][:Nd:][:Nl:][:No:]_";

std::string word_members(bool ascii) { return std::string(ascii ? ascii_word_members : unicode_word_members); }

// \d \D \s \S \w \W: the members they add to a class, or (negated, inside a
// class) Boost's own spelling, which is as close as a class member can get.
std::string category_members(char32_t c, bool ascii) {
    switch (c) {
        case 'd': return ascii ? "0-9" : "[:Nd:]";
        case 'w': return word_members(ascii);
        case 's': return ascii ? "\\x{9}-\\x{d}\\x{20}" : std::string(python_space_members);
        default: return std::string("\\") + static_cast<char>(c);
    }
}

// The same, outside a class.
std::string category_text(char32_t c, bool ascii) {
    const bool negated = c == 'D' || c == 'W' || c == 'S';
    const char32_t positive = negated ? c - 'A' + 'a' : c;
    return (negated ? "[^" : "[") + category_members(positive, ascii) + "]";
}

// \b and \B with Python's word characters. Python's \B never matches empty text.
std::string boundary_text(bool boundary, bool ascii) {
    const std::string word = "[" + word_members(ascii) + "]";
    if (boundary) return "(?:(?<=" + word + ")(?!" + word + ")|(?<!" + word + ")(?=" + word + "))";
    return "(?:(?<=" + word + ")(?=" + word + ")|(?<!" + word + ")(?!" + word + ")(?!\\A\\z))";
}

std::string quantifier_text(std::uint64_t min, std::uint64_t max) {
    if (max == max_repeat) {
        if (min == 0) return "*";
        if (min == 1) return "+";
        return "{" + std::to_string(min) + ",}";
    }
    if (min == 0 && max == 1) return "?";
    if (min == max) return "{" + std::to_string(min) + "}";
    return "{" + std::to_string(min) + "," + std::to_string(max) + "}";
}

class SyntaxError {
public:
    SyntaxError(std::string message, std::size_t position)
        : message_(std::move(message) + " at position " + std::to_string(position)) {}
    explicit SyntaxError(std::string message) : message_(std::move(message)) {}
    [[nodiscard]] const std::string& message() const noexcept { return message_; }

private:
    std::string message_;
};

// `this` in the Python parser: one character, or a backslash and the next one.
struct Token {
    char32_t ch = 0;
    bool escaped = false;

    [[nodiscard]] bool is(char32_t c) const noexcept { return !escaped && ch == c; }
    [[nodiscard]] std::size_t length() const noexcept { return escaped ? 2 : 1; }
    [[nodiscard]] std::string text() const {
        std::string out = escaped ? "\\" : "";
        append_utf8(out, ch);
        return out;
    }
};

class Tokenizer {
public:
    explicit Tokenizer(std::u32string_view pattern) : pattern_(pattern) { advance(); }

    [[nodiscard]] const std::optional<Token>& next() const noexcept { return next_; }
    [[nodiscard]] bool next_is(char32_t c) const noexcept { return next_ && next_->is(c); }
    [[nodiscard]] bool next_in(bool (*predicate)(char32_t) noexcept) const noexcept {
        return next_ && !next_->escaped && predicate(next_->ch);
    }

    bool match(char32_t c) {
        if (!next_is(c)) return false;
        advance();
        return true;
    }

    std::optional<Token> get() {
        auto token = next_;
        advance();
        return token;
    }

    // Up to `n` unescaped characters satisfying `predicate`.
    std::u32string get_while(int n, bool (*predicate)(char32_t) noexcept) {
        std::u32string out;
        for (int i = 0; i < n && next_in(predicate); ++i) out += get()->ch;
        return out;
    }

    std::u32string get_until(char32_t terminator, const char* what) {
        std::u32string out;
        while (true) {
            const auto token = get();
            if (!token) {
                if (out.empty()) fail(std::string("missing ") + what);
                fail("missing " + to_utf8(std::u32string(1, terminator)) + ", unterminated name", out.size());
            }
            if (token->is(terminator)) {
                if (out.empty()) fail(std::string("missing ") + what, 1);
                return out;
            }
            if (token->escaped) out += U'\\';
            out += token->ch;
        }
    }

    [[nodiscard]] std::size_t tell() const noexcept { return index_ - (next_ ? next_->length() : 0); }

    void seek(std::size_t index) {
        index_ = index;
        advance();
    }

    [[noreturn]] void fail(const std::string& message, std::size_t offset = 0) const {
        throw SyntaxError(message, tell() - std::min(offset, tell()));
    }

private:
    void advance() {
        if (index_ >= pattern_.size()) {
            next_.reset();
            return;
        }
        if (pattern_[index_] != U'\\') {
            next_ = Token{pattern_[index_], false};
            index_ += 1;
            return;
        }
        if (index_ + 1 >= pattern_.size()) throw SyntaxError("bad escape (end of pattern)", pattern_.size() - 1);
        next_ = Token{pattern_[index_ + 1], true};
        index_ += 2;
    }

    std::u32string_view pattern_;
    std::size_t index_ = 0;
    std::optional<Token> next_;
};

// An element of a sequence, as far as the parser's later checks need to know it.
enum class Op { unit, at, repeat, group, assertion, group_ref, group_exists };

struct Item {
    Op op = Op::unit;
    Width width;
    std::string text;       // the Boost rendering
    bool captures = false;  // holds a capturing group
};

struct Sequence {
    Width width;
    std::string text;
    bool captures = false;
};

// Boost refuses empty assertion and atomic bodies; an empty group means the same.
std::string nonempty(std::string text) { return text.empty() ? "(?:)" : text; }

// A member of a character class.
struct ClassMember {
    enum Kind { literal, category, range } kind = literal;
    char32_t code = 0;      // literal
    std::string text;       // category: "\\d", ...
};

// Python's `int(text)` for a conditional's group number (`(?(1)...)`): optional
// whitespace and sign, ASCII digits with single underscores between them.
std::optional<std::uint64_t> python_int(std::u32string_view text) {
    while (!text.empty() && is_python_space(text.front())) text.remove_prefix(1);
    while (!text.empty() && is_python_space(text.back())) text.remove_suffix(1);
    bool negative = false;
    if (!text.empty() && (text.front() == '+' || text.front() == '-')) {
        negative = text.front() == '-';
        text.remove_prefix(1);
    }
    if (text.empty() || !is_digit(text.front()) || !is_digit(text.back())) return std::nullopt;
    std::uint64_t value = 0;
    char32_t previous = 0;
    for (char32_t c : text) {
        if (c == '_') {
            if (previous == '_') return std::nullopt;
        } else if (is_digit(c)) {
            value = std::min<std::uint64_t>(value * 10 + (c - '0'), max_width / 16);
        } else {
            return std::nullopt;
        }
        previous = c;
    }
    if (negative && value != 0) return std::nullopt;  // Python: a negative number is refused
    return value;
}

class Parser {
public:
    explicit Parser(std::u32string_view pattern) : source_(pattern) {}

    std::string run() {
        Sequence body = parse_alternatives(false, 0, std::nullopt);
        if ((flags_ & flag_ascii) && (flags_ & flag_unicode)) {
            throw SyntaxError("ASCII and UNICODE flags are incompatible");
        }
        if (source_.next()) source_.fail("unbalanced parenthesis");
        for (const auto& [group, position] : condition_refs_) {
            if (group >= group_count()) {
                throw SyntaxError("invalid group reference " + std::to_string(group), position);
            }
        }
        if ((flags_ & flag_template) && saw_repeat_) {
            throw SyntaxError("internal: unsupported template operator (a repeat with the TEMPLATE flag)");
        }
        return (flags_ & flag_ignorecase ? "(?i)" : "") + body.text;
    }

private:
    // --- groups -----------------------------------------------------------------

    [[nodiscard]] std::uint64_t group_count() const noexcept { return group_widths_.size() + 1; }

    std::uint64_t open_group(const std::optional<std::u32string>& name) {
        const std::uint64_t id = group_count();
        group_widths_.emplace_back();
        if (group_count() > max_groups) throw SyntaxError("too many groups");
        if (name) {
            if (const auto it = group_names_.find(*name); it != group_names_.end()) {
                source_.fail("redefinition of group name '" + to_utf8(*name) + "' as group " +
                                 std::to_string(id) + "; was group " + std::to_string(it->second),
                             name->size() + 1);
            }
            group_names_.emplace(*name, id);
        }
        return id;
    }

    [[nodiscard]] bool group_closed(std::uint64_t id) const noexcept {
        return id >= 1 && id < group_count() && group_widths_[id - 1].has_value();
    }

    void check_lookbehind_group(std::uint64_t id) const {
        if (!lookbehind_groups_) return;
        if (!group_closed(id)) source_.fail("cannot refer to an open group");
        if (id >= *lookbehind_groups_) {
            source_.fail("cannot refer to group defined in the same lookbehind subpattern");
        }
    }

    void check_group_name(const std::u32string& name, std::size_t offset) const {
        if (!is_identifier(name)) {
            source_.fail("bad character in group name '" + to_utf8(name) + "'", name.size() + offset);
        }
    }

    Item group_ref(std::uint64_t id) const {
        return {Op::group_ref, *group_widths_[id - 1], "\\g{" + std::to_string(id) + "}"};
    }

    // --- escapes ----------------------------------------------------------------

    [[noreturn]] void bad_escape(const std::string& escape) const {
        source_.fail("bad escape " + escape, escape.size());
    }

    // \x, \u, \U, \N: a code point given by number (or name); both contexts share it.
    std::optional<char32_t> numbered_escape(const Token& token) {
        const char32_t c = token.ch;
        int digits = 0;
        if (c == 'x') digits = 2;
        if (c == 'u') digits = 4;
        if (c == 'U') digits = 8;
        if (digits > 0) {
            const auto hex = source_.get_while(digits, is_hex_digit);
            const std::string escape = token.text() + to_utf8(hex);
            if (static_cast<int>(hex.size()) != digits) source_.fail("incomplete escape " + escape, escape.size());
            const auto value = std::stoull(to_utf8(hex), nullptr, 16);
            if (value > 0x10ffff) bad_escape(escape);
            return static_cast<char32_t>(value);
        }
        if (c == 'N') {
            if (!source_.match('{')) source_.fail("missing {");
            const auto name = source_.get_until('}', "character name");
            const auto named = character_named(name);
            if (!named) source_.fail("undefined character name '" + to_utf8(name) + "'", name.size() + 4);
            return named;
        }
        return std::nullopt;
    }

    static std::optional<char32_t> simple_escape(char32_t c) noexcept {
        switch (c) {
            case 'a': return U'\a';
            case 'b': return U'\b';
            case 'f': return U'\f';
            case 'n': return U'\n';
            case 'r': return U'\r';
            case 't': return U'\t';
            case 'v': return U'\v';
            case '\\': return U'\\';
            default: return std::nullopt;
        }
    }

    static bool is_category(char32_t c) noexcept {
        return c == 'd' || c == 'D' || c == 's' || c == 'S' || c == 'w' || c == 'W';
    }

    Item literal(char32_t c) const { return {Op::unit, {1, 1}, literal_text(c)}; }

    // `_escape`: an escape outside a class.
    Item escape(const Token& token, unsigned flags) {
        const char32_t c = token.ch;
        const bool ascii = (flags & flag_ascii) != 0;
        if (is_category(c)) return {Op::unit, {1, 1}, category_text(c, ascii)};
        switch (c) {
            case 'A': return {Op::at, {}, "\\A"};
            case 'Z': return {Op::at, {}, "\\z"};
            case 'b': return {Op::at, {}, boundary_text(true, ascii)};
            case 'B': return {Op::at, {}, boundary_text(false, ascii)};
            default: break;
        }
        if (const auto code = simple_escape(c)) return literal(*code);
        if (const auto code = numbered_escape(token)) return literal(*code);
        if (c == '0') {
            const auto octal = source_.get_while(2, is_octal_digit);
            return literal(static_cast<char32_t>(std::stoul("0" + to_utf8(octal), nullptr, 8)));
        }
        if (is_digit(c)) {
            // An octal escape, or a group reference.
            std::u32string escape(1, c);
            if (source_.next_in(is_digit)) {
                escape += source_.get()->ch;
                if (is_octal_digit(escape[0]) && is_octal_digit(escape[1]) && source_.next_in(is_octal_digit)) {
                    escape += source_.get()->ch;
                    const auto value = std::stoul(to_utf8(escape), nullptr, 8);
                    if (value > 0377) {
                        source_.fail("octal escape value \\" + to_utf8(escape) + " outside of range 0-0o377",
                                     escape.size() + 1);
                    }
                    return literal(static_cast<char32_t>(value));
                }
            }
            const auto group = std::stoull(to_utf8(escape));
            if (group < group_count()) {
                if (!group_closed(group)) source_.fail("cannot refer to an open group", escape.size() + 1);
                check_lookbehind_group(group);
                return group_ref(group);
            }
            source_.fail("invalid group reference " + std::to_string(group), escape.size());
        }
        if (is_ascii_letter(c)) bad_escape(token.text());
        return literal(c);
    }

    // `_class_escape`: an escape inside a class.
    ClassMember class_escape(const Token& token, unsigned flags) {
        const char32_t c = token.ch;
        if (const auto code = simple_escape(c)) return {ClassMember::literal, *code, {}};
        if (is_category(c)) return {ClassMember::category, 0, category_members(c, (flags & flag_ascii) != 0)};
        if (const auto code = numbered_escape(token)) return {ClassMember::literal, *code, {}};
        if (is_octal_digit(c)) {
            const std::u32string escape = std::u32string(1, c) + source_.get_while(2, is_octal_digit);
            const auto value = std::stoul(to_utf8(escape), nullptr, 8);
            if (value > 0377) {
                source_.fail("octal escape value \\" + to_utf8(escape) + " outside of range 0-0o377",
                             escape.size() + 1);
            }
            return {ClassMember::literal, static_cast<char32_t>(value), {}};
        }
        if (is_digit(c) || is_ascii_letter(c)) bad_escape(token.text());
        return {ClassMember::literal, c, {}};
    }

    // --- the grammar --------------------------------------------------------------

    // `_parse_sub`: a|b|c.
    Sequence parse_alternatives(bool verbose, int nested, std::optional<unsigned> scoped) {
        if (nested > 2 * max_group_nesting) source_.fail("the pattern nests groups too deeply");
        std::vector<Sequence> branches;
        while (true) {
            branches.push_back(parse_sequence(verbose, nested + 1, nested == 0 && branches.empty(), scoped));
            if (!source_.match('|')) break;
            if (nested == 0) verbose = (flags_ & flag_verbose) != 0;
        }
        if (branches.size() == 1) return std::move(branches.front());
        Sequence out;
        out.width.lo = max_width;
        for (std::size_t i = 0; i < branches.size(); ++i) {
            out.width.lo = std::min(out.width.lo, branches[i].width.lo);
            out.width.hi = std::max(out.width.hi, branches[i].width.hi);
            if (i > 0) out.text += '|';
            out.text += branches[i].text;
            out.captures = out.captures || branches[i].captures;
        }
        return out;
    }

    // `_parse`: a sequence of items up to `|`, `)` or the end.
    Sequence parse_sequence(bool verbose, int nested, bool first, std::optional<unsigned> scoped) {
        std::vector<Item> items;
        while (true) {
            const auto& next = source_.next();
            if (!next || next->is('|') || next->is(')')) break;
            const Token token = *source_.get();

            if (verbose && !token.escaped) {
                if (token.ch == ' ' || token.ch == '\t' || token.ch == '\n' || token.ch == '\r' ||
                    token.ch == '\v' || token.ch == '\f') {
                    continue;
                }
                if (token.ch == '#') {
                    while (true) {
                        const auto skipped = source_.get();
                        if (!skipped || skipped->is('\n')) break;
                    }
                    continue;
                }
            }
            const unsigned flags = scoped.value_or(flags_);
            if (token.escaped) {
                items.push_back(escape(token, flags));
                continue;
            }
            switch (token.ch) {
                case '[': items.push_back(parse_class(flags)); break;
                case '*':
                case '+':
                case '?':
                case '{': {
                    if (!parse_repeat(token.ch, items)) items.push_back(literal('{'));
                    break;
                }
                case '.':
                    items.push_back({Op::unit, {1, 1}, flags & flag_dotall ? "[\\s\\S]" : "[^\\n]"});
                    break;
                case '(': {
                    if (auto item = parse_group(verbose, nested, first, items.empty(), scoped)) {
                        items.push_back(std::move(*item));
                    } else if (global_flags_seen_) {
                        global_flags_seen_ = false;
                        verbose = (flags_ & flag_verbose) != 0;
                    }
                    break;
                }
                case '^':
                    items.push_back({Op::at, {}, flags & flag_multiline ? "(?:\\A|(?<=\\n))" : "\\A"});
                    break;
                case '$':
                    items.push_back({Op::at, {}, flags & flag_multiline ? "(?=\\n|\\z)" : "(?=\\n?\\z)"});
                    break;
                default: items.push_back(literal(token.ch)); break;
            }
        }
        Sequence out;
        for (const Item& item : items) {
            out.width.lo = add_width(out.width.lo, item.width.lo);
            out.width.hi = add_width(out.width.hi, item.width.hi);
            out.text += item.text;
            out.captures = out.captures || item.captures;
        }
        return out;
    }

    // `*`, `+`, `?` or `{m,n}` after `items.back()`. False when a `{` is a literal.
    bool parse_repeat(char32_t quantifier, std::vector<Item>& items) {
        const std::size_t here = source_.tell();
        std::uint64_t min = 0;
        std::uint64_t max = max_repeat;
        if (quantifier == '?') max = 1;
        if (quantifier == '+') min = 1;
        if (quantifier == '{') {
            if (source_.next_is('}')) return false;
            const auto lo = source_.get_while(std::numeric_limits<int>::max(), is_digit);
            std::u32string hi;
            if (source_.match(',')) {
                hi = source_.get_while(std::numeric_limits<int>::max(), is_digit);
            } else {
                hi = lo;
            }
            if (!source_.match('}')) {
                source_.seek(here);
                return false;
            }
            const auto number = [](const std::u32string& digits) {
                std::uint64_t value = 0;
                for (char32_t c : digits) {
                    value = value * 10 + (c - '0');
                    if (value >= max_repeat) throw SyntaxError("the repetition number is too large");
                }
                return value;
            };
            if (!lo.empty()) min = number(lo);
            if (!hi.empty()) {
                max = number(hi);
                if (max < min) source_.fail("min repeat greater than max repeat", source_.tell() - here);
            }
        }
        const std::size_t span = source_.tell() - here + 1;
        if (items.empty() || items.back().op == Op::at) source_.fail("nothing to repeat", span);
        if (items.back().op == Op::repeat) source_.fail("multiple repeat", span);
        std::string suffix;
        if (source_.match('?')) {
            suffix = "?";
        } else if (source_.match('+')) {
            suffix = "+";
        }
        Item& item = items.back();
        const Width inner = item.width;
        item.op = Op::repeat;
        item.width.lo = multiply_width(inner.lo, min);
        item.width.hi = (max == max_repeat && inner.hi != 0) ? max_width : multiply_width(inner.hi, max);
        item.text = repeat_text(item, min, max, suffix);
        saw_repeat_ = true;
        return true;
    }

    // Every item renders as one Boost atom, so a quantifier applies to it directly.
    // Boost runs a counted repeat of a group inside a lookbehind only written out,
    // so there a capture-free group repeated a fixed number of times is.
    std::string repeat_text(const Item& item, std::uint64_t min, std::uint64_t max, const std::string& suffix) const {
        static constexpr std::size_t max_written_out = 4096;
        const bool group = !item.text.empty() && item.text.front() == '(';
        if (lookbehind_groups_ && group && min == max && !item.captures &&
            item.text.size() * min <= max_written_out) {
            std::string out;
            for (std::uint64_t i = 0; i < min; ++i) out += item.text;
            return out;
        }
        return item.text + quantifier_text(min, max) + suffix;
    }

    Item parse_class(unsigned flags) {
        const std::size_t here = source_.tell() - 1;
        const bool negate = source_.match('^');
        std::vector<ClassMember> members;
        std::string text;
        const auto add = [&](const ClassMember& member) {
            members.push_back(member);
            text += member.kind == ClassMember::category ? member.text : literal_text(member.code);
        };
        while (true) {
            const auto token = source_.get();
            if (!token) source_.fail("unterminated character set", source_.tell() - here);
            if (token->is(']') && !members.empty()) break;
            const ClassMember first =
                token->escaped ? class_escape(*token, flags) : ClassMember{ClassMember::literal, token->ch, {}};
            if (!source_.match('-')) {
                add(first);
                continue;
            }
            const auto that = source_.get();
            if (!that) source_.fail("unterminated character set", source_.tell() - here);
            if (that->is(']')) {
                add(first);
                add({ClassMember::literal, U'-', {}});
                break;
            }
            const ClassMember last =
                that->escaped ? class_escape(*that, flags) : ClassMember{ClassMember::literal, that->ch, {}};
            const std::string range = token->text() + "-" + that->text();
            if (first.kind != ClassMember::literal || last.kind != ClassMember::literal || last.code < first.code) {
                source_.fail("bad character range " + range, token->length() + 1 + that->length());
            }
            members.push_back({ClassMember::range, first.code, {}});
            text += class_range_text(first.code, last.code);
        }
        if (members.size() == 1 && members.front().kind == ClassMember::literal && !negate) {
            return literal(members.front().code);
        }
        return {Op::unit, {1, 1}, (negate ? "[^" : "[") + text + "]"};
    }

    // `(`...: a group, an assertion, a reference, a conditional; nullopt for a
    // comment or global flags (which add nothing to the sequence).
    std::optional<Item> parse_group(bool verbose, int nested, bool first, bool sequence_empty,
                                    std::optional<unsigned> scoped) {
        const std::size_t start = source_.tell() - 1;
        bool capture = true;
        bool atomic = false;
        std::optional<std::u32string> name;
        unsigned add_flags = 0;
        unsigned del_flags = 0;
        const auto close = [&] {
            if (!source_.match(')')) source_.fail("missing ), unterminated subpattern", source_.tell() - start);
        };
        if (source_.match('?')) {
            const auto token = source_.get();
            if (!token) source_.fail("unexpected end of pattern");
            const char32_t c = token->escaped ? 0 : token->ch;
            if (c == 'P') {
                if (source_.match('<')) {
                    name = source_.get_until('>', "group name");
                    check_group_name(*name, 1);
                } else if (source_.match('=')) {
                    const auto ref = source_.get_until(')', "group name");
                    check_group_name(ref, 1);
                    const auto it = group_names_.find(ref);
                    if (it == group_names_.end()) {
                        source_.fail("unknown group name '" + to_utf8(ref) + "'", ref.size() + 1);
                    }
                    if (!group_closed(it->second)) source_.fail("cannot refer to an open group", ref.size() + 1);
                    check_lookbehind_group(it->second);
                    return group_ref(it->second);
                } else {
                    const auto other = source_.get();
                    if (!other) source_.fail("unexpected end of pattern");
                    source_.fail("unknown extension ?P" + other->text(), other->length() + 2);
                }
            } else if (c == ':') {
                capture = false;
            } else if (c == '#') {
                while (true) {
                    if (!source_.next()) source_.fail("missing ), unterminated comment", source_.tell() - start);
                    if (source_.get()->is(')')) break;
                }
                return std::nullopt;
            } else if (c == '=' || c == '!' || c == '<') {
                return parse_assertion(c, verbose, nested, scoped, start);
            } else if (c == '(') {
                return parse_conditional(verbose, nested, scoped, start);
            } else if (c == '>') {
                capture = false;
                atomic = true;
            } else if (flag_of(c) != 0 || c == '-') {
                if (!parse_flags(c, add_flags, del_flags)) {
                    if (!first || !sequence_empty) {
                        source_.fail("global flags not at the start of the expression", source_.tell() - start);
                    }
                    global_flags_seen_ = true;
                    return std::nullopt;
                }
                capture = false;
            } else {
                source_.fail("unknown extension ?" + token->text(), token->length() + 1);
            }
        }
        std::optional<std::uint64_t> group;
        if (capture) group = open_group(name);
        const bool sub_verbose = (verbose || (add_flags & flag_verbose)) && !(del_flags & flag_verbose);
        std::optional<unsigned> inner = scoped;
        if (add_flags != 0 || del_flags != 0) inner = (scoped.value_or(flags_) | add_flags) & ~del_flags;
        Sequence body = parse_alternatives(sub_verbose, nested + 1, inner);
        close();
        if (group) group_widths_[*group - 1] = body.width;

        std::string open;
        if (group) {
            open = "(";
        } else if (atomic) {
            open = "(?>";
        } else {
            // Boost needs only the case flag: ^ $ . are rendered explicitly.
            open = "(?";
            if (add_flags & flag_ignorecase) open += "i";
            if (del_flags & flag_ignorecase) open += "-i";
            open += ":";
        }
        return Item{Op::group, body.width, open + (atomic ? nonempty(body.text) : body.text) + ")",
                    group.has_value() || body.captures};
    }

    Item parse_assertion(char32_t kind, bool verbose, int nested, std::optional<unsigned> scoped, std::size_t start) {
        bool behind = false;
        if (kind == '<') {
            const auto token = source_.get();
            if (!token) source_.fail("unexpected end of pattern");
            if (!token->is('=') && !token->is('!')) {
                source_.fail("unknown extension ?<" + token->text(), token->length() + 2);
            }
            kind = token->ch;
            behind = true;
        }
        const bool outermost_lookbehind = behind && !lookbehind_groups_;
        if (outermost_lookbehind) lookbehind_groups_ = group_count();
        Sequence body = parse_alternatives(verbose, nested + 1, scoped);
        if (outermost_lookbehind) lookbehind_groups_.reset();
        if (!source_.match(')')) source_.fail("missing ), unterminated subpattern", source_.tell() - start);
        if (behind) {
            // `re._compiler`, which reports no position.
            if (body.width.lo > max_code) throw SyntaxError("looks too much behind");
            if (body.width.lo != body.width.hi) throw SyntaxError("look-behind requires fixed-width pattern");
        }
        std::string open = behind ? "(?<" : "(?";
        open += kind == '=' ? "=" : "!";
        return {Op::assertion, {}, open + nonempty(body.text) + ")", body.captures};
    }

    Item parse_conditional(bool verbose, int nested, std::optional<unsigned> scoped, std::size_t start) {
        const auto name = source_.get_until(')', "group name");
        std::uint64_t group = 0;
        if (is_identifier(name)) {
            const auto it = group_names_.find(name);
            if (it == group_names_.end()) source_.fail("unknown group name '" + to_utf8(name) + "'", name.size() + 1);
            group = it->second;
        } else {
            const auto number = python_int(name);
            if (!number) source_.fail("bad character in group name '" + to_utf8(name) + "'", name.size() + 1);
            group = *number;
            if (group == 0) source_.fail("bad group number", name.size() + 1);
            if (group >= max_groups) source_.fail("invalid group reference " + to_utf8(name), name.size() + 1);
            condition_refs_.emplace(group, source_.tell() - name.size() - 1);
        }
        check_lookbehind_group(group);
        Sequence yes = parse_sequence(verbose, nested + 1, false, scoped);
        std::optional<Sequence> no;
        if (source_.match('|')) {
            no = parse_sequence(verbose, nested + 1, false, scoped);
            if (source_.next_is('|')) source_.fail("conditional backref with more than two branches");
        }
        if (!source_.match(')')) source_.fail("missing ), unterminated subpattern", source_.tell() - start);
        Width width{no ? std::min(yes.width.lo, no->width.lo) : 0,
                    no ? std::max(yes.width.hi, no->width.hi) : yes.width.hi};
        std::string text = "(?(" + std::to_string(group) + ")" + yes.text;
        if (no) text += "|" + no->text;
        return {Op::group_exists, width, text + ")", yes.captures || (no && no->captures)};
    }

    // `_parse_flags`. True for scoped flags `(?i:`, false for global ones `(?i)`.
    bool parse_flags(char32_t c, unsigned& add_flags, unsigned& del_flags) {
        std::optional<Token> token = Token{c, false};
        const auto flag = [](const std::optional<Token>& t) { return t && !t->escaped ? flag_of(t->ch) : 0U; };
        const auto is_alpha = [](const std::optional<Token>& t) {
            return t && !t->escaped && (is_ascii_letter(t->ch) || t->ch >= 0x80);
        };
        if (c != '-') {
            while (true) {
                const unsigned f = flag(token);
                if (f == flag_locale) source_.fail("bad inline flags: cannot use 'L' flag with a str pattern");
                add_flags |= f;
                if ((f & type_flags) && (add_flags & type_flags) != f) {
                    source_.fail("bad inline flags: flags 'a', 'u' and 'L' are incompatible");
                }
                token = source_.get();
                if (!token) source_.fail("missing -, : or )");
                if (token->is(')') || token->is('-') || token->is(':')) break;
                if (flag(token) == 0) {
                    source_.fail(is_alpha(token) ? "unknown flag" : "missing -, : or )", token->length());
                }
            }
        }
        if (token->is(')')) {
            flags_ |= add_flags;
            return false;
        }
        if (add_flags & global_flags) source_.fail("bad inline flags: cannot turn on global flag", 1);
        if (token->is('-')) {
            token = source_.get();
            if (!token) source_.fail("missing flag");
            if (flag(token) == 0) source_.fail(is_alpha(token) ? "unknown flag" : "missing flag", token->length());
            while (true) {
                const unsigned f = flag(token);
                if (f & type_flags) source_.fail("bad inline flags: cannot turn off flags 'a', 'u' and 'L'");
                del_flags |= f;
                token = source_.get();
                if (!token) source_.fail("missing :");
                if (token->is(':')) break;
                if (flag(token) == 0) source_.fail(is_alpha(token) ? "unknown flag" : "missing :", token->length());
            }
        }
        if (del_flags & global_flags) source_.fail("bad inline flags: cannot turn off global flag", 1);
        if (add_flags & del_flags) source_.fail("bad inline flags: flag turned on and off", 1);
        return true;
    }

    Tokenizer source_;
    unsigned flags_ = 0;  // the global flags, `(?i)` at the start
    bool global_flags_seen_ = false;
    bool saw_repeat_ = false;
    std::vector<std::optional<Width>> group_widths_;  // group n at n - 1; empty while open
    std::map<std::u32string, std::uint64_t> group_names_;
    std::optional<std::uint64_t> lookbehind_groups_;  // groups before the outermost open lookbehind
    std::map<std::uint64_t, std::size_t> condition_refs_;  // `(?(n)`: n -> position
};

std::string translate(std::string_view pattern) {
    const auto decoded = decode_utf8(pattern);
    if (!decoded) throw SyntaxError("the pattern is not valid UTF-8");
    return Parser(*decoded).run();
}

}  // namespace

std::string python_to_boost_pattern(std::string_view pattern) {
    try {
        return translate(pattern);
    } catch (const SyntaxError& error) {
        throw PythonRegexError(error.message());
    }
}

CompiledPythonRegex compile_python_regex(std::string_view pattern) {
    const std::string translated = python_to_boost_pattern(pattern);
    try {
        return boost::make_u32regex(translated, boost::regex::perl);
    } catch (const boost::regex_error& error) {
        throw PythonRegexError("valid in Python, but the matcher cannot run it (" + std::string(error.what()) + ")");
    }
}

namespace {

// The searched text as code points, walked forwards and backwards only. Over such
// iterators Boost gives up after BOOST_REGEX_MAX_STATE_COUNT states, which forge_core
// sets (src/contract/CMakeLists.txt). Over `const UChar32*` the search would run
// libboost_regex's own instantiation, which allows max(P^2 * N, min(N^2, 10^8))
// states, P being the translated pattern's length: over 30 s for `\b(?:\w+\s?)*$`
// (P = 397, \w and \s spelled out as Python's classes) on a 10,000-character name.
class CodePointCursor
    : public boost::iterator_adaptor<CodePointCursor, const UChar32*, boost::use_default,
                                     boost::bidirectional_traversal_tag> {
public:
    CodePointCursor() : iterator_adaptor_(nullptr) {}  // Boost copies default-made ones
    explicit CodePointCursor(const UChar32* position) : iterator_adaptor_(position) {}
};

}  // namespace

bool python_regex_search(const CompiledPythonRegex& compiled, std::string_view subject) {
    using Utf8 = boost::u8_to_u32_iterator<std::string_view::const_iterator>;
    thread_local std::vector<UChar32> code_points;
    static constexpr UChar32 no_text = 0;
    try {
        code_points.assign(Utf8(subject.begin(), subject.begin(), subject.end()),
                           Utf8(subject.end(), subject.begin(), subject.end()));
        const UChar32* first = code_points.empty() ? &no_text : code_points.data();
        return boost::regex_search(CodePointCursor(first), CodePointCursor(first + code_points.size()), compiled,
                                   boost::match_default | boost::match_any);
    } catch (const std::exception& error) {
        // One of Boost's two bounds (the states visited, the backtracking memory),
        // or text that is not UTF-8.
        throw PythonRegexError("matching gave up: " + std::string(error.what()));
    }
}

}  // namespace detail

std::optional<std::string> python_regex_error(std::string_view pattern) {
    try {
        (void)detail::translate(pattern);
        return std::nullopt;
    } catch (const detail::SyntaxError& error) {
        return error.message();
    }
}

}  // namespace forge
