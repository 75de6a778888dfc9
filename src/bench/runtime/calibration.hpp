// Fixed work timed between rounds, whose time follows the machine's state: the
// core's clock and share (a chain of arithmetic) and the memory bandwidth the
// neighbours leave (a sequential read). rules/drift.hpp judges the readings.
#pragma once

#include <cstddef>
#include <memory>

namespace forge::bench {

// One calibration: milliseconds of a fixed, dependent chain of arithmetic
// (about 20 us on a current core), by the HOST clock.
[[nodiscard]] double time_calibration_ms();

// What one memory calibration reads: its time gives the bandwidth the memory
// gave it (rules/physical_floor.hpp).
inline constexpr std::size_t memory_calibration_bytes = std::size_t{8} << 20;

// The memory side of the machine's state: a sequential read of 8 MiB of its
// own, its lines evicted first so it is read from memory, whose time follows
// the memory bandwidth the neighbours leave this core. Not left to the rounds'
// sweeps: a last-level cache that keeps lines by their use kept the buffer
// after some of them, and those faster readings made the rounds around the
// others look busy.
class MemoryCalibration {
public:
    MemoryCalibration();
    [[nodiscard]] double time_ms() const;

private:
    struct Release {
        void operator()(std::byte* p) const noexcept;
    };
    std::unique_ptr<std::byte, Release> buffer_;  // off the heap the sides' calls use (host_memory.hpp)
};

}  // namespace forge::bench
