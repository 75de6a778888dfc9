#include "rules/fresh_inputs.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>

#include "forge/stats/summary.hpp"

#include "results/record.hpp"

namespace forge::bench {

namespace {

// Round r of every eight: 3 has the reference first, 6 the student
// (RoundSchedule); never round 0, the first after the warm-up.
constexpr std::size_t cycle = 8;
constexpr std::size_t reference_first = 3;
constexpr std::size_t student_first = 6;

// The scale of normal noise that gives `values`' median absolute deviation.
double robust_scale(const std::vector<double>& values, double median) {
    std::vector<double> deviations;
    deviations.reserve(values.size());
    for (double v : values) deviations.push_back(std::abs(v - median));
    return 1.4826 * stats::median(deviations);
}

// Mann-Whitney's U of `fresh` against `seen` (pairs where the fresh value is
// higher, ties half), as (E[U] - U) / sd(U) under no difference.
double rank_z(const std::vector<double>& fresh, const std::vector<double>& seen) {
    double u = 0.0;
    for (double f : fresh) {
        for (double v : seen) u += f > v ? 1.0 : f == v ? 0.5 : 0.0;
    }
    const auto n_fresh = static_cast<double>(fresh.size());
    const auto n_seen = static_cast<double>(seen.size());
    const double mean = n_fresh * n_seen / 2.0;
    const double sd = std::sqrt(n_fresh * n_seen * (n_fresh + n_seen + 1.0) / 12.0);
    return (mean - u) / sd;
}

// The log-ratios of the fresh and of the seen rounds `take` keeps, each less
// the median of the seen rounds with the same side first: a short call's ratio
// moves with the order (the side timed second reads up to tens of percent
// slower or faster), and the fresh rounds need not hold both orders alike.
// Fresh rounds of an order no seen round had are left out. The raw log-ratios
// too, for the noise: residuals from a median of three rounds include that
// round's own zero, and understate the spread of a short run.
struct Split {
    std::vector<double> fresh;
    std::vector<double> seen;
    std::vector<double> fresh_raw;
    std::vector<double> seen_raw;
};

template <class Take>
Split split(const std::vector<Round>& rounds, Take take) {
    std::array<std::vector<double>, 2> seen_by_order;
    const auto order = [](const Round& round) { return round.first == Side::reference ? 0 : 1; };
    for (const Round& round : rounds) {
        if (take(round) && !round.fresh) seen_by_order[order(round)].push_back(round.log_ratio());
    }
    std::array<std::optional<double>, 2> seen_median;
    for (int o = 0; o < 2; ++o) {
        if (!seen_by_order[o].empty()) seen_median[o] = stats::median(seen_by_order[o]);
    }
    Split out;
    for (const Round& round : rounds) {
        const std::optional<double>& median = seen_median[order(round)];
        if (!take(round) || !median) continue;
        (round.fresh ? out.fresh : out.seen).push_back(round.log_ratio() - *median);
        (round.fresh ? out.fresh_raw : out.seen_raw).push_back(round.log_ratio());
    }
    return out;
}

}  // namespace

bool FreshSchedule::draw(std::size_t fresh_so_far, double drawing_s, double wall_s, bool stopping) const noexcept {
    if (stopping) return fresh_so_far < minimum_;
    return drawing_s <= budget * wall_s;
}

bool FreshSchedule::fresh(std::size_t round, std::size_t rounds_since_draw, std::size_t fresh_so_far,
                          bool stopping) const noexcept {
    if (rounds_since_draw == 0) return false;
    if (stopping) return fresh_so_far < minimum_;
    const std::size_t in_cycle = round % cycle;
    return in_cycle == reference_first || in_cycle == student_first;
}

bool compared_for_reuse(const Round& round) noexcept {
    if (round.throttled) return false;
    return !round.preempted || (round.reference_wait_ms && round.student_wait_ms);
}

std::optional<Reuse> reuse_of(const std::vector<Round>& rounds) {
    const auto [fresh, seen, fresh_raw, seen_raw] = split(rounds, compared_for_reuse);
    if (fresh.size() < 2 || seen.size() < 2) return std::nullopt;
    // Two fresh rounds say little of their own spread: the seen rounds' is the
    // noise then, and the larger of the two once there are three.
    double scale = robust_scale(seen_raw, stats::median(seen_raw));
    if (fresh.size() >= 3) scale = std::max(scale, robust_scale(fresh_raw, stats::median(fresh_raw)));
    // A median's standard error is sqrt(pi / 2) times the mean's under normal noise.
    const double standard_error =
        std::sqrt(std::numbers::pi / 2.0) * scale *
        std::sqrt(1.0 / static_cast<double>(fresh.size()) + 1.0 / static_cast<double>(seen.size()));
    Reuse reuse;
    reuse.fresh_rounds = fresh.size();
    reuse.seen_rounds = seen.size();
    reuse.gain = std::exp(stats::median(seen) - stats::median(fresh));
    reuse.resolves = std::exp(std::max(Reuse::z * standard_error, Reuse::floor));
    reuse.rank_z = rank_z(fresh, seen);
    return reuse;
}

}  // namespace forge::bench
