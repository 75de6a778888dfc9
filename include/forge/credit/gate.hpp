// `forge credit --gate R`: whether the raw ratio clears a minimum, decided on
// its 95% interval so that a near-tie is never called a pass or a fail.
//
//     forge::gate_decision(0.9, 0.95, forge::RatioCi{0.92, 0.98});  // pass: the interval clears 0.9
//     forge::gate_decision(0.9, 0.85, forge::RatioCi{0.83, 0.88});  // fail: all of it is below 0.9
//     forge::gate_decision(0.9, 0.91, forge::RatioCi{0.88, 0.94});  // near_tie: it straddles 0.9
//     forge::gate_decision(0.9, 0.95, std::nullopt);                // pass, on the point estimate (older eval)
#pragma once

#include <optional>
#include <string>

#include "forge/eval/eval.hpp"

namespace forge {

enum class GateOutcome {
    pass,      // the interval's low end is at or above the gate
    fail,      // its high end is below the gate
    near_tie,  // it straddles the gate: the run cannot tell (exit_code::near_tie)
};

struct GateDecision {
    GateOutcome outcome = GateOutcome::fail;
    std::string message;  // one line for people: the ratio, the interval or its absence, the gate
};

// `ratio`: the run's raw ratio; `interval`: its ratio_ci, absent in an eval.json
// written before paired rounds, when the point estimate decides (pass at or
// above the gate) and the message says so.
[[nodiscard]] GateDecision gate_decision(double gate, double ratio, const std::optional<RatioCi>& interval);

}  // namespace forge
