#define BOOST_TEST_MODULE bench_statistics
#include <boost/test/unit_test.hpp>

#include <stdexcept>
#include <vector>

#include "sampler.hpp"
#include "forge/stats/summary.hpp"

namespace fb = forge::bench;
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

BOOST_AUTO_TEST_CASE(a_steady_reading_stops_once_the_median_settles) {
    fb::SamplingPolicy policy;
    policy.warmup_calls = 2;
    policy.min_samples = 10;
    policy.max_samples = 1000;
    policy.budget_s = 10.0;
    int warmups = 0;
    const fb::SampleRun run = fb::sample_until_stable(policy, [&] { ++warmups; }, [] { return 1.0; });
    BOOST_TEST(warmups == 2);
    BOOST_TEST(run.stable);
    BOOST_TEST(run.samples_ms.size() >= 10u);
    BOOST_TEST(run.samples_ms.size() < 50u);
}

BOOST_AUTO_TEST_CASE(a_reading_that_never_settles_stops_at_the_cap) {
    fb::SamplingPolicy policy;
    policy.min_samples = 5;
    policy.max_samples = 200;
    policy.budget_s = 10.0;
    double next = 1.0;
    // Every sample larger than the last: the median keeps moving.
    const fb::SampleRun run = fb::sample_until_stable(policy, [] {}, [&] { return next *= 1.5; });
    BOOST_TEST(!run.stable);
    BOOST_TEST(run.samples_ms.size() == 200u);
}

BOOST_AUTO_TEST_CASE(the_time_budget_bounds_the_run) {
    fb::SamplingPolicy policy;
    policy.min_samples = 1000000;
    policy.max_samples = 1000000;
    policy.budget_s = 0.0;  // already spent: one sample, never zero
    const fb::SampleRun run = fb::sample_until_stable(policy, [] {}, [] { return 2.0; });
    BOOST_TEST(run.samples_ms.size() == 1u);
    BOOST_TEST(!run.stable);
}
