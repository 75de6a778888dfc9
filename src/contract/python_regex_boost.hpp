// Internal: Python `re` patterns run by Boost.Regex (its ICU flavour, on UTF-8
// text as code points), with `re.search` semantics. The translation keeps Python's
// meaning: `^`, `$`, `.`, `\Z`, `\s`, `{,n}`, a literal `{`, named groups and their
// references, inline flags including (?a). \w and \b follow ICU's word characters,
// which differ from Python's only on rare code points (combining marks, some numerals).
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

#include <boost/regex/icu.hpp>

namespace forge::detail {

// Thrown for a pattern Python refuses, or that Boost cannot run (a back reference
// inside a lookbehind), or a search that exceeds Boost's complexity bound.
class PythonRegexError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// The Boost (perl syntax) pattern with the same meaning as Python `pattern`.
[[nodiscard]] std::string python_to_boost_pattern(std::string_view pattern);

using CompiledPythonRegex = boost::u32regex;

// Compile once, search many times.
[[nodiscard]] CompiledPythonRegex compile_python_regex(std::string_view pattern);

// `re.search(pattern, subject) is not None`, `subject` being UTF-8.
[[nodiscard]] bool python_regex_search(const CompiledPythonRegex& compiled, std::string_view subject);

}  // namespace forge::detail
