#define BOOST_TEST_MODULE credit_kernel_match
#include <boost/test/unit_test.hpp>

#include <ctime>
#include <string>
#include <utility>
#include <vector>

#include "forge/credit/credit.hpp"

// Kernel names are matched with Python re.search semantics; expected matches
// are the Python oracle's (run_oracle.py, op "credit").

namespace {

using Strings = std::vector<std::string>;

// A declared contract whose student pays for A (student_regex) and whose
// reference pays for g (ref_regex).
forge::WindowContract contract(std::string student_regex, std::string ref_regex) {
    forge::WindowContract c;
    c.reference_inputs = {"q", "A"};
    c.student_inputs = {"q", "g"};
    c.reference_outputs = {"o"};
    c.student_outputs = {"o"};
    forge::Asymmetry a;
    a.kind = forge::Kind::ref_input;
    a.name = "A";
    a.cls = "price";
    a.student_kernel_regex = std::move(student_regex);
    forge::Asymmetry g;
    g.kind = forge::Kind::student_input;
    g.name = "g";
    g.cls = "price";
    g.ref_kernel_regex = std::move(ref_regex);
    c.asymmetries = {a, g};
    return c;
}

// Processor time, not wall time: the bound is on work, and CI machines are shared.
double cpu_seconds_since(std::clock_t start) { return static_cast<double>(std::clock() - start) / CLOCKS_PER_SEC; }

// CPU seconds that tell a match that gives up (Boost.Regex's complexity limit:
// 0.05 s in a release build, 1.1 s under ASan+UBSan at -O0 on a 2-core CI VM)
// from one that backtracks exponentially, which never ends on these names.
constexpr double gives_up_within_s = 5.0;

forge::SideReading side(std::vector<std::pair<std::string, double>> rows) {
    forge::KernelTable table;
    for (auto& [name, time_ns] : rows) table.kernels.push_back({std::move(name), 1, time_ns, 0.0});
    forge::SideReading reading;
    reading.ms = 1.0;
    reading.kernels = std::move(table);
    return reading;
}

}  // namespace

BOOST_AUTO_TEST_CASE(python_syntax_and_unanchored_search) {
    const auto credit = forge::window_credit(contract(R"(^(?P<stage>k1_)\w+$)", "(?i)CUMSUM"),
                                             side({{"k1_solve_tile", 2}, {"xk1_solve", 3}, {"k1_ solve", 5}}),
                                             side({{"chunk_CumSum_fwd", 1}, {"gemm", 3}}));
    BOOST_REQUIRE(credit.has_value());
    BOOST_TEST(credit->student.matched == Strings{"k1_solve_tile"}, boost::test_tools::per_element());
    BOOST_TEST(credit->student.fraction == 0.2);
    BOOST_TEST(credit->reference.matched == Strings{"chunk_CumSum_fwd"}, boost::test_tools::per_element());
    BOOST_TEST(credit->reference.fraction == 0.25);
}

BOOST_AUTO_TEST_CASE(dollar_matches_before_a_final_newline_and_backslash_z_does_not) {
    const auto credit = forge::window_credit(contract("solve$", R"(scan\Z)"), side({{"solve\n", 2}, {"a", 2}}),
                                             side({{"scan\n", 1}, {"b", 1}}));
    BOOST_TEST(credit->student.matched == Strings{"solve\n"}, boost::test_tools::per_element());
    BOOST_TEST(credit->reference.unmatched == Strings{"g"}, boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(a_catastrophic_pattern_is_an_error_naming_entry_and_kernel_not_a_hang) {
    const std::string name = std::string(5000, 'a') + "b";
    const std::clock_t start = std::clock();
    try {
        (void)forge::window_credit(contract("(a+)+$", "x"), side({{"ok_kernel", 1}, {name, 1}}), side({{"x", 1}}));
        BOOST_FAIL("the catastrophic pattern matched without complaint");
    } catch (const forge::CreditError& e) {
        BOOST_TEST(e.entry == "ref_input=A");
        BOOST_TEST(e.kernel == name);
        const std::string what = e.what();
        BOOST_TEST(what.find("ref_input=A") != std::string::npos, what);
        BOOST_TEST(what.find("(a+)+$") != std::string::npos, what);
        BOOST_TEST(what.find("aaaa") != std::string::npos, what);
        BOOST_TEST(what.size() < 1000u);  // the name is shortened in the message
    }
    BOOST_TEST(cpu_seconds_since(start) < gives_up_within_s);
}

BOOST_AUTO_TEST_CASE(other_exponential_patterns_give_up_quickly_too) {
    for (const char* pattern : {"(a|aa)+$", "(a|a)*$", "(.*a){12}$"}) {
        const std::clock_t start = std::clock();
        BOOST_CHECK_THROW((void)forge::window_credit(contract(pattern, "x"), side({{std::string(5000, 'a') + "!", 1}}),
                                                     side({{"x", 1}})),
                          forge::CreditError);
        const double seconds = cpu_seconds_since(start);
        BOOST_TEST(seconds < gives_up_within_s, pattern << " took " << seconds << " s");
    }
}

// Before the search bound was set, Boost allowed (pattern length)^2 * (name length)
// states here: over 30 s for the first pattern (its \w and \s spelled out as
// Python's classes), about 2 s for the second.
BOOST_AUTO_TEST_CASE(nested_repetition_on_a_ten_thousand_character_name_gives_up) {
    const std::pair<std::string, std::string> cases[] = {{R"(\b(?:\w+\s?)*$)", std::string(10'000, 'a') + "!"},
                                                         {"(a+)+$", std::string(10'000, 'a') + "b"}};
    for (const auto& [pattern, name] : cases) {
        const std::clock_t start = std::clock();
        try {
            (void)forge::window_credit(contract(pattern, "x"), side({{"ok_kernel", 1}, {name, 1}}), side({{"x", 1}}));
            BOOST_FAIL(pattern << " matched without complaint");
        } catch (const forge::CreditError& e) {
            BOOST_TEST(e.entry == "ref_input=A");
            BOOST_TEST(e.kernel == name);
            const std::string what = e.what();
            BOOST_TEST(what.find("'" + pattern + "'") != std::string::npos, what);
            BOOST_TEST(what.find("against kernel 'aaaa") != std::string::npos, what);
            BOOST_TEST(what.find("matching gave up: The complexity of matching") != std::string::npos, what);
        }
        const double seconds = cpu_seconds_since(start);
        BOOST_TEST(seconds < gives_up_within_s, pattern << " took " << seconds << " s");
    }
}

// The bound leaves ordinary regexes alone on long (templated) kernel names.
BOOST_AUTO_TEST_CASE(ordinary_patterns_on_a_ten_thousand_character_name_match_as_before) {
    std::string name = "void cutlass::Kernel<cutlass::gemm::kernel::GemmUniversal<";
    while (name.size() < 10'000) name += "cutlass::layout::RowMajor, cutlass::half_t, 128, ";
    name += "true>>(Params)";
    const auto credit = forge::window_credit(
        contract(R"(^void cutlass::Kernel<.*GemmUniversal<(\w+::)+\w+, )", R"((?i)rowmajor.*params\)$)"),
        side({{name, 3}, {"k1_solve", 1}}), side({{name, 1}, {R"(\w+_solve)", 1}}));
    BOOST_TEST(credit->student.matched == Strings{name}, boost::test_tools::per_element());
    BOOST_TEST(credit->reference.matched == Strings{name}, boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(a_pattern_that_does_not_compile_is_an_error_naming_the_entry) {
    try {
        (void)forge::window_credit(contract("solve", "cumsum("), side({{"solve", 1}}), side({{"cumsum", 1}}));
        BOOST_FAIL("an invalid regex was used");
    } catch (const forge::CreditError& e) {
        BOOST_TEST(e.entry == "student_input=g");
        BOOST_TEST(e.kernel.empty());
        BOOST_TEST(std::string(e.what()).find("ref_kernel_regex") != std::string::npos, e.what());
    }
}

BOOST_AUTO_TEST_CASE(ten_thousand_rows_price_quickly) {
    std::vector<std::pair<std::string, double>> rows;
    for (int i = 0; i < 10'000; ++i) {
        rows.emplace_back(i % 997 == 0 ? "k1_solve_tile_" + std::to_string(i)
                                       : "void flash::bwd_kernel<" + std::to_string(i) + ", 128, true>",
                          1000.0 + i % 113);
    }
    const auto student = side(std::move(rows));
    const auto c = contract("k1_", "(?P<scan>chunk_cumsum)");
    const std::clock_t start = std::clock();
    const auto credit = forge::window_credit(c, student, side({{"chunk_cumsum_fwd", 1}}));
    BOOST_TEST(credit->student.matched.size() == 11u);
    BOOST_TEST(cpu_seconds_since(start) < 2.0);  // a few milliseconds in a release build; sanitizer builds run it too
}

BOOST_AUTO_TEST_CASE(an_unmatched_regex_over_ten_thousand_long_rows_is_reported_quickly) {
    // The did-you-mean searches every name: bounded, it stays fast on a table
    // of templated names.
    std::vector<std::pair<std::string, double>> rows;
    for (int i = 0; i < 10'000; ++i) {
        rows.emplace_back("void flash::bwd_kernel<" + std::to_string(i) + ", 128, true>" + std::string(600, 'x'), 1.0);
    }
    const auto c = contract("rebuild_row_statistics", "(?P<scan>chunk_cumsum)");
    const std::clock_t start = std::clock();
    const auto credit = forge::window_credit(c, side(std::move(rows)), side({{"chunk_cumsum_fwd", 1}}));
    BOOST_REQUIRE(credit.has_value());
    BOOST_TEST(credit->why.at(0).code == "regex-unmatched");
    BOOST_TEST(credit->why.at(0).message.find("(9988 more)") != std::string::npos);
    BOOST_TEST(credit->why.at(0).message.find("did you mean") == std::string::npos);
    // 0.1 s in a release build, 2.5 s under the sanitizers; an unbounded
    // did-you-mean over whole names takes minutes there.
    BOOST_TEST(cpu_seconds_since(start) < 10.0);
}
