#define BOOST_TEST_MODULE bench_drift
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <cstdint>
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

namespace {

// Heavy-tailed noise around `centre` (a log-ratio), the same on every run: a
// spread of about 5% and every tenth round 30% off.
std::vector<double> noisy_rounds(std::size_t n, double centre, std::uint64_t seed) {
    std::vector<double> out;
    for (std::size_t i = 0; i < n; ++i) {
        seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
        const double uniform = static_cast<double>(seed >> 11) / static_cast<double>(1ULL << 53);
        out.push_back(centre + 0.1 * (uniform - 0.5) + (i % 10 == 7 ? 0.3 : 0.0));
    }
    return out;
}

}  // namespace

BOOST_AUTO_TEST_CASE(the_ratio_drift_statistic_is_kruskal_wallis_over_consecutive_blocks) {
    // Two blocks of four, wholly apart: H = 12 / (8 * 9) * (10^2 / 4 + 26^2 / 4) - 3 * 9 = 5.333.
    const std::vector<double> apart{1, 2, 3, 4, 5, 6, 7, 8};
    const fb::RatioDrift drift = fb::ratio_drift(apart, 2);
    BOOST_TEST(drift.kruskal_wallis_h == 16.0 / 3.0, tt::tolerance(1e-9));
    BOOST_TEST(drift.p_value == 0.020921335337794, tt::tolerance(1e-6));  // chi-squared, 1 degree of freedom
    BOOST_TEST(drift.block_ratios.size() == 2u);
    BOOST_TEST(drift.block_ratios[0] == std::exp(2.5), tt::tolerance(1e-12));
    BOOST_TEST(!drift.flagged);  // p above 0.001
    // Fewer than two blocks of four rounds: nothing to compare.
    BOOST_TEST(!fb::ratio_drift(std::vector<double>(7, 1.0)).flagged);
    BOOST_TEST(fb::ratio_drift(std::vector<double>(7, 1.0)).block_ratios.empty());
    // All alike (every rank tied): H is 0, not a division by zero.
    BOOST_TEST(fb::ratio_drift(std::vector<double>(64, 1.0)).kruskal_wallis_h == 0.0);
}

BOOST_AUTO_TEST_CASE(a_ratio_steady_through_its_rounds_is_not_flagged) {
    for (std::uint64_t seed = 1; seed <= 20; ++seed) {
        const fb::RatioDrift drift = fb::ratio_drift(noisy_rounds(200, 1.0, seed));
        BOOST_TEST(drift.block_ratios.size() == 8u);
        BOOST_TEST(!drift.flagged, "seed " << seed << ": p " << drift.p_value << ", moved " << drift.moved);
    }
}

BOOST_AUTO_TEST_CASE(a_ratio_that_steps_during_its_rounds_is_flagged_and_a_small_step_is_not) {
    std::vector<double> rounds = noisy_rounds(200, 1.0, 7);
    for (std::size_t i = 100; i < rounds.size(); ++i) rounds[i] += std::log(1.2);  // one side slowed from the middle
    const fb::RatioDrift step = fb::ratio_drift(rounds);
    BOOST_TEST(step.flagged);
    BOOST_TEST(step.p_value < 1e-6);
    BOOST_TEST(step.moved > 0.1);
    // 2% from the middle on, with little noise: certain, and too small to mark.
    std::vector<double> small(200, 1.0);
    for (std::size_t i = 0; i < small.size(); ++i)
        small[i] += 0.001 * static_cast<double>(i % 7) + (i >= 100 ? 0.02 : 0.0);
    const fb::RatioDrift slight = fb::ratio_drift(small);
    BOOST_TEST(slight.p_value < 1e-6);
    BOOST_TEST(!slight.flagged);
}
