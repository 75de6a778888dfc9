// Element types of the tensors a bench hands its calls, named the way window.toml
// and eval.json name them (the Python oracle's normalize_dtype spelling: fp32, bf16, ...).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace forge::bench {

enum class DType { fp64, fp32, fp16, bf16, i64, i32, i16, i8, u8, boolean };

// "fp64", "fp32", "fp16", "bf16", "i64", "i32", "i16", "i8", "u8", "bool".
[[nodiscard]] std::string_view to_string(DType dtype) noexcept;
// Accepts every alias the contract accepts ("float32", "torch.bfloat16", "half", ...).
[[nodiscard]] std::optional<DType> dtype_from_string(std::string_view text) noexcept;
[[nodiscard]] std::size_t size_of(DType dtype) noexcept;
[[nodiscard]] bool is_floating(DType dtype) noexcept;

// Host storage for the 16-bit float types (bit patterns; the harness compares them
// as floats). On the device a kernel reads the same bytes as __half / __nv_bfloat16.
struct float16 {
    std::uint16_t bits = 0;
};
struct bfloat16 {
    std::uint16_t bits = 0;
};

[[nodiscard]] float to_float(float16 value) noexcept;
[[nodiscard]] float to_float(bfloat16 value) noexcept;
[[nodiscard]] float16 to_float16(float value) noexcept;    // round to nearest even
[[nodiscard]] bfloat16 to_bfloat16(float value) noexcept;  // round to nearest even

// The dtype a C++ element type stands for; empty for types the harness does not
// know (e.g. __nv_bfloat16), which are then only checked for size.
template <class T>
inline constexpr std::optional<DType> dtype_of = std::nullopt;
template <> inline constexpr std::optional<DType> dtype_of<double> = DType::fp64;
template <> inline constexpr std::optional<DType> dtype_of<float> = DType::fp32;
template <> inline constexpr std::optional<DType> dtype_of<float16> = DType::fp16;
template <> inline constexpr std::optional<DType> dtype_of<bfloat16> = DType::bf16;
template <> inline constexpr std::optional<DType> dtype_of<std::int64_t> = DType::i64;
template <> inline constexpr std::optional<DType> dtype_of<std::int32_t> = DType::i32;
template <> inline constexpr std::optional<DType> dtype_of<std::int16_t> = DType::i16;
template <> inline constexpr std::optional<DType> dtype_of<std::int8_t> = DType::i8;
template <> inline constexpr std::optional<DType> dtype_of<std::uint8_t> = DType::u8;
template <> inline constexpr std::optional<DType> dtype_of<bool> = DType::boolean;

}  // namespace forge::bench
