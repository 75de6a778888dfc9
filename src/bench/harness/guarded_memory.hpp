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

// The pattern of the guard bytes that start at `offset` in an allocation. It
// varies with the position, so a call that writes one constant over a guard
// cannot leave it looking intact.
void write_guard_pattern(std::span<std::byte> guard, std::size_t offset) noexcept;
[[nodiscard]] bool holds_guard_pattern(std::span<const std::byte> guard, std::size_t offset) noexcept;

// A zero-filled host tensor between two guards, its data 64-byte aligned.
[[nodiscard]] Tensor allocate_guarded(const TensorSpec& spec);

// "past the end of" or "before the start of" when a guard of a tensor made by
// allocate_guarded no longer holds its pattern; nullopt when both are intact.
[[nodiscard]] std::optional<std::string_view> damaged_guard(const Tensor& tensor);

}  // namespace forge::bench
