// When a workload's paired rounds stop: once the ratio's interval is as narrow
// as asked, after a minimum of rounds and of measured time, or at a wall-clock
// cap. Fed one round at a time and asked whether it is done, so the round loop
// never needs to know why it stops (NVBench's stopping criterion is the model);
// which rounds count is count_rounds' to say, the estimate the caller's.
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

#include "forge/stats/ratio_interval.hpp"
#include "rules/counted_rounds.hpp"

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
    double warmup_s = 0.2;  // interleaved untimed calls before the run's first round
    // Rounds on inputs drawn for them alone (fresh_inputs.hpp), at least: the
    // rounds go on past the criterion until there are as many.
    std::size_t min_fresh_rounds = 8;

    [[nodiscard]] static StoppingParameters standard();
    [[nodiscard]] static StoppingParameters quick();  // --quick: for tests

    // Quick mode is this preset: --quick chooses it once (run()) and every step
    // asks it, so what each step did is what eval.json's stopping.preset says.
    static constexpr std::string_view quick_preset = "quick";
    [[nodiscard]] bool is_quick() const noexcept { return preset == quick_preset; }
};

// Why a workload's rounds ended. out_of_reach: the interval was bound by
// what sets the layouts apart, which the rest of the cap could not average out.
enum class StopReason { precision_reached, wall_cap, round_cap, out_of_reach };

[[nodiscard]] std::string_view to_string(StopReason reason) noexcept;

class StoppingCriterion {
public:
    // The name eval.json records beside the parameters.
    static constexpr std::string_view name = "paired-ratio-precision";

    // `earlier_machine_ms`: the machine readings of the run's earlier workloads
    // (count_rounds judges quiet against them too).
    explicit StoppingCriterion(StoppingParameters parameters, std::vector<double> earlier_machine_ms = {})
        : parameters_(parameters), earlier_machine_ms_(std::move(earlier_machine_ms)) {}

    // Counted rounds on each layout in use before a look may stop the rounds.
    static constexpr std::size_t rounds_a_layout = 4;
    // How far the rest of the cap must be able to narrow an interval short of
    // the precision for the rounds to go on.
    static constexpr double cap_narrowing = 0.9;
    // Layouts alike read apart by chance at each look: at 0.001, in 1 look in 1000.
    static constexpr double layouts_differ_alpha = 0.001;

    // The layouts (clusters) the rounds take turns on. After the first pass over
    // 8 the schedule may add more (LayoutGrowth): a look at the first 8 would
    // miss what the others average out.
    void use_clusters(std::size_t clusters) noexcept { clusters_ = clusters; }

    void add(const RoundReading& round);
    // Whether to stop, `wall_s` into the rounds; the reason is kept.
    [[nodiscard]] bool is_finished(double wall_s);

    [[nodiscard]] const StoppingParameters& parameters() const noexcept { return parameters_; }
    [[nodiscard]] std::optional<StopReason> reason() const noexcept { return reason_; }
    // Whether the rounds went past max_wall_s waiting for quiet ones.
    [[nodiscard]] bool waited_for_quiet() const noexcept { return waited_for_quiet_; }
    [[nodiscard]] std::size_t rounds() const noexcept { return rounds_.size(); }
    [[nodiscard]] double measured_s() const noexcept { return measured_ms_ * 1e-3; }

    // The rounds it was fed, and which of them count as it judges them now.
    [[nodiscard]] std::span<const RoundReading> readings() const noexcept { return rounds_; }
    [[nodiscard]] CountedRounds counted() const;
    // The interval's half-width over its ratio, from the rounds counted now (some rounds fed).
    [[nodiscard]] double relative_half_width() const;

private:
    // The counted rounds as a look reads them, worked out once for both of its
    // questions: paired, the layouts' spread and the interval's half-width.
    struct Look {
        stats::PairedRounds paired;
        stats::ClusterSpread spread;
        double relative_half_width = 0.0;
    };
    // None before the rounds are quiet and the minimum measured time is in:
    // until then no look may stop them.
    [[nodiscard]] std::optional<Look> look(const CountedRounds& counted) const;
    // The precision: what a stop needs to say "precision reached";
    // `before_cap`, every layout read too (at the cap the rounds end anyway,
    // and the interval is what they read).
    [[nodiscard]] bool precise_enough(const Look& look, bool before_cap) const;
    // `rounds_a_layout` counted rounds on every layout in use: before, the
    // interval has not seen how far apart the layouts read, and a look at the
    // first few could claim a precision the others then take back (a stop on
    // 5 of 8 layouts said +/-1%, the workload's interval at its end +/-2.3%).
    [[nodiscard]] bool every_layout_read(const stats::ClusterSpread& spread) const;
    // Whether the rounds the rest of the cap holds could bring the interval
    // neither to the precision nor below `cap_narrowing` of its width: the
    // layouts' medians differ by more than their rounds' noise explains, and
    // only more layouts could narrow that. Every layout read first.
    [[nodiscard]] bool out_of_reach(const Look& look, double wall_s) const;

    StoppingParameters parameters_;
    std::vector<RoundReading> rounds_;
    std::vector<double> earlier_machine_ms_;
    double measured_ms_ = 0.0;
    std::size_t next_check_ = 0;
    std::size_t clusters_ = 0;
    std::optional<StopReason> reason_;
    bool waited_for_quiet_ = false;
};

}  // namespace forge::bench
