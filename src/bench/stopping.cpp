#include "stopping.hpp"

#include <algorithm>

namespace forge::bench {

StoppingParameters StoppingParameters::standard() { return StoppingParameters{}; }

StoppingParameters StoppingParameters::quick() {
    return StoppingParameters{.precision = 0.05,
                              .confidence = stats::default_confidence,
                              .min_rounds = 8,
                              .max_rounds = 200,
                              .min_measured_s = 0.0,
                              .max_wall_s = 0.3,
                              .warmup_s = 0.01};
}

std::string_view to_string(StopReason reason) noexcept {
    switch (reason) {
        case StopReason::precision_reached: return "precision reached";
        case StopReason::wall_cap: return "time cap";
        case StopReason::round_cap: break;
    }
    return "round cap";
}

void PrecisionCriterion::add_round(double log_ratio, std::size_t cluster, double measured_ms, bool preempted) {
    for (stats::PairedRounds* rounds : {&all_, preempted ? nullptr : &clean_}) {
        if (rounds == nullptr) continue;
        rounds->log_ratios.push_back(log_ratio);
        rounds->clusters.push_back(cluster);
    }
    measured_ms_ += measured_ms;
}

stats::RatioInterval PrecisionCriterion::interval() const {
    return stats::clustered_paired_ratio(estimated_rounds(), parameters_.confidence);
}

bool PrecisionCriterion::done(double wall_s) {
    const std::size_t n = rounds();
    if (n < parameters_.min_rounds) return false;
    // The interval is looked at every ~5% more rounds, not after each one: fewer
    // looks keep a lucky narrow stretch from ending the run (optional stopping).
    const std::size_t clean = clean_rounds();
    if (estimated_from_clean_rounds() && clean >= next_check_ && measured_s() >= parameters_.min_measured_s) {
        next_check_ = clean + std::max<std::size_t>(clean / 20, 1);
        if (interval().relative_half_width() <= parameters_.precision) {
            reason_ = StopReason::precision_reached;
            return true;
        }
    }
    if (n >= parameters_.max_rounds) {
        reason_ = StopReason::round_cap;
        return true;
    }
    if (wall_s >= parameters_.max_wall_s) {
        reason_ = StopReason::wall_cap;
        return true;
    }
    return false;
}

}  // namespace forge::bench
