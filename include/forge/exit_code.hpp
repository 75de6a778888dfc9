// Exit codes shared by the `forge` command and the benches (README.md and
// cmake/README.md list them per command).
#pragma once

namespace forge::exit_code {

inline constexpr int ok = 0;
inline constexpr int problems = 1;  // prep problems, a failed gate, a failed bench
inline constexpr int usage = 2;     // bad arguments, or an unreadable input other than the contract
inline constexpr int refused = 13;  // a contract absent, malformed, undeclared or inconsistent
inline constexpr int skipped = 77;  // the bench did not run (no eval file, no device): CTest's skip

}  // namespace forge::exit_code
