// The share of a CPU's time the hypervisor gave other guests, from /proc/stat.
#define BOOST_TEST_MODULE bench_steal_time
#include <boost/test/unit_test.hpp>

#include "runtime/host/steal_time.hpp"

namespace fb = forge::bench;

namespace {
constexpr const char* before = "cpu  4536426 224141 551120 2122712 28023 0 5677 8676 0 0\n"
                               "cpu0 2032618 112148 249934 1326832 10309 0 473 4305 0 0\n"
                               "cpu1 2503807 111993 301185 795880 17713 0 5204 4370 0 0\n"
                               "intr 123 0 0\n";
// Two seconds later: cpu1 ran 100 ticks, 50 of them stolen; cpu0 idled.
constexpr const char* after = "cpu  4536476 224141 551120 2122912 28023 0 5677 8726 0 0\n"
                              "cpu0 2032618 112148 249934 1327032 10309 0 473 4305 0 0\n"
                              "cpu1 2503857 111993 301185 795880 17713 0 5204 4420 0 0\n";
}  // namespace

BOOST_AUTO_TEST_CASE(a_cpu_s_line_gives_its_steal_and_total_ticks) {
    const auto cpu1 = fb::parse_cpu_times(before, 1);
    BOOST_TEST_REQUIRE(cpu1.has_value());
    BOOST_TEST(cpu1->steal == 4370u);
    BOOST_TEST(cpu1->total == 2503807u + 111993u + 301185u + 795880u + 17713u + 0u + 5204u + 4370u);
    BOOST_TEST(fb::parse_cpu_times(before, -1)->steal == 8676u);  // the line of all CPUs
    BOOST_TEST(!fb::parse_cpu_times(before, 7));                  // no such CPU
    BOOST_TEST(!fb::parse_cpu_times("cpu0 1 2 3 4 5 6 7\n", 0));  // no steal column
}

BOOST_AUTO_TEST_CASE(the_stolen_share_is_steal_over_all_ticks_between_readings) {
    const auto cpu1 = fb::steal_fraction(*fb::parse_cpu_times(before, 1), *fb::parse_cpu_times(after, 1));
    BOOST_TEST_REQUIRE(cpu1.has_value());
    BOOST_TEST(*cpu1 == 0.5, boost::test_tools::tolerance(1e-12));
    BOOST_TEST(*fb::steal_fraction(*fb::parse_cpu_times(before, 0), *fb::parse_cpu_times(after, 0)) == 0.0);
    BOOST_TEST(
        !fb::steal_fraction(*fb::parse_cpu_times(before, 0), *fb::parse_cpu_times(before, 0)));  // no time passed
    BOOST_TEST(fb::read_cpu_times(-1).has_value());  // this machine's /proc/stat
}
