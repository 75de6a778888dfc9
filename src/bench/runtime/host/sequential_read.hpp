// A read of memory as fast as the machine allows: what the memory ceiling
// (memory_bandwidth.hpp) and the rounds' memory calibration (calibration.hpp)
// time. Their figures follow the memory only when this loop waits on it, so it
// is optimised in every build type and left out of the sanitizers
// (src/bench/CMakeLists.txt): at a Debug build's -O0 it ran at half the
// memory's speed (a sixth or less under ASan) and read the same beside a
// memory-bandwidth neighbour as without one (docs/lab/README.md, "The memory
// calibration in a Debug build").
#pragma once

#include <cstddef>
#include <cstdint>

namespace forge::bench {

// The sum of `count` words, read in order; the caller sinks it (volatile) so
// the read is not optimised away. Reads only [words, words + count).
[[nodiscard]] std::uint64_t read_words(const std::uint64_t* words, std::size_t count) noexcept;

}  // namespace forge::bench
