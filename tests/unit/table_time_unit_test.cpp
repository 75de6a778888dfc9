#define BOOST_TEST_MODULE table_time_unit
#include <boost/test/unit_test.hpp>

#include <optional>

#include "forge/table/time_unit.hpp"

BOOST_AUTO_TEST_CASE(every_spelling_ncu_and_nsys_use) {
    for (const auto unit : {"nsecond", "ns", "nsec"}) {
        BOOST_TEST(forge::nanoseconds_per(unit).value_or(-1.0) == 1.0, unit);
    }
    for (const auto unit : {"usecond", "us", "usec"}) {
        BOOST_TEST(forge::nanoseconds_per(unit).value_or(-1.0) == 1e3, unit);
    }
    for (const auto unit : {"msecond", "ms", "msec"}) {
        BOOST_TEST(forge::nanoseconds_per(unit).value_or(-1.0) == 1e6, unit);
    }
    for (const auto unit : {"second", "s", "sec"}) {
        BOOST_TEST(forge::nanoseconds_per(unit).value_or(-1.0) == 1e9, unit);
    }
    BOOST_TEST(forge::nanoseconds_per(" NS ").value_or(-1.0) == 1.0);
    BOOST_TEST(forge::nanoseconds_per("uSecond").value_or(-1.0) == 1e3);
}

BOOST_AUTO_TEST_CASE(other_units_are_not_time) {
    for (const auto unit : {"", "%", "byte", "cycle", "Ghz", "minute", "nanoseconds-and-more-text"}) {
        BOOST_TEST(!forge::nanoseconds_per(unit).has_value(), unit);
    }
}
