// A speed ratio with its confidence interval, estimated from paired rounds
// (each round timed both sides back to back), and the verdict it supports.
//
//     // log(reference_ms / student_ms) of each round
//     std::vector<double> rounds{0.69, 0.71, 0.70, ...};
//     forge::stats::RatioInterval r = forge::stats::paired_ratio(rounds);
//     r.ratio;      // 2.01: exp(median)
//     r.low;        // 1.99: the 95% interval, distribution-free
//     r.verdict();  // Verdict::faster: low > 1
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

namespace forge::stats {

// The interval against parity (1.0): faster when its low end is above 1, slower
// when its high end is below 1, otherwise indistinguishable.
enum class Verdict { faster, slower, indistinguishable };

[[nodiscard]] std::string_view to_string(Verdict verdict) noexcept;

struct RatioInterval {
    double ratio = 0.0;  // the point estimate
    double low = 0.0;    // the interval's ends, low <= ratio <= high
    double high = 0.0;

    [[nodiscard]] Verdict verdict() const noexcept;
    // Half the interval's width as a fraction of the ratio: the precision reached.
    [[nodiscard]] double relative_half_width() const noexcept;
};

// The default confidence of every interval ForgeKernel reports.
inline constexpr double default_confidence = 0.95;

// The ratio of one workload: exp of the median of its rounds' paired log-ratios,
// and the distribution-free interval on that median from the order statistics
// (the sign test's interval: Binomial(n, 1/2) quantiles). Throws
// std::invalid_argument on no rounds, a NaN, or a confidence outside (0, 1).
// With fewer than 6 rounds no pair of order statistics reaches 95%: the interval
// is then [min, max].
[[nodiscard]] RatioInterval paired_ratio(std::span<const double> log_ratios,
                                         double confidence = default_confidence);

// The rank (1-based) k of the order statistics x_(k), x_(n-k+1) that bound the
// median with at least `confidence`; 1 when even [min, max] falls short.
[[nodiscard]] std::size_t median_interval_rank(std::size_t n, double confidence);

// One workload's rounds: each round's log(reference_ms / student_ms) and the
// cluster it ran in. Rounds of one cluster share something that can bias them
// alike (the bench: the copy of each side's tensors, whose placement in memory
// moves a side's time), so they are not independent of each other.
struct PairedRounds {
    std::vector<double> log_ratios;
    std::vector<std::size_t> clusters;  // one per round; empty: every round its own
};

// paired_ratio's estimate, with an interval that also holds when clusters
// differ: the hull of the sign-test interval and Student's t interval on the
// clusters' medians. Without real grouping (one cluster, or fewer than two
// rounds a cluster on average) it is the sign-test interval. Throws as
// paired_ratio does, and on clusters that do not match the rounds.
[[nodiscard]] RatioInterval clustered_paired_ratio(const PairedRounds& rounds,
                                                   double confidence = default_confidence);

// What more rounds could do to clustered_paired_ratio's t interval. A
// cluster's median varies by its own rounds' noise, which more rounds in it
// average out, and by what sets the clusters apart (the bench: where a side's
// tensors lie in memory), which only more clusters do.
struct ClusterSpread {
    std::size_t clusters = 0;       // 0: no grouping to account for (clustered_paired_ratio's)
    std::size_t fewest_rounds = 0;  // in any one cluster
    double rounds_each = 0.0;       // the clusters' mean number of rounds
    double medians_variance = 0.0;  // the sample variance of the clusters' medians
    // A round's log-ratio within its cluster, pooled over the clusters: from
    // the median difference between a cluster's consecutive rounds, as a
    // normal's variance (which the rounds' heavy tails do not inflate).
    double round_variance = 0.0;

    // The relative half-width of the t interval with `rounds_each` rounds in
    // every cluster: the medians' variance less what their own rounds' noise
    // puts in it now, plus that noise at `rounds_each` (a median of m rounds
    // varies as pi/2 x a round's variance / m). 0 without clusters.
    [[nodiscard]] double half_width_with(double rounds_each, double confidence = default_confidence) const;
    // Whether the medians vary more than their rounds' noise explains: their
    // variance over that noise's, times clusters - 1, past the chi-squared
    // quantile 1 - alpha (the medians' variance alone would be a noisy guess
    // of what sets the clusters apart, with a handful of clusters).
    [[nodiscard]] bool clusters_differ(double alpha) const;
};

// Throws as clustered_paired_ratio does.
[[nodiscard]] ClusterSpread cluster_spread(const PairedRounds& rounds);

// The run's ratio: the geometric mean over workloads of each workload's
// ratio, with a percentile-bootstrap interval that resamples each workload's
// clusters and rounds (seeded: the same rounds give the same interval), widened
// where needed to what the workloads' clustered intervals imply for a mean of
// independent workloads (sqrt(sum of squared log half-widths) / workloads). Throws
// std::invalid_argument on no workloads or a workload without rounds.
[[nodiscard]] RatioInterval geomean_ratio(std::span<const PairedRounds> workloads, std::uint64_t seed,
                                          double confidence = default_confidence, int resamples = 2000);

}  // namespace forge::stats
