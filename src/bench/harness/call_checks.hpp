// What the harness checks of a side's calls: the untimed calls' outputs against
// the other side's (the correctness verdict) and against the poison left in
// them, and every checked call's outputs against the side's own untimed call,
// its guards, its prep tensors and inputs kept read-only, its C regions paired.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "harness/findings.hpp"
#include "harness/run_state.hpp"
#include "harness/side_state.hpp"
#include "harness/workload_tensors.hpp"
#include "results/record.hpp"

namespace forge::bench {

// A checked call, as its problem names it: `before` number `after`
// ("timed call (eval.json rounds[12])").
struct CheckedCall {
    std::string_view before;
    std::size_t number = 0;
    std::string_view after;

    [[nodiscard]] std::string text() const { return std::string(before) + std::to_string(number) + std::string(after); }
};

// One untimed call per side on input variant v, its outputs poisoned first; the
// outputs both sides produce are compared (the run's `outputs`), and each
// side's kept to check its timed calls against.
void check_untimed_calls(RunState run, WorkloadTensors& tensors, SideStates& states, Findings& findings,
                         std::vector<OutputCheck>& outputs, int variant);

// A call that wrote outside its own tensors (HOST: the poisoned guards around
// each one changed) fails the run: the bytes it hit may be anyone's.
void check_guards(Runtime& runtime, const SideState& state, const Findings& findings);

// A timed, pipelined or profiled call's outputs against the side's own untimed
// call on the same inputs, then its guards and prep tensors. `calls` > 1: the
// calls ran back to back on one load, so accumulating outputs hold that many
// contributions and are not compared.
void check_timed_outputs(RunState run, WorkloadTensors& tensors, SideState& state, Findings& findings, int variant,
                         const CheckedCall& which, int calls = 1);

// After a fresh round (fresh_inputs.hpp, round `round` of eval.json's), the
// student's timed outputs against the reference's on the same fresh inputs, to
// the declared tolerance: the first that differs is a problem, and every
// comparison counts in the output's errors (`outputs`) as an untimed one's does.
void check_fresh_outputs(RunState run, const WorkloadTensors& tensors, SideStates& states, Findings& findings,
                         std::vector<OutputCheck>& outputs, std::size_t round);

}  // namespace forge::bench
