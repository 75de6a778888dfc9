#include "compare.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <type_traits>

namespace forge::bench {

namespace {

double as_double(double v) { return v; }
double as_double(float v) { return v; }
double as_double(float16 v) { return to_float(v); }
double as_double(bfloat16 v) { return to_float(v); }
// A bool tensor is read as bytes: a poisoned (0xFF) byte is not a valid bool.
struct TruthByte {
    std::uint8_t byte;
};
double as_double(TruthByte v) { return v.byte != 0 ? 1.0 : 0.0; }
template <class T>
double as_double(T v) {
    return static_cast<double>(v);
}

// One typed loop per dtype: the harness checks every timed call's outputs.
template <class T>
void compare_elements(const Tensor& actual, const Tensor& expected, Tolerance tolerance, Comparison& result) {
    static_assert(sizeof(T) <= 8 && std::is_trivially_copyable_v<T>);
    const auto* got_values = reinterpret_cast<const T*>(actual.raw());
    const auto* want_values = reinterpret_cast<const T*>(expected.raw());
    const auto n = static_cast<std::size_t>(actual.numel());
    for (std::size_t i = 0; i < n; ++i) {
        const double got = as_double(got_values[i]);
        const double want = as_double(want_values[i]);
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
    switch (actual.dtype()) {
        case DType::fp64: compare_elements<double>(actual, expected, tolerance, result); break;
        case DType::fp32: compare_elements<float>(actual, expected, tolerance, result); break;
        case DType::fp16: compare_elements<float16>(actual, expected, tolerance, result); break;
        case DType::bf16: compare_elements<bfloat16>(actual, expected, tolerance, result); break;
        case DType::i64: compare_elements<std::int64_t>(actual, expected, tolerance, result); break;
        case DType::i32: compare_elements<std::int32_t>(actual, expected, tolerance, result); break;
        case DType::i16: compare_elements<std::int16_t>(actual, expected, tolerance, result); break;
        case DType::i8: compare_elements<std::int8_t>(actual, expected, tolerance, result); break;
        case DType::u8: compare_elements<std::uint8_t>(actual, expected, tolerance, result); break;
        case DType::boolean: compare_elements<TruthByte>(actual, expected, tolerance, result); break;
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
