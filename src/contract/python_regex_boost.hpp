// Internal: Python `re` patterns run by Boost.Regex (its ICU flavour, on UTF-8
// text as code points), with `re.search` semantics. The translation keeps Python's
// meaning: `^`, `$`, `.`, `\Z`, `\s`, `{,n}`, a literal `{`, named groups and their
// references, inline flags including (?a). \w and \b follow ICU's word characters,
// which differ from Python's only on rare code points (combining marks, some numerals).
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

// The bound on one search (python_regex_search) must be the same in every
// translation unit that includes Boost.Regex: forge_core defines it for its own
// sources, and a test that includes this header takes forge_core's definitions.
#ifndef BOOST_REGEX_MAX_STATE_COUNT
#error "BOOST_REGEX_MAX_STATE_COUNT is not set: compile with forge_core's definitions (src/contract/CMakeLists.txt)"
#endif
#include <boost/regex/icu.hpp>

namespace forge::detail {

// Thrown for a pattern Python refuses, or that Boost cannot run (a back reference
// inside a lookbehind), or a search that visits more than BOOST_REGEX_MAX_STATE_COUNT
// states or outgrows Boost's backtracking memory.
class PythonRegexError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// The Boost (perl syntax) pattern with the same meaning as Python `pattern`.
[[nodiscard]] std::string python_to_boost_pattern(std::string_view pattern);

using CompiledPythonRegex = boost::u32regex;

// Compile once, search many times.
[[nodiscard]] CompiledPythonRegex compile_python_regex(std::string_view pattern);

// `re.search(pattern, subject) is not None`, `subject` being UTF-8. Throws
// PythonRegexError when the search gives up (a nested repetition such as (a+)+
// on a long name) or `subject` is not UTF-8.
[[nodiscard]] bool python_regex_search(const CompiledPythonRegex& compiled, std::string_view subject);

}  // namespace forge::detail
