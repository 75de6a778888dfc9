#define BOOST_TEST_MODULE stats_between_runs
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <limits>
#include <random>
#include <stdexcept>
#include <vector>

#include "forge/stats/between_runs.hpp"

namespace fs = forge::stats;
namespace tt = boost::test_tools;

BOOST_AUTO_TEST_CASE(a_runs_estimate_reads_its_interval_as_plus_minus_z_standard_errors) {
    // [2 e^-0.0392, 2 e^0.0392] at 95%: z = 1.95996, so the standard error is 0.02.
    const double h = 1.959963984540054 * 0.02;
    const fs::RunEstimate run = fs::run_estimate({.ratio = 2.0, .low = 2.0 * std::exp(-h), .high = 2.0 * std::exp(h)});
    BOOST_TEST(run.log_ratio == std::log(2.0), tt::tolerance(1e-12));
    BOOST_TEST(run.standard_error == 0.02, tt::tolerance(1e-9));
    BOOST_CHECK_THROW((void)fs::run_estimate({.ratio = 1.0, .low = 0.0, .high = 2.0}), std::invalid_argument);
    BOOST_CHECK_THROW((void)fs::run_estimate({.ratio = 1.0, .low = 0.9, .high = 1.1}, 1.0), std::invalid_argument);
}

BOOST_AUTO_TEST_CASE(an_estimate_stands_for_the_interval_plus_minus_z_standard_errors_around_it) {
    // The inverse of the case above: log 2 +- 1.95996 * 0.02.
    const double h = 1.959963984540054 * 0.02;
    const forge::stats::RatioInterval interval = fs::interval_of({.log_ratio = std::log(2.0), .standard_error = 0.02});
    BOOST_TEST(interval.ratio == 2.0, tt::tolerance(1e-12));
    BOOST_TEST(interval.low == 2.0 * std::exp(-h), tt::tolerance(1e-12));
    BOOST_TEST(interval.high == 2.0 * std::exp(h), tt::tolerance(1e-12));
    const fs::RunEstimate back = fs::run_estimate(interval);
    BOOST_TEST(back.standard_error == 0.02, tt::tolerance(1e-12));
    BOOST_CHECK_THROW((void)fs::interval_of({.log_ratio = 0.0, .standard_error = -0.1}), std::invalid_argument);
    BOOST_CHECK_THROW(
        (void)fs::interval_of({.log_ratio = std::numeric_limits<double>::quiet_NaN(), .standard_error = 0.1}),
        std::invalid_argument);
}

BOOST_AUTO_TEST_CASE(runs_that_agree_within_their_errors_have_no_spread_between_them) {
    const std::vector<fs::RunEstimate> agree{{0.50, 0.01}, {0.505, 0.01}, {0.497, 0.01}};
    BOOST_TEST(fs::between_run_variance(agree) == 0.0);
    const std::vector<fs::RunEstimate> one{{0.5, 0.01}};
    BOOST_TEST(fs::between_run_variance(one) == 0.0);
    BOOST_TEST(fs::between_run_variance({}) == 0.0);
}

BOOST_AUTO_TEST_CASE(the_spread_between_runs_is_dersimonian_and_lairds_moment_estimate) {
    // Two runs 0.1 apart with standard errors 0.01: weights 1e4 each, Q = 50,
    // the scale 2e4 - 2e8 / 2e4 = 1e4, tau^2 = (50 - 1) / 1e4.
    const std::vector<fs::RunEstimate> two{{0.0, 0.01}, {0.1, 0.01}};
    BOOST_TEST(fs::between_run_variance(two) == 0.0049, tt::tolerance(1e-12));
    // A run with no spread of its own (every round alike) still counts, at 1e-9.
    const std::vector<fs::RunEstimate> exact{{0.0, 0.0}, {0.1, 0.0}};
    BOOST_TEST(fs::between_run_variance(exact) == 0.005, tt::tolerance(1e-6));
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const std::vector<fs::RunEstimate> bad{{0.0, 0.01}, {nan, 0.01}};
    BOOST_CHECK_THROW((void)fs::between_run_variance(bad), std::invalid_argument);
    const std::vector<fs::RunEstimate> negative{{0.0, 0.01}, {0.1, -0.01}};
    BOOST_CHECK_THROW((void)fs::between_run_variance(negative), std::invalid_argument);
}

BOOST_AUTO_TEST_CASE(a_run_with_a_zero_width_interval_leaves_the_spread_finite) {
    // Every round alike (a timer's quantum): se 0, floored to a weight of 1e18.
    // W - sum(w^2)/W -> 2 * 4 as that weight grows; (Q - 1) / 8 with Q -> 4 * 1^2.
    const std::vector<fs::RunEstimate> runs{{.log_ratio = 0.0, .standard_error = 0.0},
                                            {.log_ratio = 1.0, .standard_error = 0.5}};
    BOOST_TEST(fs::between_run_variance(runs) == 0.375, tt::tolerance(1e-9));
    const std::vector<fs::RunEstimate> close{{.log_ratio = 0.0, .standard_error = 0.0},
                                             {.log_ratio = 0.1, .standard_error = 0.08}};
    // Q = 0.01 / 0.0064 = 1.5625; W - sum(w^2)/W -> 2 / 0.0064 = 312.5.
    BOOST_TEST(fs::between_run_variance(close) == 0.5625 / 312.5, tt::tolerance(1e-9));
}

BOOST_AUTO_TEST_CASE(the_spread_is_added_to_each_side_of_the_interval_in_quadrature) {
    // Student's t at 97.5% with 3 degrees of freedom: tau comes from four runs.
    const double t3 = 3.182446305284263;
    const fs::RatioInterval within{.ratio = 2.0, .low = 2.0 * std::exp(-0.03), .high = 2.0 * std::exp(0.04)};
    // Three earlier runs 3-5% lower and this one. Below, the earlier runs'
    // intervals reach further than the quadrature, which holds; above, no run
    // measured past this one's interval, which bounds it.
    const double y = std::log(2.0);
    const std::vector<fs::RunEstimate> runs{{y - 0.05, 0.03}, {y - 0.03, 0.03}, {y - 0.04, 0.02}, {y, 0.01}};
    const double tau = std::sqrt(fs::between_run_variance(runs));
    BOOST_TEST(tau > 0.01);
    const fs::RatioInterval widened = fs::with_between_run_spread(within, runs);
    BOOST_TEST(widened.ratio == 2.0);
    BOOST_TEST(std::log(2.0 / widened.low) == std::hypot(0.03, t3 * tau), tt::tolerance(1e-9));
    BOOST_TEST(widened.high == within.high, tt::tolerance(1e-12));
    // Runs that agree add nothing.
    const std::vector<fs::RunEstimate> agree{{std::log(2.0), 0.02}, {std::log(2.0) + 0.001, 0.02}};
    const fs::RatioInterval same = fs::with_between_run_spread(within, agree);
    BOOST_TEST(same.low == within.low);
    BOOST_TEST(same.high == within.high);
    const std::vector<fs::RunEstimate> bad{{std::log(2.0), -0.01}};
    BOOST_CHECK_THROW((void)fs::with_between_run_spread(within, bad), std::invalid_argument);
    BOOST_CHECK_THROW((void)fs::with_between_run_spread({.ratio = 2.0, .low = 0.0, .high = 3.0}, agree),
                      std::invalid_argument);
}

BOOST_AUTO_TEST_CASE(a_run_that_moved_alone_covers_where_the_others_agree) {
    // Four runs at 1.0 and the fifth 5% higher, each +-1%: the spread between them
    // is estimated from five runs, so the fifth's interval reaches back to 1.0
    // (a normal quantile would stop at 0.88 of the way).
    const double z = 1.959963984540054;
    const double se = 0.01 / z;
    const double moved = std::log(1.05);
    std::vector<fs::RunEstimate> runs(4, fs::RunEstimate{0.0, se});
    runs.push_back({moved, se});
    const fs::RatioInterval own{.ratio = 1.05, .low = 1.05 * std::exp(-0.01), .high = 1.05 * std::exp(0.01)};
    const fs::RatioInterval widened = fs::with_between_run_spread(own, runs);
    BOOST_TEST(widened.low <= 1.0);
    BOOST_TEST(std::log(1.05 / widened.low) < 1.3 * moved);
    BOOST_TEST(z * std::sqrt(fs::between_run_variance(runs)) < 0.9 * moved);
}

BOOST_AUTO_TEST_CASE(the_spread_never_reaches_past_what_the_runs_measured) {
    // Runs that read 1.4, 1.4 and 2.0, each +-1%: a large spread between them, yet
    // no run measured anything below 1.4 * e^-0.0196, so 1.0 stays outside.
    const double z = 1.959963984540054;
    const std::vector<fs::RunEstimate> runs{{std::log(1.4), 0.005}, {std::log(2.0), 0.005}, {std::log(1.4), 0.005}};
    BOOST_TEST(std::sqrt(fs::between_run_variance(runs)) > 0.15);
    const fs::RatioInterval within{.ratio = 1.4, .low = 1.4 * std::exp(-z * 0.005), .high = 1.4 * std::exp(z * 0.005)};
    const fs::RatioInterval widened = fs::with_between_run_spread(within, runs);
    BOOST_TEST(widened.low == within.low, tt::tolerance(1e-12));
    BOOST_TEST(widened.high == 2.0 * std::exp(z * 0.005), tt::tolerance(1e-12));
    BOOST_TEST((widened.verdict() == fs::Verdict::faster));
}

BOOST_AUTO_TEST_CASE(an_interval_can_reach_every_runs_ratio) {
    const fs::RatioInterval own{.ratio = 0.88, .low = 0.86, .high = 0.90};
    const std::vector<fs::RunEstimate> runs{{std::log(0.91), 0.01}, {std::log(0.915), 0.01}, {std::log(0.88), 0.02}};
    const fs::RatioInterval reached = fs::reaching_every_run(own, runs);
    BOOST_TEST(reached.ratio == 0.88);
    BOOST_TEST(reached.low == 0.86);  // never narrower
    BOOST_TEST(reached.high == 0.915, tt::tolerance(1e-12));
    const fs::RatioInterval alone = fs::reaching_every_run(own, {});
    BOOST_TEST(alone.low == own.low);
    BOOST_TEST(alone.high == own.high);
    const std::vector<fs::RunEstimate> bad{{std::numeric_limits<double>::infinity(), 0.01}};
    BOOST_CHECK_THROW((void)fs::reaching_every_run(own, bad), std::invalid_argument);
    BOOST_CHECK_THROW((void)fs::reaching_every_run({.ratio = 1.0, .low = 0.0, .high = 2.0}, runs),
                      std::invalid_argument);
}

// Runs whose true ratio moves between them (sd tau) and whose own intervals
// see only the spread within (se): the last run of each series of `runs`.
struct Coverage {
    double within = 0.0;   // its own interval covers the ratio across runs
    double widened = 0.0;  // with the spread its series shows
};

Coverage last_run_coverage(double tau, double se, int runs, int series, unsigned seed) {
    const double z = 1.959963984540054;
    std::mt19937_64 random(seed);
    std::normal_distribution<double> level(0.0, tau);
    std::normal_distribution<double> noise(0.0, se);
    Coverage coverage;
    for (int s = 0; s < series; ++s) {
        std::vector<fs::RunEstimate> estimates;
        for (int r = 0; r < runs; ++r) estimates.push_back({level(random) + noise(random), se});
        const double y = estimates.back().log_ratio;
        const fs::RatioInterval own{.ratio = std::exp(y), .low = std::exp(y - z * se), .high = std::exp(y + z * se)};
        const fs::RatioInterval widened = fs::with_between_run_spread(own, estimates);
        // The ratio across runs is exp(0) = 1.
        coverage.within += own.low <= 1.0 && 1.0 <= own.high ? 1.0 : 0.0;
        coverage.widened += widened.low <= 1.0 && 1.0 <= widened.high ? 1.0 : 0.0;
    }
    coverage.within /= series;
    coverage.widened /= series;
    return coverage;
}

BOOST_AUTO_TEST_CASE(with_the_spread_between_runs_an_interval_covers_the_ratio_across_runs) {
    // Between-run sd three times the within-run error: a run's own interval covers
    // the ratio across runs about 48% of the time; with five runs' spread about 98%
    // (tau's Student quantile is conservative for a normal spread; measured runs
    // move one busy run at a time, and there it covered about 94%).
    const Coverage moving = last_run_coverage(0.03, 0.01, 5, 2000, 11);
    BOOST_TEST(moving.within < 0.6);
    BOOST_TEST(moving.widened >= 0.93);
    BOOST_TEST(moving.widened <= 0.99);
    // Runs that do not move: the spread is mostly 0 and the interval stays about as it was.
    const Coverage steady = last_run_coverage(0.0, 0.01, 5, 2000, 12);
    BOOST_TEST(steady.within >= 0.93);
    BOOST_TEST(steady.widened <= 0.995);
}
