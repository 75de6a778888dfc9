#include "json_text.hpp"

#include <algorithm>
#include <iterator>
#include <utility>

namespace forge::eval_text {

namespace {

// A character iterator that publishes how far the parser has read, so SAX
// events and errors can be placed in the text (nlohmann's DOM keeps no positions).
class TrackingIterator {
public:
    using iterator_category = std::input_iterator_tag;
    using value_type = char;
    using difference_type = std::ptrdiff_t;
    using pointer = const char*;
    using reference = const char&;

    TrackingIterator(const char* at, const char** frontier) noexcept : at_(at), frontier_(frontier) {}

    reference operator*() const noexcept { return *at_; }
    TrackingIterator& operator++() noexcept {
        *frontier_ = ++at_;
        return *this;
    }
    TrackingIterator operator++(int) noexcept {
        TrackingIterator before = *this;
        ++*this;
        return before;
    }
    friend bool operator==(const TrackingIterator& a, const TrackingIterator& b) noexcept { return a.at_ == b.at_; }

private:
    const char* at_;
    const char** frontier_;
};

bool is_json_space(char c) noexcept { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// The last character the parser consumed that is not whitespace: the number
// lexer reads one character past a number, which may be the line's newline.
std::size_t last_token_offset(std::string_view text, const char* frontier) noexcept {
    auto offset = static_cast<std::size_t>(frontier - text.data());
    while (offset > 0 && is_json_space(text[offset - 1])) --offset;
    return offset > 0 ? offset - 1 : 0;
}

// Follows the parse and stops at the value `target` names.
class PathFinder final : public nlohmann::json_sax<nlohmann::json> {
public:
    PathFinder(std::string_view text, const char** frontier, const KeyPath& target)
        : text_(text), frontier_(frontier), target_(target.steps()) {}

    [[nodiscard]] std::optional<SourceLocation> found() const noexcept { return found_; }

    bool null() override { return scalar(); }
    bool boolean(bool) override { return scalar(); }
    bool number_integer(number_integer_t) override { return scalar(); }
    bool number_unsigned(number_unsigned_t) override { return scalar(); }
    bool number_float(number_float_t, const string_t&) override { return scalar(); }
    bool string(string_t&) override { return scalar(); }
    bool binary(binary_t&) override { return scalar(); }

    bool start_object(std::size_t) override { return open(false); }
    bool start_array(std::size_t) override { return open(true); }
    bool end_object() override { return close(); }
    bool end_array() override { return close(); }

    bool key(string_t& key) override {
        Frame& parent = frames_.back();
        parent.key = key;
        const std::size_t step = frames_.size() - 1;
        if (parent.on_path && step + 1 == target_.size() && matches(parent, step)) return hit();
        return true;
    }

    bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override { return false; }

private:
    struct Frame {
        bool array = false;
        bool on_path = false;  // this container's path is a prefix of the target
        std::size_t index = 0;
        std::string key;
    };

    bool matches(const Frame& parent, std::size_t step) const {
        if (parent.array) {
            const auto* index = std::get_if<std::size_t>(&target_[step]);
            return index && *index == parent.index;
        }
        const auto* key = std::get_if<std::string>(&target_[step]);
        return key && *key == parent.key;
    }

    // Is the value now starting on the path, and is it the target itself?
    std::pair<bool, bool> place() const {
        if (frames_.empty()) return {true, target_.empty()};
        const Frame& parent = frames_.back();
        const std::size_t step = frames_.size() - 1;
        if (!parent.on_path || step >= target_.size() || !matches(parent, step)) return {false, false};
        // An object member was already reported at its key.
        return {true, parent.array && step + 1 == target_.size()};
    }

    bool hit() {
        found_ = location_at(text_, last_token_offset(text_, *frontier_));
        return false;
    }

    void advance() {
        if (!frames_.empty() && frames_.back().array) ++frames_.back().index;
    }

    bool scalar() {
        if (place().second) return hit();
        advance();
        return true;
    }

    bool open(bool array) {
        const auto [on_path, is_target] = place();
        if (is_target) return hit();
        frames_.push_back(Frame{array, on_path, 0, {}});
        return true;
    }

    bool close() {
        frames_.pop_back();
        advance();
        return true;
    }

    std::string_view text_;
    const char** frontier_;
    const std::vector<std::variant<std::string, std::size_t>>& target_;
    std::vector<Frame> frames_;
    std::optional<SourceLocation> found_;
};

// "[json.exception.parse_error.101] parse error at line 2, column 10: syntax
// error ..." -> "syntax error ..." (the position is reported our way).
std::string without_position_prefix(std::string what) {
    if (what.starts_with("[json.exception.")) {
        if (const auto bracket = what.find("] "); bracket != std::string::npos) what.erase(0, bracket + 2);
    }
    if (what.starts_with("parse error")) {  // "parse error at line L, column C: " or "at byte B: "
        if (const auto colon = what.find(": "); colon != std::string::npos) what.erase(0, colon + 2);
    }
    return what;
}

// A first pass over the text that builds nothing: finds the first syntax error
// or nesting past the bound, with its position. (nlohmann's callback parser
// could bound the depth while building, but it rescans each container as it
// closes, quadratic in an array's length.)
class SyntaxCheck final : public nlohmann::json_sax<nlohmann::json> {
public:
    SyntaxCheck(std::string_view text, const char** frontier, std::size_t max_depth)
        : text_(text), frontier_(frontier), max_depth_(max_depth) {}

    [[nodiscard]] const std::optional<SyntaxError>& error() const noexcept { return error_; }

    bool null() override { return true; }
    bool boolean(bool) override { return true; }
    bool number_integer(number_integer_t) override { return true; }
    bool number_unsigned(number_unsigned_t) override { return true; }
    bool number_float(number_float_t, const string_t&) override { return true; }
    bool string(string_t&) override { return true; }
    bool binary(binary_t&) override { return true; }
    bool key(string_t&) override { return true; }
    bool start_object(std::size_t) override { return open(); }
    bool start_array(std::size_t) override { return open(); }
    bool end_object() override { return close(); }
    bool end_array() override { return close(); }

    bool parse_error(std::size_t byte, const std::string&, const nlohmann::detail::exception& e) override {
        // A parse error knows its byte; an out-of-range number is placed by its token.
        const auto* syntax = dynamic_cast<const nlohmann::json::parse_error*>(&e);
        const std::size_t offset = syntax && byte > 0 ? byte - 1 : last_token_offset(text_, *frontier_);
        error_ = SyntaxError{without_position_prefix(e.what()), location_at(text_, offset)};
        return false;
    }

private:
    bool open() {
        if (++depth_ <= max_depth_) return true;
        error_ = SyntaxError{"nested deeper than " + std::to_string(max_depth_) + " levels",
                             location_at(text_, last_token_offset(text_, *frontier_))};
        return false;
    }

    bool close() {
        --depth_;
        return true;
    }

    std::string_view text_;
    const char** frontier_;
    std::size_t max_depth_;
    std::size_t depth_ = 0;
    std::optional<SyntaxError> error_;
};

}  // namespace

KeyPath KeyPath::operator/(std::string_view key) const {
    KeyPath out = *this;
    out.steps_.emplace_back(std::string(key));
    return out;
}

KeyPath KeyPath::operator/(std::size_t index) const {
    KeyPath out = *this;
    out.steps_.emplace_back(index);
    return out;
}

std::string KeyPath::str() const {
    std::string out;
    for (const auto& step : steps_) {
        if (const auto* key = std::get_if<std::string>(&step)) {
            if (!out.empty()) out += '.';
            out += *key;
        } else {
            out += '[' + std::to_string(std::get<std::size_t>(step)) + ']';
        }
    }
    return out;
}

SourceLocation location_at(std::string_view text, std::size_t offset) noexcept {
    offset = std::min(offset, text.size());
    const std::string_view before = text.substr(0, offset);
    const auto line = 1 + std::count(before.begin(), before.end(), '\n');
    const auto newline = before.rfind('\n');
    const auto column = newline == std::string_view::npos ? offset + 1 : offset - newline;
    return SourceLocation{static_cast<int>(line), static_cast<int>(column)};
}

std::optional<SourceLocation> locate(std::string_view text, const KeyPath& path) {
    const char* frontier = text.data();
    PathFinder finder(text, &frontier, path);
    (void)nlohmann::json::sax_parse(TrackingIterator(text.data(), &frontier),
                                    TrackingIterator(text.data() + text.size(), &frontier), &finder);
    return finder.found();
}

std::variant<nlohmann::json, SyntaxError> parse_bounded(std::string_view text, std::size_t max_depth) {
    const char* frontier = text.data();
    SyntaxCheck check(text, &frontier, max_depth);
    (void)nlohmann::json::sax_parse(TrackingIterator(text.data(), &frontier),
                                    TrackingIterator(text.data() + text.size(), &frontier), &check);
    if (check.error()) return *check.error();
    return nlohmann::json::parse(text);
}

}  // namespace forge::eval_text
