// Which of a workload's rounds its ratio comes from. The one owner of "quiet":
// the stopping rule, the retake rule and the record all ask here.
#pragma once

#include <cstddef>
#include <span>
#include <string_view>
#include <vector>

#include "forge/stats/ratio_interval.hpp"

namespace forge::bench {

// One paired round as the rules read it, measured once.
struct RoundReading {
    double log_ratio = 0.0;    // log(reference call / student call)
    std::size_t cluster = 0;   // rounds of one cluster may be biased alike (the tensors' layout)
    double measured_ms = 0.0;  // both calls' milliseconds
    bool disturbed = false;    // a call preempted, or the GPU throttled while it ran
    double machine_ms = 0.0;   // how busy the machine was around it (the memory calibration)
};

// A round is quiet when it was not disturbed and its machine reading is within
// 30% of the quietest reading of the run so far. The quietest, not a quartile:
// two neighbours out of phase can keep the machine busy for most of a run, and
// then its lower quartile is a busy reading too. A reading cannot come out
// faster than the memory allows (its buffer is evicted between rounds), so the
// lowest is the machine at its quietest (docs/design: how a ratio is measured).
inline constexpr double quiet_margin = 1.3;

// Whether a machine reading is within the quiet margin of the quietest one.
[[nodiscard]] constexpr bool within_quiet_margin(double machine_ms, double quietest_ms) noexcept {
    return machine_ms <= quiet_margin * quietest_ms;
}

// Which rounds a workload's ratio comes from.
enum class RoundSelection { quiet, undisturbed, all };

[[nodiscard]] std::string_view to_string(RoundSelection selection) noexcept;

struct CountedRounds {
    RoundSelection selection = RoundSelection::all;
    std::vector<bool> counted;     // per round, in order
    std::size_t quiet_rounds = 0;  // how many were quiet, counted or not
};

// The quiet rounds (a neighbour slows a memory-bound side more than a
// compute-bound one, so busy rounds move the ratio) when there are `min_rounds`
// of them; else those without a disturbance; else all. Only quiet rounds can
// reach the precision: the others are a fallback, biased by what disturbed
// them. `earlier_machine_ms`: the run's readings outside these rounds, so a
// workload that ran entirely in a busy stretch is judged against the quietest
// the machine was during the run, not against its own busy readings.
[[nodiscard]] CountedRounds count_rounds(std::span<const RoundReading> rounds,
                                         std::span<const double> earlier_machine_ms, std::size_t min_rounds);

// The counted rounds' log-ratios and clusters: what the ratio's interval comes from.
[[nodiscard]] stats::PairedRounds paired_rounds(std::span<const RoundReading> rounds, const CountedRounds& counted);

}  // namespace forge::bench
