// Tensors with poisoned guard bytes before and after their data, so a call that
// writes past the end (or before the start) of a tensor is caught rather than
// silently corrupting its neighbour or passing unnoticed. One layout for host and
// device memory; the CUDA backend keeps its guards in device memory.
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string_view>

#include "forge/bench/tensor.hpp"

namespace forge::bench {

// Each guard's size: larger than any one element or vector store, so a short
// overrun never skips over the guard; a multiple of every alignment the backends
// give data (64 bytes on HOST, 256 for cudaMalloc), so the data keeps it.
inline constexpr std::size_t guard_bytes = 256;

// One guarded allocation: [leading guard][data][trailing guard]. The trailing
// guard starts at the data's last byte + 1, so even a one-element overrun lands
// in it, and runs at least guard_bytes to the next 64-byte boundary.
struct GuardLayout {
    explicit GuardLayout(std::size_t data_bytes) noexcept;

    std::size_t data_bytes;
    std::size_t trailing_offset;  // from the start of the allocation
    std::size_t total_bytes;

    [[nodiscard]] std::size_t trailing_bytes() const noexcept { return total_bytes - trailing_offset; }
};

// The pattern of one allocation's guard bytes. It varies with the position, so a
// call that writes one constant over a guard cannot leave it looking intact; it
// reads as NaN in every float dtype, so a side that reads past an input's end (a
// shape declared short) fails the comparison. Each allocation takes the next of 16
// variants, so one side's copy of a tensor and the other side's differ: sides that
// read integers past an end read different values and disagree, where one pattern
// had them agree on the same garbage. The first two bytes of a leading guard say
// its variant, so a checker needs nothing but the memory.
class GuardPattern {
public:
    [[nodiscard]] static GuardPattern next() noexcept;  // for a new allocation
    // The variant a leading guard was written with (an empty span reads as variant 0).
    [[nodiscard]] static GuardPattern of_leading_guard(std::span<const std::byte> leading) noexcept;

    // The guard bytes that start at `offset` in the allocation.
    void write(std::span<std::byte> guard, std::size_t offset) const noexcept;
    [[nodiscard]] bool holds(std::span<const std::byte> guard, std::size_t offset) const noexcept;

private:
    explicit GuardPattern(unsigned variant) noexcept : variant_(variant % 16U) {}
    [[nodiscard]] std::byte at(std::size_t offset) const noexcept;

    unsigned variant_;
};

// A zero-filled host tensor between two guards, its data 64-byte aligned.
[[nodiscard]] Tensor allocate_guarded(const TensorSpec& spec);

// "past the end of" or "before the start of" when a guard of a tensor made by
// allocate_guarded no longer holds its pattern; nullopt when both are intact.
[[nodiscard]] std::optional<std::string_view> damaged_guard(const Tensor& tensor);

}  // namespace forge::bench
