#define BOOST_TEST_MODULE stats_ratio_change
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <limits>
#include <optional>
#include <stdexcept>

#include "forge/stats/ratio_change.hpp"

namespace fs = forge::stats;
namespace tt = boost::test_tools;

namespace {

constexpr double z95 = 1.959963984540054;

// A run whose 95% interval is +-z standard errors `se` of its log-ratio around `ratio`.
fs::ComparedRun run(double ratio, double se, std::optional<double> log_sd = std::nullopt) {
    return {.within_run = {.ratio = ratio, .low = ratio * std::exp(-z95 * se), .high = ratio * std::exp(z95 * se)},
            .between_runs_log_sd = log_sd};
}

}  // namespace

BOOST_AUTO_TEST_CASE(the_change_is_the_new_ratio_over_the_old) {
    const fs::RatioChange c = fs::ratio_change(run(0.8, 0.01), run(0.9, 0.01), 0.0);
    BOOST_TEST(c.change == 0.9 / 0.8, tt::tolerance(1e-12));
    BOOST_TEST(c.low < c.change);
    BOOST_TEST(c.high > c.change);
}

BOOST_AUTO_TEST_CASE(the_interval_adds_both_runs_variances_and_twice_the_spread_between_runs) {
    // se 0.03 and 0.04, tau 0.05: sqrt(0.0009 + 0.0016 + 2 * 0.0025) = sqrt(0.0075).
    const fs::RatioChange c = fs::ratio_change(run(1.0, 0.03), run(1.0, 0.04, 0.05), 0.0);
    const double half = z95 * std::sqrt(0.0075);
    BOOST_TEST(c.low == std::exp(-half), tt::tolerance(1e-9));
    BOOST_TEST(c.high == std::exp(half), tt::tolerance(1e-9));
    BOOST_TEST(c.between_runs_log_sd == 0.05);
    // Without a spread between runs: the within-run variances alone.
    const fs::RatioChange within = fs::ratio_change(run(1.0, 0.03), run(1.0, 0.04), 0.0);
    BOOST_TEST(within.high == std::exp(z95 * 0.05), tt::tolerance(1e-9));
}

BOOST_AUTO_TEST_CASE(the_verdict_needs_the_interval_wholly_on_one_side_of_one) {
    BOOST_TEST((fs::ratio_change(run(0.8, 0.01), run(0.9, 0.01), 0.0).verdict() == fs::Change::improved));
    BOOST_TEST((fs::ratio_change(run(0.9, 0.01), run(0.8, 0.01), 0.0).verdict() == fs::Change::regressed));
    BOOST_TEST((fs::ratio_change(run(0.8, 0.01), run(0.805, 0.01), 0.0).verdict() == fs::Change::unchanged));
    BOOST_TEST((fs::ratio_change(run(0.8, 0.01), run(0.8, 0.01), 0.0).verdict() == fs::Change::unchanged));
}

BOOST_AUTO_TEST_CASE(a_spread_between_runs_from_either_run_turns_a_narrow_change_into_noise) {
    // 0.8 to 0.84 (+5%) is a change within the runs' rounds, and noise beside a
    // spread between runs of 5% known to either run's history.
    BOOST_TEST((fs::ratio_change(run(0.8, 0.01), run(0.84, 0.01), 0.0).verdict() == fs::Change::improved));
    BOOST_TEST((fs::ratio_change(run(0.8, 0.01, 0.05), run(0.84, 0.01), 0.0).verdict() == fs::Change::unchanged));
    BOOST_TEST((fs::ratio_change(run(0.8, 0.01), run(0.84, 0.01, 0.05), 0.0).verdict() == fs::Change::unchanged));
    // The larger of the two histories' spreads.
    BOOST_TEST(fs::ratio_change(run(0.8, 0.01, 0.02), run(0.84, 0.01, 0.05), 0.0).between_runs_log_sd == 0.05);
    BOOST_TEST(fs::ratio_change(run(0.8, 0.01, 0.05), run(0.84, 0.01, 0.02), 0.0).between_runs_log_sd == 0.05);
}

BOOST_AUTO_TEST_CASE(the_floor_stands_in_for_a_spread_no_history_saw) {
    BOOST_TEST((fs::ratio_change(run(0.8, 0.01), run(0.84, 0.01), 0.05).verdict() == fs::Change::unchanged));
    BOOST_TEST(fs::ratio_change(run(0.8, 0.01), run(0.84, 0.01), 0.05).between_runs_log_sd == 0.05);
    // A history that saw more than the floor wins over it.
    BOOST_TEST(fs::ratio_change(run(0.8, 0.01, 0.08), run(0.84, 0.01), 0.05).between_runs_log_sd == 0.08);
    // The default floor is the one the lab measured, at least 0.
    BOOST_TEST(fs::ratio_change(run(0.8, 0.01), run(0.84, 0.01)).between_runs_log_sd == fs::between_runs_log_sd_floor);
}

BOOST_AUTO_TEST_CASE(a_regression_counts_below_the_threshold_alone) {
    // 0.9 to 0.8: a change of 0.889, interval about [0.86, 0.92].
    const fs::RatioChange c = fs::ratio_change(run(0.9, 0.01), run(0.8, 0.01), 0.0);
    BOOST_TEST(c.regressed_below(1.0));
    BOOST_TEST(c.regressed_below(0.95));
    BOOST_TEST(!c.regressed_below(0.85));
}

BOOST_AUTO_TEST_CASE(the_verdicts_are_named_in_words) {
    BOOST_TEST(fs::to_string(fs::Change::improved) == "improved");
    BOOST_TEST(fs::to_string(fs::Change::regressed) == "regressed");
    BOOST_TEST(fs::to_string(fs::Change::unchanged) == "unchanged (within noise)");
}

BOOST_AUTO_TEST_CASE(invalid_runs_and_spreads_are_refused) {
    const fs::ComparedRun zero{.within_run = {.ratio = 1.0, .low = 0.0, .high = 1.1}, .between_runs_log_sd = {}};
    BOOST_CHECK_THROW((void)fs::ratio_change(zero, run(1.0, 0.01)), std::invalid_argument);
    BOOST_CHECK_THROW((void)fs::ratio_change(run(1.0, 0.01, -0.1), run(1.0, 0.01)), std::invalid_argument);
    BOOST_CHECK_THROW((void)fs::ratio_change(run(1.0, 0.01), run(1.0, 0.01, std::numeric_limits<double>::quiet_NaN())),
                      std::invalid_argument);
    BOOST_CHECK_THROW((void)fs::ratio_change(run(1.0, 0.01), run(1.0, 0.01), -0.01), std::invalid_argument);
    BOOST_CHECK_THROW((void)fs::ratio_change(run(1.0, 0.01), run(1.0, 0.01), 0.0, 1.0), std::invalid_argument);
}
