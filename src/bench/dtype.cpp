#include "forge/bench/dtype.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <string>
#include <utility>

#include "forge/prep/dtype.hpp"

namespace forge::bench {

namespace {

constexpr std::array all_dtypes{DType::fp64, DType::fp32, DType::fp16, DType::bf16, DType::i64,
                                DType::i32,  DType::i16,  DType::i8,   DType::u8,   DType::boolean};

}  // namespace

std::string_view to_string(DType dtype) noexcept {
    switch (dtype) {
        case DType::fp64: return "fp64";
        case DType::fp32: return "fp32";
        case DType::fp16: return "fp16";
        case DType::bf16: return "bf16";
        case DType::i64: return "i64";
        case DType::i32: return "i32";
        case DType::i16: return "i16";
        case DType::i8: return "i8";
        case DType::u8: return "u8";
        case DType::boolean: return "bool";
    }
    return "?";
}

std::optional<DType> dtype_from_string(std::string_view text) noexcept {
    // The contract's spellings (torch.bfloat16, bfloat16, bf16, ...), as the prep check reads them.
    const std::string canonical = normalize_dtype(nlohmann::json(std::string{text}));
    const auto found = std::find_if(all_dtypes.begin(), all_dtypes.end(),
                                    [&](DType dtype) { return to_string(dtype) == canonical; });
    if (found == all_dtypes.end()) return std::nullopt;
    return *found;
}

std::size_t size_of(DType dtype) noexcept {
    switch (dtype) {
        case DType::fp64:
        case DType::i64: return 8;
        case DType::fp32:
        case DType::i32: return 4;
        case DType::fp16:
        case DType::bf16:
        case DType::i16: return 2;
        case DType::i8:
        case DType::u8:
        case DType::boolean: return 1;
    }
    return 1;
}

bool is_floating(DType dtype) noexcept {
    return dtype == DType::fp64 || dtype == DType::fp32 || dtype == DType::fp16 || dtype == DType::bf16;
}

float to_float(bfloat16 value) noexcept {
    return std::bit_cast<float>(static_cast<std::uint32_t>(value.bits) << 16);
}

bfloat16 to_bfloat16(float value) noexcept {
    const auto bits = std::bit_cast<std::uint32_t>(value);
    if (std::isnan(value)) return bfloat16{static_cast<std::uint16_t>((bits >> 16) | 0x40)};  // stay NaN
    const std::uint32_t rounding = 0x7FFF + ((bits >> 16) & 1);
    return bfloat16{static_cast<std::uint16_t>((bits + rounding) >> 16)};
}

float to_float(float16 value) noexcept {
    const std::uint32_t sign = static_cast<std::uint32_t>(value.bits & 0x8000) << 16;
    const std::uint32_t exponent = (value.bits >> 10) & 0x1F;
    std::uint32_t mantissa = value.bits & 0x3FF;
    if (exponent == 0x1F) {  // inf / NaN
        return std::bit_cast<float>(sign | 0x7F800000U | (mantissa << 13));
    }
    if (exponent == 0) {
        if (mantissa == 0) return std::bit_cast<float>(sign);
        // Subnormal: value = mantissa * 2^-24.
        const float magnitude = std::ldexp(static_cast<float>(mantissa), -24);
        return sign != 0 ? -magnitude : magnitude;
    }
    return std::bit_cast<float>(sign | ((exponent + 112) << 23) | (mantissa << 13));
}

float16 to_float16(float value) noexcept {
    const auto bits = std::bit_cast<std::uint32_t>(value);
    const auto sign = static_cast<std::uint16_t>((bits >> 16) & 0x8000);
    const float magnitude = std::fabs(value);
    if (std::isnan(value)) return float16{static_cast<std::uint16_t>(sign | 0x7E00)};
    if (magnitude >= 65520.0F) return float16{static_cast<std::uint16_t>(sign | 0x7C00)};  // rounds to inf
    if (magnitude < 6.103515625e-05F) {
        // Subnormal (or zero): units of 2^-24, rounded to nearest even by nearbyint.
        const auto units = static_cast<std::uint16_t>(std::nearbyint(std::ldexp(magnitude, 24)));
        return float16{static_cast<std::uint16_t>(sign | units)};
    }
    const std::uint32_t abs_bits = bits & 0x7FFFFFFFU;
    // Rebias the exponent (127 -> 15) and round the 23-bit mantissa to 10 bits, nearest even.
    const std::uint32_t rounding = 0xFFF + ((abs_bits >> 13) & 1);
    const std::uint32_t rounded = abs_bits + rounding;
    return float16{static_cast<std::uint16_t>(sign | ((rounded >> 13) - (112U << 10)))};
}

}  // namespace forge::bench
