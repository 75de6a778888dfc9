// HOST tensors with poisoned guard bytes before and after their data, so a call
// that writes past the end (or before the start) of a tensor is caught rather
// than silently corrupting its neighbour or passing unnoticed.
#pragma once

#include <optional>
#include <string_view>

#include "forge/bench/tensor.hpp"

namespace forge::bench {

// A zero-filled host tensor between two guards; its data keeps the 64-byte
// alignment of every host tensor. The trailing guard starts at the tensor's last
// byte + 1, so even a one-element overrun lands in it.
[[nodiscard]] Tensor allocate_guarded(const TensorSpec& spec);

// "past the end of" or "before the start of" when a guard of a tensor made by
// allocate_guarded no longer holds its pattern; nullopt when both are intact.
[[nodiscard]] std::optional<std::string_view> damaged_guard(const Tensor& tensor);

}  // namespace forge::bench
