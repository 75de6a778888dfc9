// Comparing one output against another within a tolerance, whatever its dtype.
#pragma once

#include <cstdint>
#include <string>

#include "forge/bench/bench.hpp"
#include "forge/bench/tensor.hpp"

namespace forge::bench {

struct Comparison {
    double max_abs_error = 0.0;
    double max_rel_error = 0.0;     // over elements whose expected value is not 0
    std::int64_t mismatches = 0;    // elements outside atol + rtol * |expected|, NaN included
    std::int64_t first_mismatch = -1;
    std::string shape_problem;      // non-empty when the two cannot be compared element by element

    [[nodiscard]] bool passed() const noexcept { return shape_problem.empty() && mismatches == 0; }
    // Worst of both, for reporting one figure over several comparisons.
    void merge(const Comparison& other);
};

// Both host tensors. `actual` is held to `expected`.
[[nodiscard]] Comparison compare(const Tensor& actual, const Tensor& expected, Tolerance tolerance);

// A 64-bit digest of a host tensor's bytes: equal contents, equal digest.
[[nodiscard]] std::uint64_t checksum(const Tensor& tensor) noexcept;

}  // namespace forge::bench
