// Where things are in JSON text: parsing with a nesting bound and a position
// for every error, and finding the line of a key path after the fact (the DOM
// keeps no positions, and a structural error is only seen once it is built).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "forge/contract/finding.hpp"

namespace forge::eval_text {

// A path from the document root: object keys and array indices (0-based, as
// jq writes them: "performance.workloads[0].kernels.student[2]").
class KeyPath {
public:
    [[nodiscard]] KeyPath operator/(std::string_view key) const;
    [[nodiscard]] KeyPath operator/(std::size_t index) const;
    [[nodiscard]] std::string str() const;  // "" for the root
    [[nodiscard]] const std::vector<std::variant<std::string, std::size_t>>& steps() const noexcept { return steps_; }

private:
    std::vector<std::variant<std::string, std::size_t>> steps_;
};

// The 1-based line and column of a byte offset.
[[nodiscard]] SourceLocation location_at(std::string_view text, std::size_t offset) noexcept;

// Where the value at `path` is written: its key for an object member, the value
// itself for an array element. nullopt when the path is not in the text.
[[nodiscard]] std::optional<SourceLocation> locate(std::string_view text, const KeyPath& path);

// What went wrong reading the text as JSON, and where.
struct SyntaxError {
    std::string what;
    SourceLocation where;
};

// Parses `text`; a syntax error, a number out of range or nesting deeper than
// `max_depth` comes back as a SyntaxError instead of a document.
[[nodiscard]] std::variant<nlohmann::json, SyntaxError> parse_bounded(std::string_view text, std::size_t max_depth);

}  // namespace forge::eval_text
