#include "rules/stopping.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

namespace forge::bench {

StoppingParameters StoppingParameters::standard() { return StoppingParameters{}; }

StoppingParameters StoppingParameters::quick() {
    return StoppingParameters{.preset = quick_preset,
                              .precision = 0.05,
                              .confidence = stats::default_confidence,
                              .min_rounds = 8,
                              .max_rounds = 200,
                              .min_measured_s = 0.0,
                              .max_wall_s = 0.3,
                              .quiet_wait_s = 0.0,
                              .retake_busy_workloads = false,
                              .warmup_s = 0.01,
                              .min_fresh_rounds = 8};
}

std::string_view to_string(StopReason reason) noexcept {
    switch (reason) {
        case StopReason::precision_reached: return "precision reached";
        case StopReason::wall_cap: return "time cap";
        case StopReason::out_of_reach: return "precision out of reach";
        case StopReason::round_cap: break;
    }
    return "round cap";
}

void StoppingCriterion::add(const RoundReading& round) {
    rounds_.push_back(round);
    measured_ms_ += round.measured_ms;
}

CountedRounds StoppingCriterion::counted() const {
    return count_rounds(rounds_, earlier_machine_ms_, parameters_.min_rounds);
}

double StoppingCriterion::relative_half_width() const {
    return stats::clustered_paired_ratio(paired_rounds(rounds_, counted()), parameters_.confidence)
        .relative_half_width();
}

bool StoppingCriterion::every_layout_read(const stats::ClusterSpread& spread) const {
    return clusters_ < 2 || (spread.clusters >= clusters_ && spread.fewest_rounds >= rounds_a_layout);
}

std::optional<StoppingCriterion::Look> StoppingCriterion::look(const CountedRounds& counted) const {
    if (counted.selection != RoundSelection::quiet || measured_s() < parameters_.min_measured_s) return std::nullopt;
    stats::PairedRounds paired = paired_rounds(rounds_, counted);
    const stats::ClusterSpread spread = stats::cluster_spread(paired);
    const double half_width = stats::clustered_paired_ratio(paired, parameters_.confidence).relative_half_width();
    return Look{.paired = std::move(paired), .spread = spread, .relative_half_width = half_width};
}

bool StoppingCriterion::precise_enough(const Look& look, bool before_cap) const {
    return (!before_cap || every_layout_read(look.spread)) && look.relative_half_width <= parameters_.precision;
}

bool StoppingCriterion::out_of_reach(const Look& look, double wall_s) const {
    const stats::ClusterSpread& spread = look.spread;
    if (!(wall_s > 0.0) || clusters_ < 2 || !every_layout_read(spread) ||
        !spread.clusters_differ(layouts_differ_alpha)) {
        return false;
    }
    const double confidence = parameters_.confidence;
    // The rounds by the cap at this pace, the round cap included.
    const auto counted_now = static_cast<double>(look.paired.log_ratios.size());
    const double by_cap = std::min(
        counted_now * parameters_.max_wall_s / wall_s,
        counted_now + static_cast<double>(parameters_.max_rounds - std::min(rounds(), parameters_.max_rounds)));
    // The sign-test part narrows as one over the square root of the rounds.
    const double sign_test_by_cap =
        stats::paired_ratio(look.paired.log_ratios, confidence).relative_half_width() * std::sqrt(counted_now / by_cap);
    const double width_by_cap =
        std::max(spread.half_width_with(spread.rounds_each * by_cap / counted_now, confidence), sign_test_by_cap);
    return width_by_cap > parameters_.precision && width_by_cap >= cap_narrowing * look.relative_half_width;
}

bool StoppingCriterion::is_finished(double wall_s) {
    const std::size_t n = rounds();
    if (n < parameters_.min_rounds) return false;
    // The interval is looked at every ~5% more rounds, not after each one: fewer
    // looks keep a lucky narrow stretch from ending the run (optional stopping).
    if (n >= next_check_ && measured_s() >= parameters_.min_measured_s) {
        next_check_ = n + std::max<std::size_t>(n / 20, 1);
        if (const std::optional<Look> now = look(counted())) {
            if (precise_enough(*now, true)) {
                reason_ = StopReason::precision_reached;
                return true;
            }
            if (out_of_reach(*now, wall_s)) {
                reason_ = StopReason::out_of_reach;
                return true;
            }
        }
    }
    const bool at_round_cap = n >= parameters_.max_rounds;
    if (!at_round_cap && wall_s < parameters_.max_wall_s) return false;
    const CountedRounds now = counted();
    if (!at_round_cap && now.selection != RoundSelection::quiet &&
        wall_s < parameters_.max_wall_s + parameters_.quiet_wait_s) {
        waited_for_quiet_ = true;
        return false;
    }
    // A last look at a cap: precise since the previous look (the looks are ~5%
    // of the rounds apart, and the wait for quiet rounds ends between them) says
    // so, rather than the cap.
    if (const std::optional<Look> last = look(now); last && precise_enough(*last, false)) {
        reason_ = StopReason::precision_reached;
    } else {
        reason_ = at_round_cap ? StopReason::round_cap : StopReason::wall_cap;
    }
    return true;
}

}  // namespace forge::bench
