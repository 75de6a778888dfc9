#include "rules/stopping.hpp"

#include <algorithm>

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

bool StoppingCriterion::precise_enough(const CountedRounds& counted) const {
    return counted.selection == RoundSelection::quiet && measured_s() >= parameters_.min_measured_s &&
           stats::clustered_paired_ratio(paired_rounds(rounds_, counted), parameters_.confidence)
                   .relative_half_width() <= parameters_.precision;
}

bool StoppingCriterion::is_finished(double wall_s) {
    const std::size_t n = rounds();
    if (n < parameters_.min_rounds) return false;
    // The interval is looked at every ~5% more rounds, not after each one: fewer
    // looks keep a lucky narrow stretch from ending the run (optional stopping).
    if (n >= next_check_ && measured_s() >= parameters_.min_measured_s) {
        next_check_ = n + std::max<std::size_t>(n / 20, 1);
        if (precise_enough(counted())) {
            reason_ = StopReason::precision_reached;
            return true;
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
    if (precise_enough(now)) {
        reason_ = StopReason::precision_reached;
    } else {
        reason_ = at_round_cap ? StopReason::round_cap : StopReason::wall_cap;
    }
    return true;
}

}  // namespace forge::bench
