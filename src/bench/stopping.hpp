// When a workload's paired rounds stop: once the ratio's interval is as narrow
// as asked, after a minimum of rounds and of measured time, or at a wall-clock
// cap. Fed one round at a time and asked whether it is done, so the round loop
// never needs to know why it stops (NVBench's stopping criterion is the model).
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>
#include <vector>

#include "forge/stats/ratio_interval.hpp"

namespace forge::bench {

struct StoppingParameters {
    double precision = 0.01;         // target: the interval's half-width / the ratio
    double confidence = stats::default_confidence;
    std::size_t min_rounds = 20;     // always run, whatever the cap: fewer gives no honest interval
    std::size_t max_rounds = 10000;
    double min_measured_s = 0.3;     // both sides' timed calls, summed
    double max_wall_s = 4.0;         // the rounds' wall time, the harness's own work included
    double warmup_s = 0.2;           // interleaved untimed calls before the first round

    [[nodiscard]] static StoppingParameters standard();
    [[nodiscard]] static StoppingParameters quick();  // --quick: for tests
};

// Why a workload's rounds ended.
enum class StopReason { precision_reached, wall_cap, round_cap };

[[nodiscard]] std::string_view to_string(StopReason reason) noexcept;

class PrecisionCriterion {
public:
    // The name eval.json records beside the parameters.
    static constexpr std::string_view name = "paired-ratio-precision";

    explicit PrecisionCriterion(StoppingParameters parameters) : parameters_(parameters) {}

    // One round: log(reference_ms / student_ms), the cluster it ran in (rounds
    // of one cluster may be biased alike: the layout of the tensors), the
    // milliseconds both calls took, and whether either call was preempted.
    // The interval comes from the clean rounds once there are min_rounds of
    // them (only clean rounds can reach the precision); from all rounds otherwise.
    void add_round(double log_ratio, std::size_t cluster, double measured_ms, bool preempted = false);

    // Whether to stop, `wall_s` into the rounds; the reason is kept.
    [[nodiscard]] bool done(double wall_s);

    [[nodiscard]] const StoppingParameters& parameters() const noexcept { return parameters_; }
    [[nodiscard]] std::optional<StopReason> reason() const noexcept { return reason_; }
    [[nodiscard]] std::size_t rounds() const noexcept { return all_.log_ratios.size(); }
    [[nodiscard]] std::size_t clean_rounds() const noexcept { return clean_.log_ratios.size(); }
    // Whether the estimate uses the clean rounds only (false: too few of them, all rounds).
    [[nodiscard]] bool estimated_from_clean_rounds() const noexcept {
        return clean_rounds() >= parameters_.min_rounds;
    }
    [[nodiscard]] double measured_s() const noexcept { return measured_ms_ * 1e-3; }
    // The rounds the estimate and its interval come from.
    [[nodiscard]] const stats::PairedRounds& estimated_rounds() const noexcept {
        return estimated_from_clean_rounds() ? clean_ : all_;
    }
    // The interval over the rounds so far (at least one round), clusters accounted for.
    [[nodiscard]] stats::RatioInterval interval() const;

private:
    StoppingParameters parameters_;
    stats::PairedRounds all_;
    stats::PairedRounds clean_;
    double measured_ms_ = 0.0;
    std::size_t next_check_ = 0;
    std::optional<StopReason> reason_;
};

}  // namespace forge::bench
