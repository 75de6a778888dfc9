#define BOOST_TEST_MODULE stats_summary
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <limits>
#include <stdexcept>
#include <vector>

#include "forge/stats/summary.hpp"

namespace fs = forge::stats;
namespace tt = boost::test_tools;

BOOST_AUTO_TEST_CASE(quartiles_interpolate_between_order_statistics) {
    // numpy.percentile([7, 1, 3, 5, 9], [25, 50, 75]) == [3, 5, 7]
    const std::vector<double> odd{7, 1, 3, 5, 9};
    const fs::SampleSummary s = fs::summarize(odd);
    BOOST_TEST(s.n == 5u);
    BOOST_TEST(s.min == 1.0);
    BOOST_TEST(s.q1 == 3.0);
    BOOST_TEST(s.median == 5.0);
    BOOST_TEST(s.q3 == 7.0);
    BOOST_TEST(s.max == 9.0);

    // numpy.percentile([1, 2, 3, 4], [25, 50, 75]) == [1.75, 2.5, 3.25]
    const std::vector<double> even{4, 2, 1, 3};
    const fs::SampleSummary e = fs::summarize(even);
    BOOST_TEST(e.q1 == 1.75, tt::tolerance(1e-12));
    BOOST_TEST(e.median == 2.5, tt::tolerance(1e-12));
    BOOST_TEST(e.q3 == 3.25, tt::tolerance(1e-12));
}

BOOST_AUTO_TEST_CASE(an_outlier_moves_the_max_but_not_the_median) {
    const std::vector<double> samples{1.0, 1.0, 1.1, 0.9, 1.0, 50.0, 1.0};
    const fs::SampleSummary s = fs::summarize(samples);
    BOOST_TEST(s.median == 1.0);
    BOOST_TEST(s.max == 50.0);
    BOOST_TEST(s.q3 == 1.05, tt::tolerance(1e-12));
}

BOOST_AUTO_TEST_CASE(one_sample_is_every_statistic) {
    const std::vector<double> one{0.25};
    const fs::SampleSummary s = fs::summarize(one);
    BOOST_TEST(s.min == 0.25);
    BOOST_TEST(s.q1 == 0.25);
    BOOST_TEST(s.median == 0.25);
    BOOST_TEST(s.q3 == 0.25);
}

BOOST_AUTO_TEST_CASE(no_samples_is_an_error_not_a_zero) {
    BOOST_CHECK_THROW((void)fs::summarize(std::vector<double>{}), std::invalid_argument);
}

BOOST_AUTO_TEST_CASE(geometric_mean_of_ratios) {
    BOOST_TEST(fs::geometric_mean(std::vector<double>{2.0, 8.0}) == 4.0, tt::tolerance(1e-12));
    BOOST_TEST(fs::geometric_mean(std::vector<double>{0.5, 2.0, 1.0}) == 1.0, tt::tolerance(1e-12));
    BOOST_CHECK_THROW((void)fs::geometric_mean(std::vector<double>{1.0, 0.0}), std::invalid_argument);
}

BOOST_AUTO_TEST_CASE(nan_and_out_of_range_quantiles_are_refused) {
    BOOST_CHECK_THROW((void)fs::summarize(std::vector<double>{1.0, std::nan(""), 2.0}), std::invalid_argument);
    BOOST_CHECK_THROW((void)fs::median(std::vector<double>{std::nan("")}), std::invalid_argument);
    const std::vector<double> sorted{1.0, 2.0};
    BOOST_CHECK_THROW((void)fs::quantile_sorted(sorted, 1.5), std::invalid_argument);
    BOOST_CHECK_THROW((void)fs::quantile_sorted(sorted, -0.1), std::invalid_argument);
    BOOST_CHECK_THROW((void)fs::quantile_sorted(sorted, std::nan("")), std::invalid_argument);
    BOOST_TEST(fs::median(std::vector<double>{3.0, 1.0, 2.0, 10.0}) == 2.5);
}

BOOST_AUTO_TEST_CASE(an_infinite_value_never_turns_a_statistic_into_nan) {
    const double inf = std::numeric_limits<double>::infinity();
    const fs::SampleSummary summary = fs::summarize(std::vector<double>{1.0, 2.0, inf});
    BOOST_TEST(summary.median == 2.0);  // its weight 0: 0 * (inf - 2) was NaN
    BOOST_TEST(summary.q1 == 1.5);
    BOOST_TEST(summary.q3 == inf);
    BOOST_TEST(summary.max == inf);
    BOOST_TEST(fs::median(std::vector<double>{-inf, 1.0, 2.0, 3.0}) == 1.5);
    BOOST_TEST(fs::quantile_sorted(std::vector<double>{-inf, inf}, 0.25) == -inf);
    BOOST_TEST(fs::quantile_sorted(std::vector<double>{-inf, inf}, 0.75) == inf);
}

