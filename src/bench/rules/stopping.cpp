#include "rules/stopping.hpp"

#include <algorithm>

namespace forge::bench {

StoppingParameters StoppingParameters::standard() { return StoppingParameters{}; }

StoppingParameters StoppingParameters::quick() {
    return StoppingParameters{.preset = "quick",
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

std::string_view to_string(RoundSelection selection) noexcept {
    switch (selection) {
        case RoundSelection::quiet: return "quiet rounds";
        case RoundSelection::undisturbed: return "undisturbed rounds";
        case RoundSelection::all: break;
    }
    return "all rounds";
}

void PrecisionCriterion::add_round(double log_ratio, std::size_t cluster, double measured_ms, bool disturbed,
                                   double machine_ms) {
    log_ratios_.push_back(log_ratio);
    clusters_.push_back(cluster);
    disturbed_.push_back(disturbed);
    machine_ms_.push_back(machine_ms);
    measured_ms_ += measured_ms;
}

PrecisionCriterion::Choice PrecisionCriterion::choose() const {
    const std::size_t n = rounds();
    Choice quiet{RoundSelection::quiet, std::vector<bool>(n, false)};
    Choice undisturbed{RoundSelection::undisturbed, std::vector<bool>(n, false)};
    if (n == 0) return Choice{RoundSelection::all, {}};
    double quietest = *std::min_element(machine_ms_.begin(), machine_ms_.end());
    if (!earlier_machine_ms_.empty()) {
        quietest = std::min(quietest, *std::min_element(earlier_machine_ms_.begin(), earlier_machine_ms_.end()));
    }
    const double threshold = quiet_margin * quietest;
    std::size_t quiet_count = 0;
    std::size_t undisturbed_count = 0;
    for (std::size_t r = 0; r < n; ++r) {
        undisturbed.rounds[r] = !disturbed_[r];
        quiet.rounds[r] = !disturbed_[r] && machine_ms_[r] <= threshold;
        undisturbed_count += undisturbed.rounds[r] ? 1 : 0;
        quiet_count += quiet.rounds[r] ? 1 : 0;
    }
    quiet.quiet_rounds = undisturbed.quiet_rounds = quiet_count;
    if (quiet_count >= parameters_.min_rounds) return quiet;
    if (undisturbed_count >= parameters_.min_rounds) return undisturbed;
    return Choice{RoundSelection::all, std::vector<bool>(n, true), quiet_count};
}

std::vector<bool> PrecisionCriterion::selected() const { return choose().rounds; }

RoundSelection PrecisionCriterion::selection() const { return choose().selection; }

std::size_t PrecisionCriterion::quiet_rounds() const { return choose().quiet_rounds; }

stats::PairedRounds PrecisionCriterion::rounds_of(const Choice& choice) const {
    stats::PairedRounds out;
    for (std::size_t r = 0; r < rounds(); ++r) {
        if (!choice.rounds[r]) continue;
        out.log_ratios.push_back(log_ratios_[r]);
        out.clusters.push_back(clusters_[r]);
    }
    return out;
}

bool PrecisionCriterion::precise(const Choice& choice) const {
    return stats::clustered_paired_ratio(rounds_of(choice), parameters_.confidence).relative_half_width() <=
           parameters_.precision;
}

stats::PairedRounds PrecisionCriterion::estimated_rounds() const { return rounds_of(choose()); }

stats::RatioInterval PrecisionCriterion::interval() const {
    return stats::clustered_paired_ratio(estimated_rounds(), parameters_.confidence);
}

bool PrecisionCriterion::precise_enough(const Choice& choice) const {
    return choice.selection == RoundSelection::quiet && measured_s() >= parameters_.min_measured_s &&
           precise(choice);
}

bool PrecisionCriterion::done(double wall_s) {
    const std::size_t n = rounds();
    if (n < parameters_.min_rounds) return false;
    // The interval is looked at every ~5% more rounds, not after each one: fewer
    // looks keep a lucky narrow stretch from ending the run (optional stopping).
    if (n >= next_check_ && measured_s() >= parameters_.min_measured_s) {
        next_check_ = n + std::max<std::size_t>(n / 20, 1);
        if (precise_enough(choose())) {
            reason_ = StopReason::precision_reached;
            return true;
        }
    }
    const bool at_round_cap = n >= parameters_.max_rounds;
    if (!at_round_cap && wall_s < parameters_.max_wall_s) return false;
    const Choice choice = choose();
    if (!at_round_cap && choice.selection != RoundSelection::quiet &&
        wall_s < parameters_.max_wall_s + parameters_.quiet_wait_s) {
        waited_for_quiet_ = true;
        return false;
    }
    // A last look at a cap: precise since the previous look (the looks are ~5%
    // of the rounds apart, and the wait for quiet rounds ends between them) says
    // so, rather than the cap.
    if (precise_enough(choice)) {
        reason_ = StopReason::precision_reached;
    } else {
        reason_ = at_round_cap ? StopReason::round_cap : StopReason::wall_cap;
    }
    return true;
}

}  // namespace forge::bench
