#include "rules/compare.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <sstream>
#include <type_traits>
#include <variant>
#include <vector>

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

// Squares of magnitudes up to 2^480 (down to 2^-480) summed over up to 2^63
// elements stay normal doubles; outside that range (fp64 only) the sums are taken
// over values divided by the largest magnitude, so they neither overflow nor
// underflow.
constexpr double largest_unscaled = 0x1p480;
constexpr double smallest_unscaled = 0x1p-480;

// ||d|| / ||e|| from the sums of squares: 0 when d is all zero (even when e is), +inf
// when only e is.
double relative_l2(double diff_squares, double expected_squares) {
    if (diff_squares == 0.0) return 0.0;
    if (expected_squares == 0.0) return std::numeric_limits<double>::infinity();
    return std::sqrt(diff_squares) / std::sqrt(expected_squares);
}

// What a range of elements measured: its figures, merged in order into the
// whole's (ComparisonResult::merge keeps the earliest first failures), and
// the sums the relative L2 error is taken from once all parts are in.
struct Partial {
    ComparisonResult figures;
    double diff_squares = 0.0;
    double expected_squares = 0.0;
    double largest = 0.0;  // the largest finite magnitude on either side
};

// A comparison's parts: about 128 Ki elements each, at most 16. The cut
// depends on the element count alone, so the sums (added part by part) come
// out the same bits however many threads ran the parts.
constexpr std::size_t part_elements = std::size_t{1} << 17;
constexpr std::size_t most_parts = 16;

template <class T>
Partial compare_range(const T* got_values, const T* want_values, std::size_t begin, std::size_t end,
                      const Tolerance* tolerance) {
    Partial out;
    for (std::size_t i = begin; i < end; ++i) {
        const double got = as_double(got_values[i]);
        const double want = as_double(want_values[i]);
        const double error = std::abs(got - want);
        const bool finite = std::isfinite(got) && std::isfinite(want);
        if (!finite) {
            if (out.figures.non_finite == 0) out.figures.first_non_finite = static_cast<std::int64_t>(i);
            ++out.figures.non_finite;
        }
        // Non-finite never within: an Inf reference would admit anything under rtol > 0.
        if (tolerance != nullptr && !(finite && error <= tolerance->atol + tolerance->rtol * std::abs(want))) {
            if (out.figures.mismatches == 0) out.figures.first_mismatch = static_cast<std::int64_t>(i);
            ++out.figures.mismatches;
        }
        if (!finite) continue;  // a failure already; the error figures stay numbers
        out.figures.max_abs_error = std::max(out.figures.max_abs_error, error);
        if (want != 0.0) out.figures.max_rel_error = std::max(out.figures.max_rel_error, error / std::abs(want));
        out.diff_squares += error * error;
        out.expected_squares += want * want;
        out.largest = std::max({out.largest, std::abs(got), std::abs(want)});
    }
    return out;
}

// One typed loop per dtype, its parts on `run_parts`: the harness checks
// every fresh round's outputs elementwise.
template <class T>
void compare_elements(const Tensor& actual, const Tensor& expected, const RunParts& run_parts,
                      ComparisonResult& result) {
    static_assert(sizeof(T) <= 8 && std::is_trivially_copyable_v<T>);
    const auto* got_values = reinterpret_cast<const T*>(actual.raw());
    const auto* want_values = reinterpret_cast<const T*>(expected.raw());
    const auto n = static_cast<std::size_t>(actual.numel());
    const Tolerance* tolerance = std::get_if<Tolerance>(&result.applied);
    const std::size_t parts = std::clamp<std::size_t>(n / part_elements, 1, most_parts);
    std::vector<Partial> partials(parts);
    const std::function<void(std::size_t)> part = [&](std::size_t p) {
        partials[p] = compare_range(got_values, want_values, n * p / parts, n * (p + 1) / parts, tolerance);
    };
    if (run_parts && parts > 1) {
        run_parts(parts, part);
    } else {
        for (std::size_t p = 0; p < parts; ++p) part(p);
    }
    double diff_squares = 0.0;
    double expected_squares = 0.0;
    double largest = 0.0;
    for (const Partial& partial : partials) {
        result.merge(partial.figures);
        diff_squares += partial.diff_squares;
        expected_squares += partial.expected_squares;
        largest = std::max(largest, partial.largest);
    }
    if (largest > largest_unscaled || (largest > 0.0 && largest < smallest_unscaled)) {
        diff_squares = 0.0;
        expected_squares = 0.0;
        for (std::size_t i = 0; i < n; ++i) {
            const double got = as_double(got_values[i]);
            const double want = as_double(want_values[i]);
            if (!std::isfinite(got) || !std::isfinite(want)) continue;
            const double error = got / largest - want / largest;
            diff_squares += error * error;
            expected_squares += (want / largest) * (want / largest);
        }
    }
    result.relative_l2_error = relative_l2(diff_squares, expected_squares);
}

std::string describe(const Tensor& tensor) {
    std::string text = std::string(to_string(tensor.dtype())) + " [";
    for (std::size_t i = 0; i < tensor.shape().size(); ++i) {
        text += (i > 0 ? ", " : "") + std::to_string(tensor.shape()[i]);
    }
    return text + "]";
}

}  // namespace

bool ComparisonResult::passed() const noexcept {
    if (!shape_problem.empty() || non_finite > 0) return false;
    if (const auto* l2 = std::get_if<RelativeL2>(&applied)) return relative_l2_error <= l2->max;
    return mismatches == 0;
}

void ComparisonResult::merge(const ComparisonResult& other) {
    max_abs_error = std::max(max_abs_error, other.max_abs_error);
    max_rel_error = std::max(max_rel_error, other.max_rel_error);
    relative_l2_error = std::max(relative_l2_error, other.relative_l2_error);
    if (mismatches == 0) first_mismatch = other.first_mismatch;
    mismatches += other.mismatches;
    if (non_finite == 0) first_non_finite = other.first_non_finite;
    non_finite += other.non_finite;
    if (shape_problem.empty()) shape_problem = other.shape_problem;
}

std::string ComparisonResult::failure(std::string_view expected) const {
    if (!shape_problem.empty()) return shape_problem;
    std::ostringstream text;
    const auto errors = [&] { text << "max abs error " << max_abs_error << ", max rel error " << max_rel_error; };
    if (const auto* tolerance = std::get_if<Tolerance>(&applied)) {
        text << mismatches << " element(s) outside atol " << tolerance->atol << " + rtol " << tolerance->rtol
             << " * |" << expected << "| (";
        if (non_finite > 0) text << non_finite << " of them NaN or infinite, ";
        errors();
        text << ", relative L2 error " << relative_l2_error << ", first at element " << first_mismatch << ")";
        return text.str();
    }
    const double threshold = std::get<RelativeL2>(applied).max;
    if (non_finite > 0) {
        text << non_finite << " element(s) NaN or infinite (first at element " << first_non_finite
             << "), which never pass a relative L2 comparison (";
        errors();
        text << " over the finite ones)";
        return text.str();
    }
    text << "relative L2 error ";
    if (std::isinf(relative_l2_error)) text << "infinite (the " << expected << " is all zero, this output is not)";
    else text << relative_l2_error;
    text << " above the threshold " << threshold << " (";
    errors();
    text << ")";
    return text.str();
}

std::string_view comparison_name(const Comparison& comparison) noexcept {
    return std::holds_alternative<RelativeL2>(comparison) ? "relative_l2" : "elementwise";
}

ComparisonResult compare(const Tensor& actual, const Tensor& expected, const Comparison& comparison,
                         const RunParts& run_parts) {
    ComparisonResult result;
    result.applied = comparison;
    if (actual.shape() != expected.shape() || actual.dtype() != expected.dtype()) {
        result.shape_problem = "got " + describe(actual) + ", expected " + describe(expected);
        return result;
    }
    switch (actual.dtype()) {
        case DType::fp64: compare_elements<double>(actual, expected, run_parts, result); break;
        case DType::fp32: compare_elements<float>(actual, expected, run_parts, result); break;
        case DType::fp16: compare_elements<float16>(actual, expected, run_parts, result); break;
        case DType::bf16: compare_elements<bfloat16>(actual, expected, run_parts, result); break;
        case DType::i64: compare_elements<std::int64_t>(actual, expected, run_parts, result); break;
        case DType::i32: compare_elements<std::int32_t>(actual, expected, run_parts, result); break;
        case DType::i16: compare_elements<std::int16_t>(actual, expected, run_parts, result); break;
        case DType::i8: compare_elements<std::int8_t>(actual, expected, run_parts, result); break;
        case DType::u8: compare_elements<std::uint8_t>(actual, expected, run_parts, result); break;
        case DType::boolean: compare_elements<TruthByte>(actual, expected, run_parts, result); break;
    }
    return result;
}

bool identical(const Tensor& actual, const Tensor& expected) noexcept {
    return actual.shape() == expected.shape() && actual.dtype() == expected.dtype() &&
           actual.bytes() == expected.bytes() && std::memcmp(actual.raw(), expected.raw(), actual.bytes()) == 0;
}

std::int64_t elements_filled_with(const Tensor& tensor, unsigned char fill) noexcept {
    const std::size_t element = size_of(tensor.dtype());
    const auto* bytes = reinterpret_cast<const unsigned char*>(tensor.raw());
    std::int64_t filled = 0;
    for (std::size_t at = 0; at + element <= tensor.bytes(); at += element) {
        filled += std::all_of(bytes + at, bytes + at + element, [fill](unsigned char b) { return b == fill; });
    }
    return filled;
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
