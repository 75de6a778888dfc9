#include "compare.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

namespace forge::bench {

namespace {

// Element i of a host tensor as a double.
double element(const Tensor& tensor, std::size_t i) {
    switch (tensor.dtype()) {
        case DType::fp64: return tensor.data<double>()[i];
        case DType::fp32: return tensor.data<float>()[i];
        case DType::fp16: return to_float(tensor.data<float16>()[i]);
        case DType::bf16: return to_float(tensor.data<bfloat16>()[i]);
        case DType::i64: return static_cast<double>(tensor.data<std::int64_t>()[i]);
        case DType::i32: return tensor.data<std::int32_t>()[i];
        case DType::i16: return tensor.data<std::int16_t>()[i];
        case DType::i8: return tensor.data<std::int8_t>()[i];
        case DType::u8: return tensor.data<std::uint8_t>()[i];
        case DType::boolean: return tensor.data<bool>()[i] ? 1.0 : 0.0;
    }
    return 0.0;
}

std::string describe(const Tensor& tensor) {
    std::string text = std::string(to_string(tensor.dtype())) + " [";
    for (std::size_t i = 0; i < tensor.shape().size(); ++i) {
        text += (i > 0 ? ", " : "") + std::to_string(tensor.shape()[i]);
    }
    return text + "]";
}

}  // namespace

void Comparison::merge(const Comparison& other) {
    max_abs_error = std::max(max_abs_error, other.max_abs_error);
    max_rel_error = std::max(max_rel_error, other.max_rel_error);
    if (mismatches == 0) first_mismatch = other.first_mismatch;
    mismatches += other.mismatches;
    if (shape_problem.empty()) shape_problem = other.shape_problem;
}

Comparison compare(const Tensor& actual, const Tensor& expected, Tolerance tolerance) {
    Comparison result;
    if (actual.shape() != expected.shape() || actual.dtype() != expected.dtype()) {
        result.shape_problem = "got " + describe(actual) + ", expected " + describe(expected);
        return result;
    }
    const auto n = static_cast<std::size_t>(actual.numel());
    for (std::size_t i = 0; i < n; ++i) {
        const double got = element(actual, i);
        const double want = element(expected, i);
        const double error = std::abs(got - want);
        const bool within = error <= tolerance.atol + tolerance.rtol * std::abs(want);  // false for NaN
        if (!within) {
            if (result.mismatches == 0) result.first_mismatch = static_cast<std::int64_t>(i);
            ++result.mismatches;
        }
        if (std::isnan(error)) continue;  // counted as a mismatch; the error figures stay numbers
        result.max_abs_error = std::max(result.max_abs_error, error);
        if (want != 0.0) result.max_rel_error = std::max(result.max_rel_error, error / std::abs(want));
    }
    return result;
}

std::uint64_t checksum(const Tensor& tensor) noexcept {
    // FNV-1a over 8-byte words (then the tail), with a final avalanche.
    std::uint64_t hash = 0xCBF29CE484222325ULL;
    const std::byte* bytes = tensor.raw();
    const std::size_t size = tensor.bytes();
    std::size_t i = 0;
    for (; i + 8 <= size; i += 8) {
        std::uint64_t word = 0;
        std::memcpy(&word, bytes + i, 8);
        hash = (hash ^ word) * 0x100000001B3ULL;
    }
    for (; i < size; ++i) hash = (hash ^ static_cast<std::uint64_t>(bytes[i])) * 0x100000001B3ULL;
    hash ^= hash >> 33;
    hash *= 0xFF51AFD7ED558CCDULL;
    return hash ^ (hash >> 33);
}

}  // namespace forge::bench
