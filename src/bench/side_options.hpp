// How the bench reads the sides' compile options forge_add_operator() compiled
// into it (BuildInfo), and what it says when they differ.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "forge/eval/side_options.hpp"

namespace forge::bench {

// BuildInfo's "<language>=<option>\t<option>..." lines: each language's options.
[[nodiscard]] OptionsByLanguage options_by_language(std::string_view lines);

// A notice naming the options only one side was compiled with; nothing when
// both had the same in every language, or either is not known.
[[nodiscard]] std::optional<std::string> side_options_notice(std::string_view reference_lines,
                                                             std::string_view student_lines);

}  // namespace forge::bench
