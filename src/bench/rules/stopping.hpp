// When a workload's paired rounds stop: once the ratio's interval is as narrow
// as asked, after a minimum of rounds and of measured time, or at a wall-clock
// cap. Fed one round at a time and asked whether it is done, so the round loop
// never needs to know why it stops (NVBench's stopping criterion is the model).
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include "forge/stats/ratio_interval.hpp"

namespace forge::bench {

struct StoppingParameters {
    // "standard", or "quick" (--quick): eval.json says which, so a quick run's
    // ratio is never taken for one measured to keep.
    std::string_view preset = "standard";
    double precision = 0.01;         // target: the interval's half-width / the ratio
    double confidence = stats::default_confidence;
    std::size_t min_rounds = 20;     // always run, whatever the cap: fewer gives no honest interval
    std::size_t max_rounds = 10000;
    double min_measured_s = 0.3;     // both sides' timed calls, summed
    double max_wall_s = 4.0;         // the rounds' wall time, the harness's own work included
    // More wall time, past max_wall_s, while fewer than min_rounds rounds are quiet:
    // a busy stretch of the machine (seconds of another tenant's memory traffic)
    // can cover a whole workload, and its rounds read another ratio.
    double quiet_wait_s = 4.0;
    // Measure again, at the end of the run, a workload with too few quiet rounds
    // judged against the whole run's readings (a busy stretch over its start).
    bool retake_busy_workloads = true;
    double warmup_s = 0.2;           // interleaved untimed calls before the first round
    // Rounds on inputs drawn for them alone (fresh_inputs.hpp), at least: the
    // rounds go on past the criterion until there are as many.
    std::size_t min_fresh_rounds = 8;

    [[nodiscard]] static StoppingParameters standard();
    [[nodiscard]] static StoppingParameters quick();  // --quick: for tests
};

// Why a workload's rounds ended.
enum class StopReason { precision_reached, wall_cap, round_cap };

[[nodiscard]] std::string_view to_string(StopReason reason) noexcept;

// A round is quiet when it was not disturbed and the machine reading is within
// 30% of the quietest reading of the run so far. The quietest, not a quartile:
// two neighbours out of phase can keep the machine busy for most of a run, and
// then its lower quartile is a busy reading too. A reading cannot come out
// faster than the memory allows (its buffer is evicted between rounds), so the
// lowest is the machine at its quietest. Beside the noisy neighbour
// (tools/ratio-stability), rounds read the quiet ratio up to about 1.45x the
// quietest reading and a ratio up to 25% lower from 1.6x on.
inline constexpr double quiet_margin = 1.3;

// Which rounds a workload's ratio comes from (PrecisionCriterion::selection).
enum class RoundSelection { quiet, undisturbed, all };

[[nodiscard]] std::string_view to_string(RoundSelection selection) noexcept;

class PrecisionCriterion {
public:
    // The name eval.json records beside the parameters.
    static constexpr std::string_view name = "paired-ratio-precision";

    // `earlier_machine_ms`: the machine readings of the run's earlier workloads, so
    // a workload that ran entirely in a busy stretch is judged against the quietest
    // the machine was during the run, not against its own busy readings.
    explicit PrecisionCriterion(StoppingParameters parameters, std::vector<double> earlier_machine_ms = {})
        : parameters_(parameters), earlier_machine_ms_(std::move(earlier_machine_ms)) {}

    // One round: log(reference_ms / student_ms), the cluster it ran in (rounds
    // of one cluster may be biased alike: the layout of the tensors), the
    // milliseconds both calls took, whether the round was disturbed (a call
    // preempted, or the GPU throttled while it ran), and a
    // reading of how busy the machine was around it (the memory calibration).
    void add_round(double log_ratio, std::size_t cluster, double measured_ms, bool disturbed = false,
                   double machine_ms = 0.0);

    // Whether to stop, `wall_s` into the rounds; the reason is kept.
    [[nodiscard]] bool done(double wall_s);
    // Whether the rounds went past max_wall_s waiting for quiet ones.
    [[nodiscard]] bool waited_for_quiet() const noexcept { return waited_for_quiet_; }

    [[nodiscard]] const StoppingParameters& parameters() const noexcept { return parameters_; }
    [[nodiscard]] std::optional<StopReason> reason() const noexcept { return reason_; }
    [[nodiscard]] std::size_t rounds() const noexcept { return log_ratios_.size(); }
    [[nodiscard]] double measured_s() const noexcept { return measured_ms_ * 1e-3; }

    // Which rounds the estimate comes from: the quiet ones (not disturbed, and
    // the machine reading within 30% of the run's quietest: a neighbour slows a
    // memory-bound side more than a compute-bound one, so busy rounds move the
    // ratio) when there are min_rounds of them;
    // else those without a disturbance; else all. Only quiet rounds can reach
    // the precision: the others are a fallback, biased by what disturbed them.
    [[nodiscard]] RoundSelection selection() const;
    [[nodiscard]] std::vector<bool> selected() const;  // per round, in order
    [[nodiscard]] std::size_t quiet_rounds() const;    // how many were quiet, chosen or not
    [[nodiscard]] stats::PairedRounds estimated_rounds() const;
    // The interval over the selected rounds (at least one round), clusters accounted for.
    [[nodiscard]] stats::RatioInterval interval() const;

private:
    struct Choice {
        RoundSelection selection = RoundSelection::all;  // default: nothing chosen yet, nothing to check
        std::vector<bool> rounds;
        std::size_t quiet_rounds = 0;
    };
    [[nodiscard]] Choice choose() const;
    [[nodiscard]] stats::PairedRounds rounds_of(const Choice& choice) const;
    [[nodiscard]] bool precise(const Choice& choice) const;
    // Quiet rounds, the minimum measured time, and the precision: what a stop
    // needs to say "precision reached".
    [[nodiscard]] bool precise_enough(const Choice& choice) const;

    StoppingParameters parameters_;
    std::vector<double> log_ratios_;
    std::vector<std::size_t> clusters_;
    std::vector<bool> disturbed_;
    std::vector<double> machine_ms_;
    std::vector<double> earlier_machine_ms_;
    double measured_ms_ = 0.0;
    std::size_t next_check_ = 0;
    std::optional<StopReason> reason_;
    bool waited_for_quiet_ = false;
};

}  // namespace forge::bench
