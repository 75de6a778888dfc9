#define BOOST_TEST_MODULE contract_python_regex
#include <boost/test/unit_test.hpp>

#include <string>
#include <string_view>

#include "forge/contract/python_regex.hpp"
#include "python_regex_boost.hpp"

namespace {

struct Verdict {
    std::string_view pattern;
    bool valid;  // Python 3.11's re.compile accepts it
};

// Each verdict is what CPython 3.11's `re.compile` says (the Python oracle's check).
constexpr Verdict verdicts[] = {
    {R"(k1_)", true},
    {R"(rebuild_.*cumsum)", true},
    {R"(^void chunk_(fwd|bwd)<)", true},
    {R"(gemm.*\bsm90\b)", true},
    {R"(\d+x\d+)", true},
    {R"(^$)", true},
    // A brace that does not make a repeat is a literal in Python.
    {R"(a{)", true},
    {R"({)", true},
    {R"(a{1)", true},
    {R"(a{,3})", true},
    {R"(x{})", true},
    // Python's own named groups, not Perl's.
    {R"((?P<name>x)(?P=name))", true},
    {R"((?P<é>x))", true},
    {R"((?<name>x))", false},
    {R"((?P<1>x))", false},
    {R"((?P=missing))", false},
    // Perl escapes Python does not know.
    {R"(\q)", false},
    {R"(\e)", false},
    {R"(\K)", false},
    {R"(\p{L})", false},
    {R"(\z)", false},
    {R"(\x4)", false},
    {R"(\x41)", true},
    {R"(\u00e9)", true},
    {R"(\777)", false},
    {R"(\0)", true},
    {R"(a\)", false},
    // Classes.
    {R"([\d-z])", false},
    {R"([[:alpha:]])", true},
    {R"([z-a])", false},
    {R"([)", false},
    {R"([])", false},
    {R"([]a])", true},
    // Flags.
    {R"((?i)abc)", true},
    {R"(abc(?i))", false},
    {R"(a|(?i)b)", false},
    {R"((?x) a b # comment)", true},
    {R"((?L)a)", false},
    {R"((?t)a*)", false},
    {R"((?i:a)(?-i:b))", true},
    {R"((?-a:x))", false},
    // Lookbehinds must be fixed width.
    {R"((?<=a+)b)", false},
    {R"((?<=ab|cd)e)", true},
    {R"((?<=ab|c)e)", false},
    {R"((a)(?<=\1))", true},
    {R"((?<=(a)\1))", false},
    // Groups, repeats, references.
    {R"(()", false},
    {R"())", false},
    {R"(*)", false},
    {R"(a**)", false},
    {R"(a{2}{3})", false},
    {R"(a*?+)", false},
    {R"(a++)", true},
    {R"((?>a+)b)", true},
    {R"(\1)", false},
    {R"((a)\1)", true},
    {R"((a\1))", false},
    {R"((?#comment)", false},
    {R"((?(1)a|b))", false},
    {R"((a)(?(1)b|c))", true},
    {R"((?(1)a|b|c))", false},
};

struct Search {
    std::string_view pattern;
    std::string_view subject;
    bool found;  // Python's re.search(pattern, subject) is not None
};

constexpr Search searches[] = {
    {R"(k1_)", "void k1_rebuild<128>(float*)", true},
    {R"(^k1_)", "void k1_rebuild", false},
    {R"(rebuild$)", "k1_rebuild\n", true},
    {R"(rebuild$)", "k1_rebuild\nx", false},
    {R"(rebuild\Z)", "k1_rebuild\n", false},
    {R"((?m)^x)", "a\nx", true},
    {R"(^x)", "a\nx", false},
    {R"(a.b)", "a\nb", false},
    {R"((?s)a.b)", "a\nb", true},
    {R"(a{)", "xa{y", true},
    {R"(a{,2}b)", "aab", true},
    {R"(x{})", "x{}", true},
    {R"((?P<n>ab)(?P=n))", "abab", true},
    {R"((?P<n>ab)(?P=n))", "abba", false},
    {R"(\Bmm)", "gemm", true},
    {R"(\B)", "-", true},
    {R"(\B)", "", false},
    {R"((?i)GEMM)", "sm90_gemm", true},
    {R"((?i:G)emm)", "gemm", true},
    {R"((?i:G)EMM)", "gemm", false},
    {R"([[:alpha:]])", "a]", true},
    {R"([[:alpha:]])", "b", false},
    {R"((?<=ab|cd)e)", "cde", true},
    {R"((?<=(?:ab){2})c)", "ababc", true},
    {R"((?x) a b # c)", "ab", true},
    {R"(\x41\u0042)", "AB", true},
    {R"(\d+x\d+)", "tile_128x64", true},
    {R"((a)?(?(1)b|c))", "c", true},
    {R"(a++b)", "aab", true},
    {R"((?>a+)ab)", "aaab", false},
    {R"(é)", "café", true},
    {R"(\N{EM DASH})", "a—b", true},
    // Code points, not bytes: é is one character.
    {R"(^.{4}_kernel$)", "café_kernel", true},
    {R"((?i)ЯДРО)", "ядро_kernel", true},
    {R"(^noyau_\w$)", "noyau_é", true},
    {R"(^noyau_\w$)", "noyau_\u0301", false},  // a combining mark is no word character to Python
    {R"(\w)", "²", true},                       // ... a superscript digit is
    {R"((?a)\w)", "é", false},
    {R"(_\W+$)", "a_é", false},
    {R"(\s)", "\x1c", true},
    {R"(\d)", "٣", true},
};

}  // namespace

BOOST_AUTO_TEST_CASE(validity_follows_python) {
    for (const Verdict& v : verdicts) {
        const auto error = forge::python_regex_error(v.pattern);
        BOOST_TEST(!error.has_value() == v.valid, "pattern " << v.pattern << ": " << error.value_or("valid"));
    }
}

BOOST_AUTO_TEST_CASE(the_reason_names_the_position) {
    BOOST_TEST(forge::python_regex_error("ab(c").value() == "missing ), unterminated subpattern at position 2");
    BOOST_TEST(forge::python_regex_error(R"(\q)").value() == R"(bad escape \q at position 0)");
}

BOOST_AUTO_TEST_CASE(named_characters_are_looked_up_like_unicodedata) {
    BOOST_TEST(!forge::python_regex_error(R"(a\N{EM DASH}b)").has_value());
    BOOST_TEST(!forge::python_regex_error(R"([\N{em dash}-])").has_value());  // any case, in a class too
    BOOST_TEST(forge::python_regex_error(R"(\N{NO SUCH CHARACTER})").value() ==
               "undefined character name 'NO SUCH CHARACTER' at position 0");
    BOOST_TEST(forge::python_regex_error(R"(\N{})").has_value());
    BOOST_TEST(forge::python_regex_error(R"(\NX)").has_value());
}

BOOST_AUTO_TEST_CASE(every_valid_verdict_compiles_for_boost) {
    for (const Verdict& v : verdicts) {
        if (!v.valid || v.pattern == R"((a)(?<=\1))") continue;  // Boost has no references in lookbehinds
        BOOST_CHECK_NO_THROW((void)forge::detail::compile_python_regex(v.pattern));
    }
    BOOST_CHECK_THROW((void)forge::detail::compile_python_regex(R"((a)(?<=\1))"), forge::detail::PythonRegexError);
    BOOST_CHECK_THROW((void)forge::detail::compile_python_regex("("), forge::detail::PythonRegexError);
}

BOOST_AUTO_TEST_CASE(search_follows_python) {
    for (const Search& s : searches) {
        const auto compiled = forge::detail::compile_python_regex(s.pattern);
        BOOST_TEST(forge::detail::python_regex_search(compiled, s.subject) == s.found,
                   "re.search(" << s.pattern << ", " << s.subject << ")");
    }
}

BOOST_AUTO_TEST_CASE(deep_nesting_is_refused_not_overflowed) {
    const std::string deep = std::string(100000, '(') + "a" + std::string(100000, ')');
    BOOST_TEST(forge::python_regex_error(deep).has_value());
    const std::string shallow = std::string(300, '(') + "a" + std::string(300, ')');
    BOOST_TEST(!forge::python_regex_error(shallow).has_value());
}

BOOST_AUTO_TEST_CASE(huge_repeat_counts_are_refused) {
    BOOST_TEST(forge::python_regex_error("a{4294967295}").has_value());
    BOOST_TEST(!forge::python_regex_error("a{4294967294}").has_value());
}

BOOST_AUTO_TEST_CASE(a_runaway_search_is_an_error_not_a_hang) {
    const auto compiled = forge::detail::compile_python_regex("(a*)*b");
    BOOST_CHECK_THROW((void)forge::detail::python_regex_search(compiled, std::string(40, 'a')),
                      forge::detail::PythonRegexError);
}
