#define BOOST_TEST_MODULE bench_drift
#include <boost/test/unit_test.hpp>

#include <vector>

#include "rules/drift.hpp"
#include "runtime/calibration.hpp"

namespace fb = forge::bench;
namespace tt = boost::test_tools;

BOOST_AUTO_TEST_CASE(a_steady_calibration_is_not_flagged_even_with_single_outliers) {
    std::vector<double> ms(40, 0.020);
    ms[5] = 0.2;  // one scheduler slice
    ms[33] = 0.1;
    const fb::Drift drift = fb::calibration_drift(ms);
    BOOST_TEST(drift.block_medians_ms.size() == 4u);
    BOOST_TEST(drift.moved == 0.0, tt::tolerance(1e-12));
    BOOST_TEST(!drift.flagged);
}

BOOST_AUTO_TEST_CASE(a_step_in_the_calibration_is_flagged) {
    std::vector<double> ms(40, 0.020);
    for (std::size_t i = 20; i < ms.size(); ++i) ms[i] = 0.023;  // 15% slower from the middle on
    const fb::Drift drift = fb::calibration_drift(ms);
    BOOST_TEST(drift.moved == 0.15, tt::tolerance(1e-9));
    BOOST_TEST(drift.flagged);
}

BOOST_AUTO_TEST_CASE(a_slow_trend_is_flagged_and_a_small_one_is_not) {
    std::vector<double> trend;
    std::vector<double> small;
    for (int i = 0; i < 100; ++i) {
        trend.push_back(0.020 * (1.0 + 0.002 * i));   // 20% over the run
        small.push_back(0.020 * (1.0 + 0.0002 * i));  // 2%
    }
    BOOST_TEST(fb::calibration_drift(trend).flagged);
    BOOST_TEST(!fb::calibration_drift(small).flagged);
}

BOOST_AUTO_TEST_CASE(too_few_readings_flag_nothing) {
    const std::vector<double> ms{0.02, 0.04, 0.08, 0.16, 0.32};
    const fb::Drift drift = fb::calibration_drift(ms);
    BOOST_TEST(drift.block_medians_ms.empty());
    BOOST_TEST(!drift.flagged);
}

BOOST_AUTO_TEST_CASE(the_calibration_takes_measurable_time) {
    const double ms = fb::time_calibration_ms();
    BOOST_TEST(ms > 0.0);
    BOOST_TEST(ms < 50.0);
}
