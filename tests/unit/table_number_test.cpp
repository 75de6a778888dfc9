#define BOOST_TEST_MODULE table_number
#include <boost/test/unit_test.hpp>

#include <string>

#include "forge/table/number.hpp"

using forge::ParsedNumber;
using Status = ParsedNumber::Status;

namespace {

double value_of(std::string_view text) {
    const ParsedNumber number = forge::parse_number(text);
    BOOST_TEST_REQUIRE(number.has_value(), "\"" << text << "\" should read as a number");
    return number.value;
}

Status status_of(std::string_view text) { return forge::parse_number(text).status; }

}  // namespace

BOOST_AUTO_TEST_CASE(plain_numbers) {
    BOOST_TEST(value_of("6.75") == 6.75);
    BOOST_TEST(value_of("9920") == 9920.0);
    BOOST_TEST(value_of(" 12 ") == 12.0);
    BOOST_TEST(value_of("1e+06") == 1e6);
    BOOST_TEST(value_of("-3.5") == -3.5);
    BOOST_TEST(value_of("+4") == 4.0);
    BOOST_TEST(value_of("0") == 0.0);
}

BOOST_AUTO_TEST_CASE(thousands_separators_group_by_three) {
    BOOST_TEST(value_of("8,192") == 8192.0);
    BOOST_TEST(value_of("10,195,552") == 10195552.0);
    BOOST_TEST(value_of("9,495.42") == 9495.42);
    BOOST_TEST(value_of("1,234.5") == 1234.5);
    BOOST_TEST(value_of("-1,000") == -1000.0);
    // Misplaced separators are not a number: guessing would misread the value.
    BOOST_TEST((status_of("1,23") == Status::invalid));
    BOOST_TEST((status_of("12,3456") == Status::invalid));
    BOOST_TEST((status_of("1234,567") == Status::invalid));
    BOOST_TEST((status_of(",123") == Status::invalid));
    BOOST_TEST((status_of("1,234,56") == Status::invalid));
    BOOST_TEST((status_of("1.5,3") == Status::invalid));
    BOOST_TEST((status_of("1,") == Status::invalid));
}

BOOST_AUTO_TEST_CASE(empty_and_na_are_absent) {
    BOOST_TEST((status_of("") == Status::absent));
    BOOST_TEST((status_of("  ") == Status::absent));
    BOOST_TEST((status_of("n/a") == Status::absent));
    BOOST_TEST((status_of("N/A") == Status::absent));
}

BOOST_AUTO_TEST_CASE(text_is_not_a_number) {
    BOOST_TEST((status_of("NVIDIA B200") == Status::invalid));
    BOOST_TEST((status_of("12.0.1") == Status::invalid));
    BOOST_TEST((status_of("2024-Jul-13 19:18:31") == Status::invalid));
    BOOST_TEST((status_of("inf") == Status::invalid));
    BOOST_TEST((status_of("nan") == Status::invalid));
    BOOST_TEST((status_of("-") == Status::invalid));
    BOOST_TEST((status_of("12 ms") == Status::invalid));
    BOOST_TEST((status_of(std::string(100, '9')) == Status::invalid));  // longer than any real value
    BOOST_TEST((status_of("1e999") == Status::invalid));                // not finite
}
