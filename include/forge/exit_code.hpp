// Exit codes shared by the `forge` command and the benches (docs/reference/cli.md and
// cmake/README.md list them per command).
#pragma once

namespace forge::exit_code {

inline constexpr int ok = 0;
inline constexpr int problems = 1;  // prep or credit problems, a failed gate, a failed bench
inline constexpr int usage = 2;     // bad arguments, or an unreadable input other than the contract
// `forge credit --gate`: the raw ratio's interval straddles the gate, so the run
// can call it neither a pass nor a fail (CTest shows the gate test failed; its
// output says near-tie).
inline constexpr int near_tie = 3;
inline constexpr int refused = 13;  // a contract absent, malformed, undeclared or inconsistent
inline constexpr int skipped = 77;  // the bench did not run (no eval file, no device): CTest's skip

}  // namespace forge::exit_code
