#include "forge/stats/ratio_interval.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include <boost/math/distributions/binomial.hpp>

#include "forge/stats/summary.hpp"

namespace forge::stats {

namespace {

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

// Why a bootstrap here: the geometric mean combines medians of workloads with
// different spreads and round counts, for which no exact interval exists;
// resampling each workload's rounds keeps each one's own distribution.
RatioInterval geomean_ratio(std::span<const std::vector<double>> log_ratios_per_workload, std::uint64_t seed,
                            double confidence, int resamples) {
    require_confidence(confidence);
    if (log_ratios_per_workload.empty()) throw std::invalid_argument("geometric mean of no workloads");
    if (resamples < 1) throw std::invalid_argument("bootstrap of no resamples");
    const auto workloads = static_cast<double>(log_ratios_per_workload.size());

    double centre = 0.0;
    for (const std::vector<double>& rounds : log_ratios_per_workload) {
        if (rounds.empty()) throw std::invalid_argument("a workload without rounds");
        centre += median(rounds);  // refuses NaN
    }
    centre /= workloads;

    SplitMix random(seed);
    std::vector<double> means;
    means.reserve(static_cast<std::size_t>(resamples));
    std::vector<double> resample;
    for (int b = 0; b < resamples; ++b) {
        double sum = 0.0;
        for (const std::vector<double>& rounds : log_ratios_per_workload) {
            resample.resize(rounds.size());
            for (double& value : resample) value = rounds[random.below(rounds.size())];
            sum += median_in_place(resample);
        }
        means.push_back(sum / workloads);
    }
    std::sort(means.begin(), means.end());
    const double alpha = 1.0 - confidence;
    // Percentile ends; clamped so the point estimate always lies inside.
    const double low = std::min(quantile_sorted(means, alpha / 2.0), centre);
    const double high = std::max(quantile_sorted(means, 1.0 - alpha / 2.0), centre);
    return RatioInterval{.ratio = std::exp(centre), .low = std::exp(low), .high = std::exp(high)};
}

}  // namespace forge::stats
