// Whether the two sides were compiled alike. A card's sides are separate
// targets: options one of them got alone (a student's -fopenmp or
// -march=native, a library given to one side) are a difference between the
// timed calls that no window declares.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace forge::bench {

// BuildInfo's "<language>=<option>\t<option>..." lines: each language's options.
[[nodiscard]] std::map<std::string, std::vector<std::string>> options_by_language(std::string_view lines);

// A notice naming the options only one side was compiled with; nothing when
// both had the same in every language (in any order), or either is not known.
[[nodiscard]] std::optional<std::string> side_options_notice(std::string_view reference_lines,
                                                             std::string_view student_lines);

}  // namespace forge::bench
