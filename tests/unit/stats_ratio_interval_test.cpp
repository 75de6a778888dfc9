#define BOOST_TEST_MODULE stats_ratio_interval
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <cstdint>
#include <random>
#include <stdexcept>
#include <vector>

#include "forge/stats/ratio_interval.hpp"

namespace fs = forge::stats;
namespace tt = boost::test_tools;

BOOST_AUTO_TEST_CASE(the_median_interval_rank_follows_the_binomial_tables) {
    // Sign-test intervals at 95%: n = 10 -> [x_2, x_9] (1 - 2 * 11/1024 = 97.9%),
    // n = 20 -> [x_6, x_15] (95.9%), n = 30 -> [x_10, x_21] (95.7%).
    BOOST_TEST(fs::median_interval_rank(10, 0.95) == 2u);
    BOOST_TEST(fs::median_interval_rank(20, 0.95) == 6u);
    BOOST_TEST(fs::median_interval_rank(30, 0.95) == 10u);
    // n = 6: [min, max] covers 1 - 2/64 = 96.9%; n = 5 falls short (93.8%) and still gets [min, max].
    BOOST_TEST(fs::median_interval_rank(6, 0.95) == 1u);
    BOOST_TEST(fs::median_interval_rank(5, 0.95) == 1u);
    BOOST_TEST(fs::median_interval_rank(1, 0.95) == 1u);
    BOOST_CHECK_THROW((void)fs::median_interval_rank(0, 0.95), std::invalid_argument);
    BOOST_CHECK_THROW((void)fs::median_interval_rank(10, 1.0), std::invalid_argument);
}

BOOST_AUTO_TEST_CASE(a_workloads_ratio_is_the_median_paired_ratio_between_two_order_statistics) {
    // log-ratios log(1), ..., log(10) in scrambled order: the median of the logs is
    // (log 5 + log 6) / 2, so the ratio is sqrt(30).
    std::vector<double> logs;
    for (int r : {7, 2, 9, 1, 10, 4, 3, 8, 6, 5}) logs.push_back(std::log(r));
    const fs::RatioInterval interval = fs::paired_ratio(logs);
    BOOST_TEST(interval.ratio == std::sqrt(30.0), tt::tolerance(1e-12));
    BOOST_TEST(interval.low == 2.0, tt::tolerance(1e-12));   // x_(2)
    BOOST_TEST(interval.high == 9.0, tt::tolerance(1e-12));  // x_(9)
    BOOST_TEST((interval.verdict() == fs::Verdict::faster));
}

BOOST_AUTO_TEST_CASE(the_verdict_reads_the_interval_against_parity) {
    BOOST_TEST((fs::RatioInterval{1.2, 1.01, 1.3}.verdict() == fs::Verdict::faster));
    BOOST_TEST((fs::RatioInterval{0.8, 0.7, 0.99}.verdict() == fs::Verdict::slower));
    BOOST_TEST((fs::RatioInterval{1.02, 0.99, 1.05}.verdict() == fs::Verdict::indistinguishable));
    BOOST_TEST(fs::to_string(fs::Verdict::indistinguishable) == "indistinguishable");
    const fs::RatioInterval two{2.0, 1.9, 2.1};
    BOOST_TEST(two.relative_half_width() == 0.05, tt::tolerance(1e-12));
}

BOOST_AUTO_TEST_CASE(nan_and_empty_rounds_are_refused) {
    BOOST_CHECK_THROW((void)fs::paired_ratio(std::vector<double>{}), std::invalid_argument);
    BOOST_CHECK_THROW((void)fs::paired_ratio(std::vector<double>{0.1, std::nan(""), 0.2}), std::invalid_argument);
    const std::vector<fs::PairedRounds> none;
    BOOST_CHECK_THROW((void)fs::geomean_ratio(none, 1), std::invalid_argument);
    std::vector<fs::PairedRounds> empty_workload(2);
    empty_workload[0].log_ratios = {0.1};
    BOOST_CHECK_THROW((void)fs::geomean_ratio(empty_workload, 1), std::invalid_argument);
    fs::PairedRounds mismatched;
    mismatched.log_ratios = {0.1, 0.2};
    mismatched.clusters = {0};
    BOOST_CHECK_THROW((void)fs::clustered_paired_ratio(mismatched), std::invalid_argument);
}

BOOST_AUTO_TEST_CASE(the_runs_interval_is_seeded_and_holds_its_point_estimate) {
    std::mt19937_64 random(7);
    std::normal_distribution<double> noise(0.0, 0.05);
    std::vector<fs::PairedRounds> workloads(3);
    const double truth[] = {std::log(0.5), std::log(2.0), std::log(1.0)};
    for (std::size_t w = 0; w < workloads.size(); ++w) {
        for (int r = 0; r < 40; ++r) workloads[w].log_ratios.push_back(truth[w] + noise(random));
    }
    const fs::RatioInterval a = fs::geomean_ratio(workloads, 42);
    const fs::RatioInterval b = fs::geomean_ratio(workloads, 42);
    BOOST_TEST(a.low == b.low);
    BOOST_TEST(a.high == b.high);
    BOOST_TEST(a.low <= a.ratio);
    BOOST_TEST(a.ratio <= a.high);
    BOOST_TEST(a.ratio == 1.0, tt::tolerance(0.03));  // geomean of 0.5, 2 and 1
    BOOST_TEST((a.verdict() == fs::Verdict::indistinguishable));
}

namespace {

// Rounds of a known ratio under skewed, bimodal noise: most rounds clean, some
// with one side slowed by a scheduler slice.
std::vector<double> noisy_rounds(std::mt19937_64& random, double true_log_ratio, int n) {
    std::normal_distribution<double> jitter(0.0, 0.02);
    std::bernoulli_distribution sliced(0.15);
    std::bernoulli_distribution on_reference(0.5);
    std::vector<double> logs;
    for (int r = 0; r < n; ++r) {
        double log_ratio = true_log_ratio + jitter(random);
        if (sliced(random)) log_ratio += on_reference(random) ? 0.4 : -0.4;
        logs.push_back(log_ratio);
    }
    return logs;
}

}  // namespace

// The 95% interval covers the true ratio in 93-97% of 1,000 seeded runs.
BOOST_AUTO_TEST_CASE(a_workloads_95_percent_interval_covers_the_truth_95_percent_of_the_time) {
    std::mt19937_64 random(2026);
    const double truth = std::log(0.5);
    int covered = 0;
    for (int run = 0; run < 1000; ++run) {
        const fs::RatioInterval interval = fs::paired_ratio(noisy_rounds(random, truth, 30));
        covered += interval.low <= 0.5 && 0.5 <= interval.high ? 1 : 0;
    }
    BOOST_TEST(covered >= 930);
    BOOST_TEST(covered <= 970);
}

BOOST_AUTO_TEST_CASE(the_runs_95_percent_interval_covers_the_truth_about_95_percent_of_the_time) {
    std::mt19937_64 random(11);
    int covered = 0;
    for (int run = 0; run < 400; ++run) {
        std::vector<fs::PairedRounds> workloads;
        for (double ratio : {0.5, 1.5, 3.0}) workloads.push_back({noisy_rounds(random, std::log(ratio), 40), {}});
        const fs::RatioInterval interval = fs::geomean_ratio(workloads, static_cast<std::uint64_t>(run), 0.95, 500);
        const double truth = std::cbrt(0.5 * 1.5 * 3.0);
        covered += interval.low <= truth && truth <= interval.high ? 1 : 0;
    }
    // A percentile bootstrap of medians is approximate: 400 runs, 91-98.5%.
    BOOST_TEST(covered >= 364);
    BOOST_TEST(covered <= 394);
}

// Rounds in 8 clusters, each cluster biased by its own offset (a copy of the
// tensors placed well or badly in memory): the sign test alone, which takes the
// rounds as independent, covers the truth far less than 95% of the time; the
// clustered interval covers it at least 93% of the time.
BOOST_AUTO_TEST_CASE(clusters_biased_alike_widen_the_interval_to_cover_the_truth) {
    std::mt19937_64 random(99);
    std::normal_distribution<double> jitter(0.0, 0.01);
    std::normal_distribution<double> placement(0.0, 0.02);
    int sign_test_covered = 0;
    int clustered_covered = 0;
    constexpr int runs = 300;
    for (int run = 0; run < runs; ++run) {
        fs::PairedRounds rounds;
        double bias[8];
        for (double& b : bias) b = placement(random);
        for (std::size_t r = 0; r < 96; ++r) {
            const std::size_t cluster = (r / 2) % 8;
            rounds.log_ratios.push_back(bias[cluster] + jitter(random));
            rounds.clusters.push_back(cluster);
        }
        const fs::RatioInterval plain = fs::paired_ratio(rounds.log_ratios);
        const fs::RatioInterval clustered = fs::clustered_paired_ratio(rounds);
        BOOST_TEST(clustered.low <= plain.low);
        BOOST_TEST(clustered.high >= plain.high);
        sign_test_covered += plain.low <= 1.0 && 1.0 <= plain.high ? 1 : 0;
        clustered_covered += clustered.low <= 1.0 && 1.0 <= clustered.high ? 1 : 0;
    }
    BOOST_TEST_MESSAGE("sign test " << sign_test_covered << ", clustered " << clustered_covered << " of " << runs);
    BOOST_TEST(sign_test_covered < runs * 80 / 100);
    BOOST_TEST(clustered_covered >= runs * 93 / 100);
}

namespace {

// 8 clusters of `each` rounds: a placement bias per cluster (sd `between`) and
// each round's own jitter (sd 0.01).
fs::PairedRounds clustered_rounds(std::mt19937_64& random, double between, std::size_t each) {
    std::normal_distribution<double> jitter(0.0, 0.01);
    std::normal_distribution<double> placement(0.0, between);
    fs::PairedRounds rounds;
    double bias[8];
    for (double& b : bias) b = placement(random);
    for (std::size_t r = 0; r < 8 * each; ++r) {
        rounds.log_ratios.push_back(bias[r % 8] + jitter(random));
        rounds.clusters.push_back(r % 8);
    }
    return rounds;
}

}  // namespace

// Where the clusters differ, more rounds in them leave the interval about as
// wide; where they do not, it narrows as one over the square root of the rounds.
BOOST_AUTO_TEST_CASE(the_spread_says_how_far_more_rounds_in_the_clusters_could_narrow_the_interval) {
    std::mt19937_64 random(17);
    const fs::ClusterSpread one = fs::cluster_spread(clustered_rounds(random, 0.03, 6));
    BOOST_TEST(one.clusters == 8u);
    BOOST_TEST(one.fewest_rounds == 6u);
    BOOST_TEST(one.rounds_each == 6.0);
    BOOST_TEST(one.half_width_with(6.0) <= one.half_width_with(3.0));
    // Averaged over runs: ten times the rounds in clusters 3x further apart than
    // their rounds' noise keep most of the width; in clusters alike they narrow
    // it about as one over the square root of ten.
    constexpr int runs = 200;
    double noise = 0.0;
    double apart = 0.0;
    double alike = 0.0;
    int told_apart = 0;  // at 0.001
    int alike_told_apart = 0;
    for (int run = 0; run < runs; ++run) {
        const fs::ClusterSpread far = fs::cluster_spread(clustered_rounds(random, 0.03, 6));
        noise += std::sqrt(far.round_variance) / runs;
        apart += far.half_width_with(60.0) / far.half_width_with(6.0) / runs;
        told_apart += far.clusters_differ(0.001) ? 1 : 0;
        const fs::ClusterSpread near = fs::cluster_spread(clustered_rounds(random, 0.0, 6));
        alike += near.half_width_with(60.0) / near.half_width_with(6.0) / runs;
        alike_told_apart += near.clusters_differ(0.001) ? 1 : 0;
    }
    BOOST_TEST_MESSAGE("a round's sd " << noise << ", 10x the rounds: apart " << apart << ", alike " << alike
                                       << "; told apart " << told_apart << " and " << alike_told_apart << " of "
                                       << runs);
    BOOST_TEST(noise == 0.01, tt::tolerance(0.15));
    BOOST_TEST(apart > 0.9);
    BOOST_TEST(alike < 0.6);
    BOOST_TEST(told_apart >= runs * 95 / 100);
    BOOST_TEST(alike_told_apart <= runs * 2 / 100);

    // With no grouping to account for (as clustered_paired_ratio), nothing to say.
    BOOST_TEST(fs::cluster_spread(clustered_rounds(random, 0.03, 1)).clusters == 0u);
    BOOST_TEST(fs::cluster_spread(clustered_rounds(random, 0.03, 1)).half_width_with(10.0) == 0.0);
}

// Over many runs, what half_width_with says the t interval would be with 4 times
// the rounds is what it was, on average, when the rounds were there.
BOOST_AUTO_TEST_CASE(the_spreads_projection_matches_the_interval_more_rounds_gave) {
    std::mt19937_64 random(23);
    double projected = 0.0;
    double measured = 0.0;
    constexpr int runs = 400;
    for (int run = 0; run < runs; ++run) {
        const fs::PairedRounds rounds = clustered_rounds(random, 0.005, 24);
        fs::PairedRounds first;  // the first quarter of each cluster's rounds
        for (std::size_t r = 0; r < std::size_t{8} * 6; ++r) {
            first.log_ratios.push_back(rounds.log_ratios[r]);
            first.clusters.push_back(rounds.clusters[r]);
        }
        projected += fs::cluster_spread(first).half_width_with(24.0);
        measured += fs::cluster_spread(rounds).half_width_with(24.0);
    }
    BOOST_TEST_MESSAGE("projected " << projected / runs << ", measured " << measured / runs);
    BOOST_TEST(projected == measured, tt::tolerance(0.15));
}

BOOST_AUTO_TEST_CASE(independent_rounds_keep_about_the_sign_test_interval) {
    std::mt19937_64 random(5);
    std::normal_distribution<double> jitter(std::log(2.0), 0.02);
    fs::PairedRounds rounds;
    for (int r = 0; r < 60; ++r) rounds.log_ratios.push_back(jitter(random));
    const fs::RatioInterval plain = fs::paired_ratio(rounds.log_ratios);
    const fs::RatioInterval clustered = fs::clustered_paired_ratio(rounds);
    BOOST_TEST(clustered.ratio == plain.ratio);
    BOOST_TEST(clustered.relative_half_width() <= 1.5 * plain.relative_half_width());
}

// Three workloads whose rounds sit in 8 clusters biased alike: the run's interval
// is at least as wide as the workloads' clustered intervals imply for their mean
// (a bootstrap alone was narrower, on one side or both, in most of these runs),
// and covers the truth at least 93% of the time.
BOOST_AUTO_TEST_CASE(the_runs_interval_is_never_narrower_than_its_workloads_intervals_imply) {
    std::mt19937_64 random(314);
    std::normal_distribution<double> jitter(0.0, 0.01);
    std::normal_distribution<double> placement(0.0, 0.02);
    int covered = 0;
    constexpr int runs = 300;
    for (int run = 0; run < runs; ++run) {
        std::vector<fs::PairedRounds> workloads(3);
        for (fs::PairedRounds& rounds : workloads) {
            double bias[8];
            for (double& b : bias) b = placement(random);
            for (std::size_t r = 0; r < 48; ++r) {
                rounds.log_ratios.push_back(bias[(r / 2) % 8] + jitter(random));
                rounds.clusters.push_back((r / 2) % 8);
            }
        }
        const fs::RatioInterval interval = fs::geomean_ratio(workloads, static_cast<std::uint64_t>(run), 0.95, 500);
        double low = 0.0;
        double high = 0.0;
        for (const fs::PairedRounds& rounds : workloads) {
            const fs::RatioInterval workload = fs::clustered_paired_ratio(rounds);
            low += std::pow(std::log(workload.ratio / workload.low), 2);
            high += std::pow(std::log(workload.high / workload.ratio), 2);
        }
        BOOST_TEST(std::log(interval.ratio / interval.low) >= std::sqrt(low) / 3.0 - 1e-12);
        BOOST_TEST(std::log(interval.high / interval.ratio) >= std::sqrt(high) / 3.0 - 1e-12);
        covered += interval.low <= 1.0 && 1.0 <= interval.high ? 1 : 0;
    }
    BOOST_TEST_MESSAGE("the run's interval covered the truth in " << covered << " of " << runs);
    BOOST_TEST(covered >= runs * 93 / 100);
}
