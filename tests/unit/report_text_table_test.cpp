#define BOOST_TEST_MODULE report_text_table
#include <boost/test/unit_test.hpp>

#include <sstream>

#include "forge/report/text_table.hpp"

using namespace forge;

BOOST_AUTO_TEST_CASE(short_names_are_kept_whole) {
    BOOST_TEST(shorten_middle("gemm_kernel", 11) == "gemm_kernel");
}

BOOST_AUTO_TEST_CASE(long_names_keep_both_ends) {
    const std::string name = "void flash_fwd_kernel<Flash_fwd_kernel_traits<128, 64, 64, 4>>(Flash_fwd_params)";
    const std::string shown = shorten_middle(name, 30);
    BOOST_TEST(display_width(shown) == 30u);
    BOOST_TEST(shown.starts_with("void flash_fwd"));
    BOOST_TEST(shown.ends_with("fwd_params)"));
    BOOST_TEST(shown.find("\u2026") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(shortening_never_splits_a_utf8_character) {
    const std::string name = "k\u00e9rnel_\u00e9\u00e9\u00e9\u00e9\u00e9\u00e9_end";
    const std::string shown = shorten_middle(name, 9);
    BOOST_TEST(display_width(shown) == 9u);
    BOOST_TEST(shown == "k\u00e9rn\u2026_end");
}

BOOST_AUTO_TEST_CASE(columns_are_aligned_and_numbers_right_aligned) {
    TextTable table({{"kernel"}, {"time us", Align::right}});
    table.add_row({"a", "1.50"});
    table.add_row({"longer_name", "120.25"});
    std::ostringstream out;
    table.render_text(out, false);
    BOOST_TEST(out.str() ==
               "kernel       time us\n"
               "-----------  -------\n"
               "a               1.50\n"
               "longer_name   120.25\n");
}

BOOST_AUTO_TEST_CASE(colour_only_when_asked) {
    TextTable table({{"kernel"}});
    table.add_row({"rebuild"}, Emphasis::priced);
    std::ostringstream plain, coloured;
    table.render_text(plain, false);
    table.render_text(coloured, true);
    BOOST_TEST(plain.str().find('\x1b') == std::string::npos);
    BOOST_TEST(coloured.str().find("\x1b[33mrebuild\x1b[0m") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(markdown_escapes_pipes_and_marks_alignment) {
    TextTable table({{"name"}, {"pct", Align::right}});
    table.add_row({"a|b", "5%"});
    std::ostringstream out;
    table.render_markdown(out);
    BOOST_TEST(out.str() == "| name | pct |\n| --- | ---: |\n| a\\|b | 5% |\n");
}

BOOST_AUTO_TEST_CASE(a_row_wider_than_the_table_is_refused) {
    TextTable table({{"only"}});
    BOOST_CHECK_THROW(table.add_row({"a", "b"}), std::invalid_argument);
}
