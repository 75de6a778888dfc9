// Internal: Python `re` patterns run by Boost.Regex, with `re.search` semantics.
// The translation keeps Python's meaning on ASCII text (kernel names): `^`, `$`,
// `.`, `\Z`, `{,n}`, a literal `{`, named groups and their references, inline
// flags. Non-ASCII code points inside a character class match any non-ASCII byte.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

#include <boost/regex.hpp>

namespace forge::detail {

// Thrown for a pattern Python refuses, or that Boost cannot run (a back reference
// inside a lookbehind), or a search that exceeds Boost's complexity bound.
class PythonRegexError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// The Boost (perl syntax) pattern with the same meaning as Python `pattern`.
[[nodiscard]] std::string python_to_boost_pattern(std::string_view pattern);

// Compile once, search many times.
[[nodiscard]] boost::regex compile_python_regex(std::string_view pattern);

// `re.search(pattern, subject) is not None`.
[[nodiscard]] bool python_regex_search(const boost::regex& compiled, std::string_view subject);

}  // namespace forge::detail
