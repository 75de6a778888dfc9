// A finding: one thing a check has to say about an input, with a stable code.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace forge {

enum class Severity { error, warning };

[[nodiscard]] std::string_view to_string(Severity severity) noexcept;

// 1-based, as editors and compilers print them.
struct SourceLocation {
    int line = 0;
    int column = 0;

    friend bool operator==(const SourceLocation&, const SourceLocation&) = default;
};

struct Finding {
    // Stable: tests and dashboards match on it (docs/reference/window-toml.md lists the codes).
    std::string code;
    Severity severity = Severity::error;
    std::optional<std::string> subject;   // e.g. "ref_input=A", a tensor name, a dotted key
    std::string message;                  // for people: what is wrong and how to fix it
    std::optional<SourceLocation> location;

    [[nodiscard]] bool is_error() const noexcept { return severity == Severity::error; }
};

}  // namespace forge
