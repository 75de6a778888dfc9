#define BOOST_TEST_MODULE credit_gate
#include <boost/test/unit_test.hpp>

#include <string>

#include "forge/credit/gate.hpp"

// `forge credit --gate R` decides on the raw ratio's interval; an eval.json from
// before paired rounds has none, and the point estimate decides, saying so.

namespace {

bool says(const forge::GateDecision& decision, const std::string& part) {
    if (decision.message.find(part) != std::string::npos) return true;
    BOOST_TEST_MESSAGE("'" << part << "' not in: " << decision.message);
    return false;
}

}  // namespace

BOOST_AUTO_TEST_CASE(an_interval_wholly_at_or_above_the_gate_passes) {
    const auto decision = forge::gate_decision(0.9, 0.95, forge::RatioCi{0.92, 0.98});
    BOOST_TEST((decision.outcome == forge::GateOutcome::pass));
    BOOST_TEST(says(decision, "raw ratio 0.95, 95% interval [0.92, 0.98] clears the gate 0.9"));
    BOOST_TEST((forge::gate_decision(0.9, 0.95, forge::RatioCi{0.9, 0.98}).outcome == forge::GateOutcome::pass));
}

BOOST_AUTO_TEST_CASE(an_interval_wholly_below_the_gate_fails) {
    const auto decision = forge::gate_decision(0.9, 0.85, forge::RatioCi{0.83, 0.88});
    BOOST_TEST((decision.outcome == forge::GateOutcome::fail));
    BOOST_TEST(says(decision, "[0.83, 0.88] is below the gate 0.9"));
}

BOOST_AUTO_TEST_CASE(an_interval_straddling_the_gate_is_a_near_tie_whatever_the_point_says) {
    for (const double point : {0.89, 0.91}) {
        const auto decision = forge::gate_decision(0.9, point, forge::RatioCi{0.88, 0.94});
        BOOST_TEST((decision.outcome == forge::GateOutcome::near_tie));
        BOOST_TEST(says(decision, "straddles the gate 0.9: a near-tie"));
    }
    // The high end at the gate is not below it.
    BOOST_TEST((forge::gate_decision(0.9, 0.89, forge::RatioCi{0.85, 0.9}).outcome == forge::GateOutcome::near_tie));
}

BOOST_AUTO_TEST_CASE(without_an_interval_the_point_estimate_decides_and_says_so) {
    const auto held = forge::gate_decision(0.8, 0.8, std::nullopt);
    BOOST_TEST((held.outcome == forge::GateOutcome::pass));
    BOOST_TEST(says(held, "raw ratio 0.8 clears the gate 0.8 (on the point estimate: this eval.json has no ratio_ci"));
    const auto failed = forge::gate_decision(0.9, 0.8, std::nullopt);
    BOOST_TEST((failed.outcome == forge::GateOutcome::fail));
    BOOST_TEST(says(failed, "is below the gate 0.9 (on the point estimate"));
}
