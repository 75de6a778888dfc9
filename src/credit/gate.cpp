#include "forge/credit/gate.hpp"

#include <cstdio>

namespace forge {

namespace {

std::string figure(double x) {
    char text[32];
    std::snprintf(text, sizeof text, "%.4g", x);
    return text;
}

}  // namespace

GateDecision gate_decision(double gate, double ratio, const std::optional<RatioCi>& interval) {
    const std::string at = "the gate " + figure(gate);
    if (!interval) {
        const bool held = ratio >= gate;
        return {held ? GateOutcome::pass : GateOutcome::fail,
                "raw ratio " + figure(ratio) + (held ? " clears " : " is below ") + at +
                    " (on the point estimate: this eval.json has no ratio_ci, it was written by a bench from before "
                    "paired rounds; rebuild and rerun the bench for a decision on the interval)"};
    }
    const std::string shown =
        "raw ratio " + figure(ratio) + ", 95% interval [" + figure(interval->low) + ", " + figure(interval->high) + "]";
    if (interval->low >= gate) return {GateOutcome::pass, shown + " clears " + at};
    if (interval->high < gate) return {GateOutcome::fail, shown + " is below " + at};
    return {GateOutcome::near_tie,
            shown + " straddles " + at + ": a near-tie, neither a pass nor a fail (rerun with a tighter precision "
                                         "target, or on a quieter machine, to decide)"};
}

}  // namespace forge
