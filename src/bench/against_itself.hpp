// The A/A run: one side timed against itself (`BENCH --a-a reference`). Both
// timed sides run that side's call and setup on that side's declared tensors,
// so the ratio's true value is 1, and how far the run reads from it is the
// card's own noise floor at its settings (rules/noise_floor.hpp).
#pragma once

#include "forge/bench/bench.hpp"
#include "forge/contract/contract.hpp"

namespace forge::bench {

struct AgainstItself {
    Bench bench;
    // Both sides' windows, inputs and outputs are `side`'s; no asymmetry, since
    // nothing crosses one window and not the other. Its path and digest stay
    // those of the card's window.toml the run comes from.
    WindowContract contract;
};

[[nodiscard]] AgainstItself against_itself(const Bench& bench, const WindowContract& contract, Side side);

}  // namespace forge::bench
