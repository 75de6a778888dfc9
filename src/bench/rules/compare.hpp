// Comparing one output against another by a Comparison (elementwise tolerance or
// relative L2 error), whatever its dtype.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "forge/bench/bench.hpp"
#include "forge/bench/tensor.hpp"

namespace forge::bench {

// What one comparison measured, and whether it held. Every figure is measured
// whichever comparison applies, so eval.json reports them all.
struct ComparisonResult {
    Comparison applied;             // what the output was held to
    double max_abs_error = 0.0;     // over finite elements
    double max_rel_error = 0.0;     // over finite elements whose expected value is not 0
    // ||actual - expected||_2 / ||expected||_2 over finite elements: 0 when they are
    // equal, +inf when only the expected is all zero.
    double relative_l2_error = 0.0;
    std::int64_t mismatches = 0;    // Tolerance: elements outside atol + rtol * |expected|, non-finite included
    std::int64_t first_mismatch = -1;
    std::int64_t non_finite = 0;    // elements where either side is NaN or Inf: never a pass
    std::int64_t first_non_finite = -1;
    std::string shape_problem;      // non-empty when the two cannot be compared element by element

    [[nodiscard]] bool passed() const noexcept;
    // Worst of both, for reporting one figure over several comparisons.
    void merge(const ComparisonResult& other);
    // Why it failed, the measured error against the threshold: "3 element(s) outside
    // atol 1e-05 + rtol 0.0001 * |reference| (max abs error 0.5, first at element 7)",
    // "relative L2 error 3.2e-05 above the threshold 1e-05 (...)". `expected` names
    // the expected side ("reference", "untimed call").
    [[nodiscard]] std::string failure(std::string_view expected) const;
};

// "elementwise" or "relative_l2", as eval.json names them.
[[nodiscard]] std::string_view comparison_name(const Comparison& comparison) noexcept;

// Calls part(i) once for every i in [0, parts), perhaps on several threads at
// once, and returns when all have returned (HOST: its flush's threads).
using RunParts = std::function<void(std::size_t, const std::function<void(std::size_t)>&)>;

// Both host tensors. `actual` is held to `expected`, in parts on `run_parts`
// where given (else on this thread): the same figures either way.
[[nodiscard]] ComparisonResult compare(const Tensor& actual, const Tensor& expected, const Comparison& comparison,
                                       const RunParts& run_parts = {});

// Both host tensors hold the same shape, dtype and bytes: a timed call that
// repeated its untimed call exactly, told apart in a memcmp instead of an
// elementwise pass over every value.
[[nodiscard]] bool identical(const Tensor& actual, const Tensor& expected) noexcept;

// How many elements of a host tensor hold `fill` in every byte: an output's
// elements a call never wrote, where the harness filled it with `fill` first.
[[nodiscard]] std::int64_t elements_filled_with(const Tensor& tensor, unsigned char fill) noexcept;

// A 64-bit digest of a host tensor's bytes: equal contents, equal digest.
[[nodiscard]] std::uint64_t checksum(const Tensor& tensor) noexcept;

}  // namespace forge::bench
