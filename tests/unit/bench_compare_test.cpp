// The comparisons an output is held to: elementwise tolerance and relative L2
// error, with the figures eval.json reports (values worked out by hand).
#define BOOST_TEST_MODULE bench_compare
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <limits>
#include <string>
#include <thread>
#include <vector>

#include "forge/bench/bench.hpp"
#include "forge/bench/tensor.hpp"
#include "definition.hpp"
#include "rules/compare.hpp"

namespace fb = forge::bench;

namespace {

template <class T = double>
fb::Tensor tensor(std::initializer_list<T> values, fb::DType dtype = fb::DType::fp64) {
    fb::Tensor out("y", {static_cast<std::int64_t>(values.size())}, dtype);
    std::size_t i = 0;
    for (T value : values) out.span<T>()[i++] = value;
    return out;
}

constexpr double not_a_number = std::numeric_limits<double>::quiet_NaN();
constexpr double infinity = std::numeric_limits<double>::infinity();

}  // namespace

BOOST_AUTO_TEST_CASE(relative_l2_is_the_norm_of_the_difference_over_the_norm_of_the_reference) {
    // ||(0, 0.5)|| / ||(3, 4)|| = 0.5 / 5 = 0.1
    const fb::ComparisonResult result = fb::compare(tensor({3.0, 4.5}), tensor({3.0, 4.0}), fb::RelativeL2{.max = 0.2});
    BOOST_TEST(result.relative_l2_error == 0.1);
    BOOST_TEST(result.max_abs_error == 0.5);
    BOOST_TEST(result.max_rel_error == 0.125);
    BOOST_TEST(result.passed());
}

BOOST_AUTO_TEST_CASE(relative_l2_passes_at_exactly_the_threshold_and_fails_just_below_it) {
    const fb::Tensor actual = tensor({3.0, 4.5});
    const fb::Tensor expected = tensor({3.0, 4.0});
    BOOST_TEST(fb::compare(actual, expected, fb::RelativeL2{.max = 0.1}).passed());
    BOOST_TEST(!fb::compare(actual, expected, fb::RelativeL2{.max = std::nextafter(0.1, 0.0)}).passed());
    // The message gives the measured error against the threshold.
    const fb::ComparisonResult above = fb::compare(actual, expected, fb::RelativeL2{.max = 0.05});
    BOOST_TEST(above.failure("reference").find("relative L2 error 0.1 above the threshold 0.05") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(relative_l2_forgives_one_cancelled_element_that_elementwise_fails) {
    // A sum that cancels to near zero: its relative error is large, the output's is not.
    const fb::Tensor expected = tensor({10.0, -8.0, 1e-7, 6.0});
    const fb::Tensor actual = tensor({10.0, -8.0, 2e-7, 6.0});
    BOOST_TEST(!fb::compare(actual, expected, fb::Tolerance{.atol = 0.0, .rtol = 1e-4}).passed());
    const fb::ComparisonResult l2 = fb::compare(actual, expected, fb::RelativeL2{.max = 1e-5});
    BOOST_TEST(l2.passed());
    BOOST_TEST(l2.max_rel_error == 1.0, boost::test_tools::tolerance(1e-12));
    BOOST_TEST(l2.relative_l2_error == 1e-7 / std::sqrt(200.0), boost::test_tools::tolerance(1e-9));
}

BOOST_AUTO_TEST_CASE(a_zero_reference_passes_only_a_zero_output) {
    const fb::Tensor zero = tensor({0.0, 0.0});
    const fb::ComparisonResult same = fb::compare(tensor({0.0, 0.0}), zero, fb::RelativeL2{.max = 0.0});
    BOOST_TEST(same.relative_l2_error == 0.0);
    BOOST_TEST(same.passed());
    const fb::ComparisonResult other = fb::compare(tensor({0.0, 1e-30}), zero, fb::RelativeL2{.max = 1.0});
    BOOST_TEST(std::isinf(other.relative_l2_error));
    BOOST_TEST(!other.passed());
    BOOST_TEST(other.failure("reference").find("infinite (the reference is all zero") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(nan_or_inf_on_either_side_never_passes_either_comparison) {
    struct Case {
        double actual;
        double expected;
    };
    for (const Case c : {Case{not_a_number, 2.0}, Case{2.0, not_a_number}, Case{infinity, infinity},
                         Case{2.0, infinity}}) {
        const fb::Tensor actual = tensor({1.0, c.actual});
        const fb::Tensor expected = tensor({1.0, c.expected});
        const fb::ComparisonResult l2 = fb::compare(actual, expected, fb::RelativeL2{.max = 1e300});
        BOOST_TEST(!l2.passed());
        BOOST_TEST(l2.non_finite == 1);
        BOOST_TEST(l2.first_non_finite == 1);
        BOOST_TEST(l2.relative_l2_error == 0.0);  // over the finite elements, which agree
        BOOST_TEST(l2.failure("reference").find("1 element(s) NaN or infinite (first at element 1)") !=
                   std::string::npos);
        // An Inf reference under rtol > 0 would admit anything: it is a mismatch too.
        const fb::ComparisonResult elementwise = fb::compare(actual, expected, fb::Tolerance{.atol = 1.0, .rtol = 1.0});
        BOOST_TEST(!elementwise.passed());
        BOOST_TEST(elementwise.mismatches == 1);
    }
}

BOOST_AUTO_TEST_CASE(fp64_magnitudes_beyond_the_squares_range_are_summed_scaled) {
    // 1e200 squared overflows a double, 1e-200 squared underflows: the ratio is still 0.1.
    BOOST_TEST(fb::compare(tensor({3e200, 4.5e200}), tensor({3e200, 4e200}), fb::RelativeL2{.max = 1.0})
                   .relative_l2_error == 0.1,
               boost::test_tools::tolerance(1e-12));
    BOOST_TEST(fb::compare(tensor({3e-200, 4.5e-200}), tensor({3e-200, 4e-200}), fb::RelativeL2{.max = 1.0})
                   .relative_l2_error == 0.1,
               boost::test_tools::tolerance(1e-12));
}

BOOST_AUTO_TEST_CASE(fp32_outputs_are_compared_as_their_values) {
    const fb::ComparisonResult result = fb::compare(tensor<float>({3.0F, 4.5F}, fb::DType::fp32),
                                                    tensor<float>({3.0F, 4.0F}, fb::DType::fp32),
                                                    fb::RelativeL2{.max = 0.1});
    BOOST_TEST(result.relative_l2_error == 0.1);
    BOOST_TEST(result.passed());
}

BOOST_AUTO_TEST_CASE(merging_keeps_the_worst_relative_l2_error) {
    fb::ComparisonResult run = fb::compare(tensor({3.0, 4.0}), tensor({3.0, 4.0}), fb::RelativeL2{.max = 0.05});
    BOOST_TEST(run.passed());
    run.merge(fb::compare(tensor({3.0, 4.5}), tensor({3.0, 4.0}), fb::RelativeL2{.max = 0.05}));
    BOOST_TEST(run.relative_l2_error == 0.1);
    BOOST_TEST(!run.passed());
}

BOOST_AUTO_TEST_CASE(an_elementwise_failure_names_its_tolerance_and_first_element) {
    const fb::ComparisonResult result =
        fb::compare(tensor({1.0, 2.5}), tensor({1.0, 2.0}), fb::Tolerance{.atol = 0.1, .rtol = 0.0});
    BOOST_TEST(result.failure("reference").find("1 element(s) outside atol 0.1 + rtol 0 * |reference|") !=
               std::string::npos);
    BOOST_TEST(result.failure("reference").find("first at element 1") != std::string::npos);
}

// A large comparison's parts on several threads, in any order, give the
// figures one thread gives, to the bit, and the first failures by position.
BOOST_AUTO_TEST_CASE(a_comparison_in_parts_on_threads_reads_as_one_on_this_thread) {
    constexpr std::int64_t n = (std::int64_t{1} << 21) + 7;  // 16 parts, uneven
    fb::Tensor expected("y", {n}, fb::DType::fp32);
    fb::Tensor actual("y", {n}, fb::DType::fp32);
    for (std::int64_t i = 0; i < n; ++i) {
        expected.span<float>()[i] = static_cast<float>(std::sin(0.001 * static_cast<double>(i)));
        actual.span<float>()[i] = expected.span<float>()[i] * (1.0F + 1e-6F * static_cast<float>(i % 13));
    }
    // Failures late in one part and early in the next: the first is the earliest.
    actual.span<float>()[n / 2 + 5] = 3.0F;
    actual.span<float>()[n / 2 - 5] = 2.0F;
    actual.span<float>()[n - 1] = std::numeric_limits<float>::quiet_NaN();
    actual.span<float>()[n / 3] = std::numeric_limits<float>::infinity();
    const fb::RunParts backwards_on_threads = [](std::size_t parts, const std::function<void(std::size_t)>& part) {
        std::vector<std::thread> threads;
        for (std::size_t i = parts; i-- > 0;) threads.emplace_back(part, i);
        for (std::thread& thread : threads) thread.join();
    };
    for (const fb::Comparison& comparison :
         {fb::Comparison{fb::Tolerance{.atol = 1e-5, .rtol = 1e-5}}, fb::Comparison{fb::RelativeL2{.max = 1e-3}}}) {
        const fb::ComparisonResult alone = fb::compare(actual, expected, comparison);
        const fb::ComparisonResult shared = fb::compare(actual, expected, comparison, backwards_on_threads);
        BOOST_TEST(shared.max_abs_error == alone.max_abs_error);
        BOOST_TEST(shared.max_rel_error == alone.max_rel_error);
        BOOST_TEST(shared.relative_l2_error == alone.relative_l2_error);
        BOOST_TEST(shared.mismatches == alone.mismatches);
        BOOST_TEST(shared.first_mismatch == alone.first_mismatch);
        BOOST_TEST(shared.non_finite == 2);
        BOOST_TEST(shared.first_non_finite == n / 3);
        BOOST_TEST(shared.first_non_finite == alone.first_non_finite);
        const auto error_at = [&](std::int64_t i) {
            return std::abs(static_cast<double>(actual.span<float>()[i]) - expected.span<float>()[i]);
        };
        BOOST_TEST(shared.max_abs_error == std::max(error_at(n / 2 + 5), error_at(n / 2 - 5)));
    }
    const fb::ComparisonResult elementwise =
        fb::compare(actual, expected, fb::Tolerance{.atol = 1e-5, .rtol = 1e-5}, backwards_on_threads);
    BOOST_TEST(elementwise.first_mismatch == n / 3);
    BOOST_TEST(elementwise.mismatches >= 4);
}

BOOST_AUTO_TEST_CASE(a_bench_picks_the_outputs_own_comparison_then_its_dtypes_then_the_default) {
    fb::Bench bench{fb::Backend::host};
    bench.tolerance("y", fb::RelativeL2{.max = 1e-5});
    bench.tolerance(fb::DType::fp32, {.atol = 1e-3, .rtol = 1e-3});
    const fb::Comparison y = fb::BenchDefinition(bench).comparison_for({"y", {4}, fb::DType::fp32});
    BOOST_TEST(std::get<fb::RelativeL2>(y).max == 1e-5);
    const fb::Comparison z = fb::BenchDefinition(bench).comparison_for({"z", {4}, fb::DType::fp32});
    BOOST_TEST(std::get<fb::Tolerance>(z).atol == 1e-3);
    const fb::Comparison w = fb::BenchDefinition(bench).comparison_for({"w", {4}, fb::DType::fp16});
    BOOST_TEST(std::get<fb::Tolerance>(w).rtol == fb::default_tolerance(fb::DType::fp16).rtol);
    // An elementwise tolerance for one output still reads as it always has.
    bench.tolerance("y", {.atol = 1e-4, .rtol = 1e-3});
    BOOST_TEST(
        std::holds_alternative<fb::Tolerance>(fb::BenchDefinition(bench).comparison_for({"y", {4}, fb::DType::fp32})));
}

BOOST_AUTO_TEST_CASE(a_negative_or_nan_relative_l2_threshold_is_a_problem) {
    fb::Bench bench{fb::Backend::host};
    bench.tolerance("y", fb::RelativeL2{.max = -1.0});
    bench.tolerance("z", fb::RelativeL2{.max = not_a_number});
    int found = 0;
    for (const std::string& problem : fb::BenchDefinition(bench).problems()) {
        found += problem.find("relative L2 threshold") != std::string::npos ? 1 : 0;
    }
    BOOST_TEST(found == 2);
}

BOOST_AUTO_TEST_CASE(identical_means_same_shape_dtype_and_bytes) {
    BOOST_TEST(fb::identical(tensor({1.0, not_a_number}), tensor({1.0, not_a_number})));
    BOOST_TEST(!fb::identical(tensor({1.0, 2.0}), tensor({1.0, std::nextafter(2.0, 3.0)})));
    BOOST_TEST(!fb::identical(tensor({0.0}), tensor({-0.0})));  // equal values, other bytes
    BOOST_TEST(!fb::identical(tensor({1.0, 2.0}), tensor({1.0, 2.0, 3.0})));
    fb::Tensor as_floats("y", {2}, fb::DType::fp32);
    fb::Tensor as_ints("y", {2}, fb::DType::i32);
    BOOST_TEST(!fb::identical(as_floats, as_ints));  // both zero bytes, other dtypes
}
