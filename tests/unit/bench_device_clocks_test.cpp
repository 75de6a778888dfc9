#define BOOST_TEST_MODULE bench_device_clocks
#include <boost/test/unit_test.hpp>

#include <string>
#include <vector>

#include "runtime/device_clocks.hpp"

namespace fb = forge::bench;

namespace {

// Which readings of a series a fresh watch calls throttled.
std::vector<bool> throttled(const std::vector<fb::ClockReading>& series) {
    fb::ClockWatch watch;
    std::vector<bool> result;
    for (const fb::ClockReading& reading : series) result.push_back(watch.throttled(reading));
    return result;
}

constexpr std::uint64_t gpu_idle = fb::clock_reason::gpu_idle;
constexpr std::uint64_t applications_clocks = 0x2;
constexpr std::uint64_t sync_boost = 0x10;

}  // namespace

BOOST_AUTO_TEST_CASE(a_steady_boost_clock_throttles_nothing) {
    const std::vector<fb::ClockReading> series(30, {.sm_mhz = 1980, .memory_mhz = 2619, .reasons = 0});
    BOOST_TEST(throttled(series) == std::vector<bool>(30, false), boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(settings_and_an_idle_device_are_not_throttling) {
    for (std::uint64_t reasons : {gpu_idle, applications_clocks, sync_boost, gpu_idle | applications_clocks}) {
        fb::ClockWatch watch;
        BOOST_TEST(!watch.throttled({.sm_mhz = 1980, .memory_mhz = 2619, .reasons = reasons}));
        BOOST_TEST(fb::throttle_reasons(reasons).empty());
    }
}

BOOST_AUTO_TEST_CASE(a_slowing_reason_throttles_its_round_only) {
    std::vector<fb::ClockReading> series(10, {.sm_mhz = 1980, .memory_mhz = 2619, .reasons = 0});
    series[4].reasons = fb::clock_reason::sw_power_cap;
    series[7].reasons = fb::clock_reason::hw_thermal | gpu_idle;
    std::vector<bool> expected(10, false);
    expected[4] = expected[7] = true;
    BOOST_TEST(throttled(series) == expected, boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(a_clock_step_down_without_a_reason_throttles_until_it_recovers) {
    std::vector<fb::ClockReading> series(12, {.sm_mhz = 1980, .memory_mhz = 2619, .reasons = 0});
    for (std::size_t i = 5; i < 9; ++i) series[i].sm_mhz = 1755;  // 11% down
    series[10].sm_mhz = 1965;                                      // 0.8% down: noise, not a step
    std::vector<bool> expected(12, false);
    for (std::size_t i = 5; i < 9; ++i) expected[i] = true;
    BOOST_TEST(throttled(series) == expected, boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(a_clock_read_while_the_device_idles_is_not_the_rounds) {
    // Microsecond calls leave the device idle when the reading is taken; the
    // clock it is lowering to then describes no call, before or after the peak.
    std::vector<fb::ClockReading> series(8, {.sm_mhz = 1980, .memory_mhz = 2619, .reasons = 0});
    series[0] = {.sm_mhz = 2100, .memory_mhz = 2619, .reasons = gpu_idle};
    series[3] = {.sm_mhz = 345, .memory_mhz = 2619, .reasons = gpu_idle};
    series[5] = {.sm_mhz = 1410, .memory_mhz = 2619, .reasons = gpu_idle | fb::clock_reason::sw_power_cap};
    series[6].sm_mhz = 1800;  // a drop on a busy device still counts
    std::vector<bool> expected(8, false);
    expected[5] = expected[6] = true;
    BOOST_TEST(throttled(series) == expected, boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(a_clock_ramping_up_throttles_the_rounds_before_it_peaks) {
    // The device was still ramping when the rounds began: the first readings
    // are below what it reaches, and only the readings from the peak on count.
    const std::vector<fb::ClockReading> series{
        {.sm_mhz = 1500}, {.sm_mhz = 1980}, {.sm_mhz = 1980}, {.sm_mhz = 1600}, {.sm_mhz = 1975}};
    BOOST_TEST(throttled(series) == (std::vector<bool>{false, false, false, true, false}),
               boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(the_reasons_are_named_in_bit_order) {
    const std::vector<std::string> names =
        fb::throttle_reasons(fb::clock_reason::hw_power_brake | fb::clock_reason::sw_power_cap | gpu_idle);
    BOOST_TEST(names == (std::vector<std::string>{"power cap", "power brake"}), boost::test_tools::per_element());
}
