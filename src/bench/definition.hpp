// A card's Bench as the harness reads it. bench.hpp is the card's API (it builds
// a Bench); what the harness needs to run one (the calls, the workloads, the
// per-output comparisons, why a definition cannot run) is read here, so no card
// depends on it. A view: the Bench outlives it.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "forge/bench/bench.hpp"

namespace forge::bench {

class BenchDefinition {
public:
    BenchDefinition(const Bench& bench) noexcept : bench_(&bench) {}  // NOLINT(google-explicit-constructor): a view

    [[nodiscard]] Backend backend() const noexcept { return bench_->backend_; }
    [[nodiscard]] const std::vector<Workload>& workloads() const noexcept { return bench_->workloads_; }
    [[nodiscard]] const MakeInputs& make_inputs() const noexcept { return bench_->inputs_; }
    [[nodiscard]] const DeclareOutputs& declare_outputs() const noexcept { return bench_->outputs_; }
    [[nodiscard]] const Call& call(Side side) const noexcept {
        return side == Side::reference ? bench_->reference_ : bench_->student_;
    }
    [[nodiscard]] const Prep& prep_step() const noexcept { return bench_->prep_; }
    [[nodiscard]] const DeclareWork& declare_work() const noexcept { return bench_->work_; }
    [[nodiscard]] const detail::SideSetup& side_setup(Side side) const noexcept {
        return side == Side::reference ? bench_->reference_setup_ : bench_->student_setup_;
    }
    [[nodiscard]] std::optional<double> precision() const noexcept { return bench_->precision_; }
    // The accumulating outputs and how each starts (an empty function: zero).
    [[nodiscard]] const std::map<std::string, OutputStart, std::less<>>& accumulating_outputs() const noexcept {
        return bench_->accumulating_;
    }

    // The output's own comparison, else its dtype's tolerance, else default_tolerance.
    [[nodiscard]] Comparison comparison_for(const TensorSpec& output) const;
    // Why this definition cannot run (too few workloads, a missing call, ...); empty when it can.
    [[nodiscard]] std::vector<std::string> problems() const;

    // A copy of `bench` whose two timed sides are both `side`: its call and its
    // setup on both, the rest (workloads, inputs, outputs, prep, tolerances) as is.
    [[nodiscard]] static Bench against_itself(const Bench& bench, Side side);

private:
    const Bench* bench_;
};

}  // namespace forge::bench
