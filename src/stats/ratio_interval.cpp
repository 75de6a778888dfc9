#include "forge/stats/ratio_interval.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <utility>
#include <vector>

#include <boost/math/distributions/binomial.hpp>
#include <boost/math/distributions/chi_squared.hpp>
#include <boost/math/distributions/students_t.hpp>

#include "forge/stats/summary.hpp"

namespace forge::stats {

namespace {

// A median of m normal rounds varies as pi/2 x a round's variance / m.
constexpr double median_efficiency = 1.5707963267948966;

void require_confidence(double confidence) {
    if (!(confidence > 0.0 && confidence < 1.0)) throw std::invalid_argument("confidence outside (0, 1)");
}

// splitmix64: a generator whose sequence is fixed by its seed on every standard
// library (std::uniform_int_distribution's is not), so a recorded interval can
// be recomputed anywhere.
class SplitMix {
public:
    explicit SplitMix(std::uint64_t seed) : state_(seed) {}

    std::uint64_t next() {
        std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ULL);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        return z ^ (z >> 31);
    }

    // An index below n (the modulo's bias, below n / 2^64, is negligible for round counts).
    std::size_t below(std::size_t n) { return static_cast<std::size_t>(next() % n); }

private:
    std::uint64_t state_;
};

double median_in_place(std::vector<double>& values) {
    const std::size_t mid = values.size() / 2;
    std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(mid), values.end());
    const double upper = values[mid];
    if (values.size() % 2 == 1) return upper;
    const double lower = *std::max_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(mid));
    return (lower + upper) / 2.0;
}

}  // namespace

std::string_view to_string(Verdict verdict) noexcept {
    switch (verdict) {
        case Verdict::faster: return "faster";
        case Verdict::slower: return "slower";
        case Verdict::indistinguishable: break;
    }
    return "indistinguishable";
}

Verdict RatioInterval::verdict() const noexcept {
    if (low > 1.0) return Verdict::faster;
    if (high < 1.0) return Verdict::slower;
    return Verdict::indistinguishable;
}

double RatioInterval::relative_half_width() const noexcept { return (high - low) / 2.0 / ratio; }

std::size_t median_interval_rank(std::size_t n, double confidence) {
    require_confidence(confidence);
    if (n == 0) throw std::invalid_argument("interval of no rounds");
    // [x_(k), x_(n-k+1)] misses the median when fewer than k rounds fall below
    // it or fewer than k above: probability 2 * P(B <= k - 1), B ~ Binomial(n, 1/2),
    // whatever the rounds' distribution. The largest k keeping that <= 1 - confidence.
    const boost::math::binomial_distribution<double> rounds_below(static_cast<double>(n), 0.5);
    const double alpha = 1.0 - confidence;
    std::size_t rank = 1;
    while (rank + 1 <= (n + 1) / 2 && 2.0 * boost::math::cdf(rounds_below, static_cast<double>(rank)) <= alpha) {
        ++rank;
    }
    return rank;
}

// Why the median and its order-statistic interval: a round's log-ratio is
// skewed and often bimodal (a scheduler slice or a frequency step lands on one
// side of a round), so a mean or a normal interval would follow the outliers.
// The sign-test interval assumes only that rounds are independent and alike,
// and its coverage is exact (never below the confidence asked).
RatioInterval paired_ratio(std::span<const double> log_ratios, double confidence) {
    const std::size_t rank = median_interval_rank(log_ratios.size(), confidence);
    std::vector<double> sorted(log_ratios.begin(), log_ratios.end());
    const double centre = median(sorted);  // refuses NaN before the sort below
    std::sort(sorted.begin(), sorted.end());
    return RatioInterval{.ratio = std::exp(centre),
                         .low = std::exp(sorted[rank - 1]),
                         .high = std::exp(sorted[sorted.size() - rank])};
}

namespace {

// Rounds grouped by cluster, for resampling.
class Clusters {
public:
    explicit Clusters(const PairedRounds& rounds) {
        if (rounds.log_ratios.empty()) throw std::invalid_argument("a workload without rounds");
        if (!rounds.clusters.empty() && rounds.clusters.size() != rounds.log_ratios.size()) {
            throw std::invalid_argument("clusters that do not match the rounds");
        }
        std::vector<std::size_t> ids;
        for (std::size_t r = 0; r < rounds.log_ratios.size(); ++r) {
            const std::size_t id = rounds.clusters.empty() ? r : rounds.clusters[r];
            const auto index = static_cast<std::size_t>(std::find(ids.begin(), ids.end(), id) - ids.begin());
            if (index == ids.size()) {
                ids.push_back(id);
                members_.emplace_back();
            }
            members_[index].push_back(rounds.log_ratios[r]);
        }
    }

    [[nodiscard]] std::size_t size() const noexcept { return members_.size(); }
    [[nodiscard]] const std::vector<std::vector<double>>& members() const noexcept { return members_; }

    // Each cluster's own median.
    [[nodiscard]] std::vector<double> medians() const {
        std::vector<double> out;
        for (const std::vector<double>& cluster : members_) out.push_back(median(cluster));
        return out;
    }

    // One bootstrap resample's median: clusters drawn with replacement, then
    // rounds with replacement within each drawn cluster.
    double resampled_median(SplitMix& random, std::vector<double>& scratch) const {
        scratch.clear();
        for (std::size_t c = 0; c < members_.size(); ++c) {
            const std::vector<double>& drawn = members_[random.below(members_.size())];
            for (std::size_t r = 0; r < drawn.size(); ++r) scratch.push_back(drawn[random.below(drawn.size())]);
        }
        return median_in_place(scratch);
    }

private:
    std::vector<std::vector<double>> members_;
};

std::pair<double, double> percentile_ends(std::vector<double>& values, double confidence) {
    std::sort(values.begin(), values.end());
    const double alpha = 1.0 - confidence;
    return {quantile_sorted(values, alpha / 2.0), quantile_sorted(values, 1.0 - alpha / 2.0)};
}

}  // namespace

// Why a second interval beside the sign test: the sign test takes every round
// as independent, but rounds on one copy of the tensors share that copy's
// placement in memory, which moved identical code by several percent from copy
// to copy. With a handful of clusters, the interval that holds is Student's t
// on the clusters' own medians (k - 1 degrees of freedom); a bootstrap over so
// few clusters covers too little.
RatioInterval clustered_paired_ratio(const PairedRounds& rounds, double confidence) {
    const Clusters clusters(rounds);
    RatioInterval interval = paired_ratio(rounds.log_ratios, confidence);  // refuses NaN and bad confidence
    const std::size_t k = clusters.size();
    if (k < 2 || 2 * k > rounds.log_ratios.size()) return interval;  // no grouping to account for
    const std::vector<double> medians = clusters.medians();
    double mean = 0.0;
    for (double m : medians) mean += m;
    mean /= static_cast<double>(k);
    double squares = 0.0;
    for (double m : medians) squares += (m - mean) * (m - mean);
    const double standard_error = std::sqrt(squares / static_cast<double>(k - 1) / static_cast<double>(k));
    const boost::math::students_t t(static_cast<double>(k - 1));
    const double half_width = boost::math::quantile(boost::math::complement(t, (1.0 - confidence) / 2.0)) *
                              standard_error;
    interval.low = std::min(interval.low, std::exp(mean - half_width));
    interval.high = std::max(interval.high, std::exp(mean + half_width));
    return interval;
}

ClusterSpread cluster_spread(const PairedRounds& rounds) {
    const Clusters clusters(rounds);
    const std::size_t k = clusters.size();
    if (k < 2 || 2 * k > rounds.log_ratios.size()) return {};  // clustered_paired_ratio's sign-test case
    ClusterSpread spread;
    spread.clusters = k;
    spread.fewest_rounds = rounds.log_ratios.size();
    spread.rounds_each = static_cast<double>(rounds.log_ratios.size()) / static_cast<double>(k);
    const std::vector<double> medians = clusters.medians();
    double mean = 0.0;
    for (double m : medians) mean += m;
    mean /= static_cast<double>(k);
    std::vector<double> differences;
    for (std::size_t c = 0; c < k; ++c) {
        const std::vector<double>& members = clusters.members()[c];
        spread.fewest_rounds = std::min(spread.fewest_rounds, members.size());
        spread.medians_variance += (medians[c] - mean) * (medians[c] - mean) / static_cast<double>(k - 1);
        for (std::size_t i = 0; i + 1 < members.size(); ++i)
            differences.push_back(std::abs(members[i + 1] - members[i]));
    }
    // A cluster's consecutive rounds in pairs, not deviations from its median:
    // a median of a few rounds sits among them, and their deviations from it
    // read a quarter low at 6 rounds. Two normal rounds differ by a median of
    // 0.6745 x sqrt(2) sd.
    const double sigma = median_in_place(differences) / (0.6744897501960817 * std::sqrt(2.0));
    spread.round_variance = sigma * sigma;
    return spread;
}

double ClusterSpread::half_width_with(double rounds_each_then, double confidence) const {
    require_confidence(confidence);
    if (clusters < 2 || !(rounds_each_then > 0.0)) return 0.0;
    const double noise_now = median_efficiency * round_variance / rounds_each;
    const double between = std::max(0.0, medians_variance - noise_now);
    const double variance = between + median_efficiency * round_variance / rounds_each_then;
    const boost::math::students_t t(static_cast<double>(clusters - 1));
    const double half_width = boost::math::quantile(boost::math::complement(t, (1.0 - confidence) / 2.0)) *
                              std::sqrt(variance / static_cast<double>(clusters));
    return std::sinh(half_width);  // (e^(c+h) - e^(c-h)) / 2 / e^c
}

bool ClusterSpread::clusters_differ(double alpha) const {
    if (clusters < 2) return false;
    if (!(alpha > 0.0 && alpha < 1.0)) throw std::invalid_argument("alpha outside (0, 1)");
    const double noise = median_efficiency * round_variance / rounds_each;
    const boost::math::chi_squared null(static_cast<double>(clusters - 1));
    return medians_variance * static_cast<double>(clusters - 1) >
           boost::math::quantile(boost::math::complement(null, alpha)) * noise;
}

// Why a bootstrap for the run: the geometric mean combines medians of workloads
// with different spreads and round counts, for which no exact interval exists;
// resampling each workload's clusters and rounds keeps each one's own distribution.
// Why the hull with the workloads' own intervals carried over: a bootstrap over a
// handful of clusters per workload covers too little (clustered_paired_ratio),
// and a run's interval narrower than its workloads' intervals imply would claim
// more than they do. Each workload's interval, read as +-1.96 standard errors
// on its log-ratio, gives the mean of independent workloads' log-ratios the
// half-width sqrt(sum of squared half-widths) / workloads, each side apart.
// Beside the noisy neighbour (tools/ratio-stability, 135 runs kept) the run's
// interval covered the 5-run median in 101 runs as a bootstrap alone, 109 so.
RatioInterval geomean_ratio(std::span<const PairedRounds> workloads, std::uint64_t seed, double confidence,
                            int resamples) {
    require_confidence(confidence);
    if (workloads.empty()) throw std::invalid_argument("geometric mean of no workloads");
    if (resamples < 1) throw std::invalid_argument("bootstrap of no resamples");
    const auto count = static_cast<double>(workloads.size());

    std::vector<Clusters> clusters;
    double centre = 0.0;
    for (const PairedRounds& rounds : workloads) {
        clusters.emplace_back(rounds);
        centre += median(rounds.log_ratios);  // refuses NaN
    }
    centre /= count;

    SplitMix random(seed);
    std::vector<double> means;
    means.reserve(static_cast<std::size_t>(resamples));
    std::vector<double> scratch;
    for (int b = 0; b < resamples; ++b) {
        double sum = 0.0;
        for (const Clusters& workload : clusters) sum += workload.resampled_median(random, scratch);
        means.push_back(sum / count);
    }
    const auto [low, high] = percentile_ends(means, confidence);
    double below = 0.0;  // sums of squared log half-widths, each side of the workloads' ratios
    double above = 0.0;
    for (const PairedRounds& rounds : workloads) {
        const RatioInterval workload = clustered_paired_ratio(rounds, confidence);
        below += std::pow(std::log(workload.ratio / workload.low), 2);
        above += std::pow(std::log(workload.high / workload.ratio), 2);
    }
    // The point estimate always lies inside.
    return RatioInterval{.ratio = std::exp(centre),
                         .low = std::exp(std::min(low, centre - std::sqrt(below) / count)),
                         .high = std::exp(std::max(high, centre + std::sqrt(above) / count))};
}

}  // namespace forge::stats
