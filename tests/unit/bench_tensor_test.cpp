#define BOOST_TEST_MODULE bench_tensor
#include <boost/test/unit_test.hpp>

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <set>
#include <string>
#include <vector>

#include "forge/bench/dtype.hpp"
#include "forge/bench/rng.hpp"
#include "forge/bench/tensor.hpp"
#include "rules/compare.hpp"
#include "runtime/guarded_memory.hpp"
#include "runtime/host/sysfs.hpp"
#include "runtime/host_memory.hpp"

namespace fb = forge::bench;

namespace {

bool message_has(const fb::BenchError& e, const std::string& text) {
    return std::string(e.what()).find(text) != std::string::npos;
}

}  // namespace

BOOST_AUTO_TEST_CASE(dtype_names_normalise_like_the_contract) {
    BOOST_TEST((fb::dtype_from_string("torch.bfloat16") == fb::DType::bf16));
    BOOST_TEST((fb::dtype_from_string("bf16") == fb::DType::bf16));
    BOOST_TEST((fb::dtype_from_string("Float32") == fb::DType::fp32));
    BOOST_TEST((fb::dtype_from_string("half") == fb::DType::fp16));
    BOOST_TEST((fb::dtype_from_string("int") == fb::DType::i32));
    BOOST_TEST(!fb::dtype_from_string("float8_e4m3fn").has_value());  // not a host tensor dtype
    BOOST_TEST(fb::to_string(fb::DType::fp32) == "fp32");
    BOOST_TEST(fb::to_string(fb::DType::boolean) == "bool");
}

BOOST_AUTO_TEST_CASE(sixteen_bit_floats_round_to_nearest_even) {
    BOOST_TEST(fb::to_float(fb::to_float16(1.0F)) == 1.0F);
    BOOST_TEST(fb::to_float16(1.0F).bits == 0x3C00);
    BOOST_TEST(fb::to_float16(65504.0F).bits == 0x7BFF);
    BOOST_TEST(fb::to_float16(1e6F).bits == 0x7C00);                 // overflow -> inf
    BOOST_TEST(fb::to_float(fb::float16{0x0001}) == std::ldexp(1.0F, -24));  // smallest subnormal
    BOOST_TEST(fb::to_float16(1.0F + std::ldexp(1.0F, -11)).bits == 0x3C00);  // tie -> even
    BOOST_TEST(std::isnan(fb::to_float(fb::to_float16(std::numeric_limits<float>::quiet_NaN()))));
    BOOST_TEST(fb::to_bfloat16(1.0F).bits == 0x3F80);
    BOOST_TEST(fb::to_float(fb::to_bfloat16(3.140625F)) == 3.140625F);
    BOOST_TEST(std::isnan(fb::to_float(fb::to_bfloat16(std::numeric_limits<float>::quiet_NaN()))));
}

BOOST_AUTO_TEST_CASE(a_tensor_is_read_through_its_own_element_type) {
    fb::Tensor t("x", {2, 3}, fb::DType::fp32);
    BOOST_TEST(t.numel() == 6);
    BOOST_TEST(t.bytes() == 24u);
    BOOST_TEST(t.dim(-1) == 3);
    t.span<float>()[5] = 2.5F;
    BOOST_TEST(t.data<float>()[5] == 2.5F);
    try {
        (void)t.span<double>();
        BOOST_FAIL("reading fp32 as double must throw");
    } catch (const fb::BenchError& e) {
        BOOST_TEST(message_has(e, "'x'"));
        BOOST_TEST(message_has(e, "fp32"));
    }
    BOOST_CHECK_THROW((void)t.dim(2), fb::BenchError);
    const fb::Tensor copy = t.clone();
    BOOST_TEST(copy.data<float>()[5] == 2.5F);
    BOOST_TEST(copy.raw() != t.raw());
}

BOOST_AUTO_TEST_CASE(tensors_keep_their_addresses_as_more_are_added) {
    fb::Tensors set;
    fb::Tensor& first = set.add("a", {4}, fb::DType::fp32);
    for (int i = 0; i < 100; ++i) set.add("t" + std::to_string(i), {1}, fb::DType::i32);
    BOOST_TEST(&set.at("a") == &first);
    BOOST_CHECK_THROW(set.add("a", {1}, fb::DType::fp32), fb::BenchError);
    try {
        (void)set.at("missing");
        BOOST_FAIL("an unknown name must throw");
    } catch (const fb::BenchError& e) {
        BOOST_TEST(message_has(e, "'missing'"));
    }
}

BOOST_AUTO_TEST_CASE(the_same_seed_gives_the_same_inputs) {
    fb::Tensor a("a", {1000}, fb::DType::fp32);
    fb::Tensor b("b", {1000}, fb::DType::fp32);
    fb::Tensor c("c", {1000}, fb::DType::fp32);
    fb::Rng(42).normal(a);
    fb::Rng(42).normal(b);
    fb::Rng(43).normal(c);
    BOOST_TEST(fb::checksum(a) == fb::checksum(b));
    BOOST_TEST(fb::checksum(a) != fb::checksum(c));
    double sum = 0.0;
    for (float v : a.span<float>()) sum += v;
    BOOST_TEST(std::abs(sum / 1000.0) < 0.2);  // mean near 0

    fb::Tensor ints("i", {500}, fb::DType::i32);
    fb::Rng(1).integers(ints, -3, 3);
    for (std::int32_t v : ints.span<std::int32_t>()) BOOST_TEST((v >= -3 && v <= 3));
    BOOST_CHECK_THROW(fb::Rng(1).normal(ints), fb::BenchError);
}

// A seed's inputs are the bytes it gave when a bench first drew them, on every
// machine and in every build: an earlier run's inputs, its outputs and any
// figure recorded from them stay reproducible. These digests were taken from
// the generator before its fills kept the state in registers.
BOOST_AUTO_TEST_CASE(a_seed_gives_the_bytes_it_always_gave) {
    fb::Tensor normal("n", {100000}, fb::DType::fp32);
    fb::Tensor uniform("u", {1000}, fb::DType::bf16);
    fb::Tensor integers("i", {1000}, fb::DType::i64);
    fb::Rng rng(42);
    rng.normal(normal);
    rng.uniform(uniform, -2.0, 3.0);
    rng.integers(integers, -7, 7);
    BOOST_TEST(fb::checksum(normal) == 0x65e821fa0133595dULL);
    BOOST_TEST(fb::checksum(uniform) == 0x50a90e90d789c43aULL);
    BOOST_TEST(fb::checksum(integers) == 0xd26593d2bdd3168aULL);
    // The one-at-a-time draws carry on from where the fills left the state.
    BOOST_TEST(rng.normal() == -0.80105554900240106);
    BOOST_TEST(rng.uniform() == 0.95270429275378921);
    BOOST_TEST(rng.next() == 0x1efcc98eef48aec9ULL);
}

// The normal draws follow the standard normal's distribution function, in the
// ziggurat's layers and in its tail beyond 3.44 alike: at each point the share
// of 2^20 draws below it is within 5 standard errors of the share expected.
BOOST_AUTO_TEST_CASE(normal_draws_follow_the_normal_distribution) {
    constexpr std::size_t draws = std::size_t{1} << 20;
    const std::vector<double> points{-4.5, -3.6, -3.0, -2.0, -1.0, -0.3, 0.0, 0.3, 1.0, 2.0, 3.0, 3.6, 4.5};
    std::vector<std::size_t> below(points.size(), 0);
    fb::Rng rng(7);
    double sum = 0.0;
    double squares = 0.0;
    for (std::size_t i = 0; i < draws; ++i) {
        const double v = rng.normal();
        sum += v;
        squares += v * v;
        for (std::size_t p = 0; p < points.size(); ++p) below[p] += v < points[p] ? 1 : 0;
    }
    const auto n = static_cast<double>(draws);
    BOOST_TEST(std::abs(sum / n) < 5.0 / std::sqrt(n));
    BOOST_TEST(std::abs(squares / n - 1.0) < 5.0 * std::sqrt(2.0 / n));
    for (std::size_t p = 0; p < points.size(); ++p) {
        const double expected = 0.5 * std::erfc(-points[p] / std::sqrt(2.0));
        const double error = 5.0 * std::sqrt(expected * (1.0 - expected) / n) + 1.0 / n;
        BOOST_TEST(std::abs(static_cast<double>(below[p]) / n - expected) < error,
                   "below " << points[p] << ": " << below[p] << " of " << draws << ", expected " << expected * n);
    }
}

BOOST_AUTO_TEST_CASE(comparison_uses_atol_plus_rtol_of_the_expected_value) {
    fb::Tensor expected("y", {3}, fb::DType::fp32);
    fb::Tensor actual("y", {3}, fb::DType::fp32);
    auto e = expected.span<float>();
    auto a = actual.span<float>();
    e[0] = 1.0F; e[1] = 100.0F; e[2] = 0.0F;
    a[0] = 1.0F; a[1] = 100.05F; a[2] = 1e-6F;
    // |100.05 - 100| = 0.05 <= 1e-5 + 1e-3 * 100: within
    BOOST_TEST(fb::compare(actual, expected, fb::Tolerance{.atol = 1e-5, .rtol = 1e-3}).passed());
    const fb::ComparisonResult strict = fb::compare(actual, expected, fb::Tolerance{.atol = 1e-5, .rtol = 1e-4});
    BOOST_TEST(!strict.passed());
    BOOST_TEST(strict.mismatches == 1);
    BOOST_TEST(strict.first_mismatch == 1);
    BOOST_TEST(strict.max_abs_error == 0.05, boost::test_tools::tolerance(1e-4));

    a[0] = std::numeric_limits<float>::quiet_NaN();
    // NaN never passes
    BOOST_TEST(fb::compare(actual, expected, fb::Tolerance{.atol = 1.0, .rtol = 1.0}).mismatches == 1);

    const fb::Tensor other_shape("y", {4}, fb::DType::fp32);
    BOOST_TEST(!fb::compare(other_shape, expected, fb::Tolerance{.atol = 1.0, .rtol = 1.0}).shape_problem.empty());
}

// The harness's tensors come off the process heap: small blocks from malloc,
// the others mapped, each in huge pages of its own where the kernel allows,
// each on another page of its first one, at the same place in that page.
BOOST_AUTO_TEST_CASE(host_blocks_are_zeroed_aligned_and_mapped_ones_start_past_a_huge_page_boundary) {
    for (const std::size_t bytes : {std::size_t{0}, std::size_t{1}, std::size_t{4096}, std::size_t{65536},
                                    std::size_t{100} << 10, std::size_t{3} << 20}) {
        std::byte* block = fb::allocate_host_block(bytes);
        BOOST_TEST(reinterpret_cast<std::uintptr_t>(block) % 64 == 0u);
        bool zero = true;
        for (std::size_t i = 0; i < std::max<std::size_t>(bytes, 1); ++i) zero = zero && block[i] == std::byte{0};
        BOOST_TEST(zero);
        std::memset(block, 0xFF, std::max<std::size_t>(bytes, 1));  // every byte asked for is writable
        fb::release_host_block(block);
    }
    fb::release_host_block(nullptr);

    // Mapped blocks, under a huge page or over, start on different pages of their huge pages.
    constexpr std::size_t huge = std::size_t{2} << 20;
    for (const std::size_t bytes : {std::size_t{100} << 10, 3 * huge}) {
        std::byte* first = fb::allocate_host_block(bytes);
        std::byte* second = fb::allocate_host_block(bytes);
        BOOST_TEST(reinterpret_cast<std::uintptr_t>(first) % huge != reinterpret_cast<std::uintptr_t>(second) % huge);
        BOOST_TEST(reinterpret_cast<std::uintptr_t>(first) % 4096 == reinterpret_cast<std::uintptr_t>(second) % 4096);
        // Each in huge pages of its own.
        BOOST_TEST(reinterpret_cast<std::uintptr_t>(first) / huge != reinterpret_cast<std::uintptr_t>(second) / huge);
        fb::release_host_block(first);
        fb::release_host_block(second);
    }
}

BOOST_AUTO_TEST_CASE(a_mapping_given_back_serves_the_next_block_that_fits_it_zeroed) {
    constexpr std::size_t bytes = std::size_t{3} << 20;
    std::byte* given_back = fb::allocate_host_block(bytes);
    std::memset(given_back, 0xFF, bytes);
    const std::size_t mapped = fb::harness_mappings().size();
    fb::release_host_block(given_back);
    BOOST_TEST(fb::harness_mappings().size() == mapped);  // kept, not unmapped

    std::byte* next = fb::allocate_host_block(bytes - 4096);
    BOOST_TEST(fb::harness_mappings().size() == mapped);  // no new mapping
    BOOST_TEST(std::all_of(next, next + bytes - 4096, [](std::byte b) { return b == std::byte{0}; }));
    fb::release_host_block(next);

    // A block larger than all that may be kept is unmapped at once.
    std::byte* large = fb::allocate_host_block(fb::most_kept_bytes + 1);
    const std::size_t with_large = fb::harness_mappings().size();
    fb::release_host_block(large);
    BOOST_TEST(fb::harness_mappings().size() == with_large - 1);
}

namespace {

// Whether `bytes` from `at` lie inside one of the harness's mappings.
bool held_by_harness(const std::byte* at, std::size_t bytes) {
    const auto begin = reinterpret_cast<std::uintptr_t>(at);
    const std::vector<fb::AddressRange> held = fb::harness_mappings();
    return std::any_of(held.begin(), held.end(),
                       [&](const fb::AddressRange& r) { return r.begin <= begin && begin + bytes <= r.end; });
}

}  // namespace

// A buffer given back (a sweep's, a calibration's) serves the smaller tensors
// that follow it: the pages it already holds, not new ones faulted in.
BOOST_AUTO_TEST_CASE(a_larger_mapping_given_back_is_cut_to_serve_smaller_blocks_zeroed) {
    constexpr std::size_t large = std::size_t{16} << 20;
    constexpr std::size_t piece = large / 4;
    std::byte* given_back = fb::allocate_host_block(large);
    std::memset(given_back, 0xFF, large);
    fb::release_host_block(given_back);
    const std::vector<fb::AddressRange> before = fb::harness_mappings();
    std::vector<std::byte*> pieces;
    for (int i = 0; i < 3; ++i) {
        std::byte* block = fb::allocate_host_block(piece);
        const auto begin = reinterpret_cast<std::uintptr_t>(block);
        BOOST_TEST(std::any_of(before.begin(), before.end(), [&](const fb::AddressRange& r) {
            return r.begin <= begin && begin + piece <= r.end;
        }));  // inside what was mapped already
        BOOST_TEST(std::all_of(block, block + piece, [](std::byte b) { return b == std::byte{0}; }));
        std::memset(block, 0xFF, piece);
        pieces.push_back(block);
    }
    std::sort(pieces.begin(), pieces.end());
    for (std::size_t i = 1; i < pieces.size(); ++i) BOOST_TEST(pieces[i - 1] + piece <= pieces[i]);  // none overlap
    for (std::byte* block : pieces) fb::release_host_block(block);
}

// A block none of the kept mappings fits takes their place: they are unmapped
// first, so its pages can be theirs rather than pages the machine backs anew.
BOOST_AUTO_TEST_CASE(kept_mappings_are_unmapped_before_a_block_none_of_them_fits_is_mapped) {
    constexpr std::size_t small = std::size_t{3} << 20;
    std::byte* kept = fb::allocate_host_block(small);
    fb::release_host_block(kept);
    BOOST_TEST(held_by_harness(kept, small));
    std::byte* large = fb::allocate_host_block(fb::most_kept_bytes + 1);  // more than all kept together
    const auto large_begin = reinterpret_cast<std::uintptr_t>(large);
    const auto kept_begin = reinterpret_cast<std::uintptr_t>(kept);
    // What holds the kept block's addresses now, if anything, is the new block's mapping.
    for (const fb::AddressRange& r : fb::harness_mappings()) {
        if (r.begin <= kept_begin && kept_begin < r.end) BOOST_TEST((r.begin <= large_begin && large_begin < r.end));
    }
    fb::release_host_block(large);
}

// A new mapping's pages are all faulted in when it is made (on several
// threads, each a part), not by the first call that reaches them.
BOOST_AUTO_TEST_CASE(a_new_mapping_is_resident_from_end_to_end) {
    constexpr std::size_t bytes = fb::most_kept_bytes + 12345;  // more than any kept mapping holds
    std::byte* block = fb::allocate_host_block(bytes);
    const auto page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
    std::byte* const first = block - reinterpret_cast<std::uintptr_t>(block) % page;
    const auto length = static_cast<std::size_t>(block + bytes - first);
    std::vector<unsigned char> resident((length + page - 1) / page);
    BOOST_TEST_REQUIRE(::mincore(first, length, resident.data()) == 0);
    const auto missing = std::count_if(resident.begin(), resident.end(), [](unsigned char r) { return (r & 1U) == 0; });
    BOOST_TEST(missing == 0, missing << " of " << resident.size() << " pages not resident");
    fb::release_host_block(block);
}

namespace {

// Element `index` of `tensor` (-1: the last of the leading guard), read as its dtype.
double element_at(const fb::Tensor& tensor, std::ptrdiff_t index) {
    const std::byte* at = tensor.raw() + index * static_cast<std::ptrdiff_t>(fb::size_of(tensor.dtype()));
    const auto read = [at]<class T>(T value) {
        std::memcpy(&value, at, sizeof value);
        return value;
    };
    switch (tensor.dtype()) {
        case fb::DType::fp16: return fb::to_float(read(fb::float16{}));
        case fb::DType::bf16: return fb::to_float(read(fb::bfloat16{}));
        case fb::DType::fp32: return read(0.0F);
        default: return read(0.0);
    }
}

}  // namespace

// A read just past the end (or before the start) of a guarded tensor reads NaN
// in every float dtype, so a shape declared short fails the comparison instead
// of both sides agreeing on the same garbage; the guards still hold their pattern.
BOOST_AUTO_TEST_CASE(guard_bytes_read_as_nan_in_every_float_dtype) {
    for (const fb::DType dtype : {fb::DType::fp16, fb::DType::bf16, fb::DType::fp32, fb::DType::fp64}) {
        for (int variant = 0; variant < 16; ++variant) {  // sixteen allocations take each variant once
            const fb::Tensor tensor = fb::allocate_guarded(fb::TensorSpec{"x", {5}, dtype});
            for (const std::ptrdiff_t index : {std::ptrdiff_t{-3}, std::ptrdiff_t{-1}, std::ptrdiff_t{5},
                                               std::ptrdiff_t{6}, std::ptrdiff_t{13}}) {
                BOOST_TEST(std::isnan(element_at(tensor, index)), fb::to_string(dtype) << " element " << index);
            }
            BOOST_TEST(!fb::damaged_guard(tensor).has_value());
        }
    }
}

// Integers read past the end of one side's copy of a tensor and of the other's
// differ, so two sides that read them do not agree on the same garbage; each
// allocation's guards still read back as intact, and a changed byte is seen.
BOOST_AUTO_TEST_CASE(consecutive_allocations_guards_read_as_different_integers) {
    std::vector<fb::Tensor> tensors;
    for (int i = 0; i < 16; ++i) tensors.push_back(fb::allocate_guarded(fb::TensorSpec{"i", {3}, fb::DType::i32}));
    std::set<std::int32_t> past_the_end;
    for (const fb::Tensor& tensor : tensors) {
        std::int32_t value = 0;
        std::memcpy(&value, tensor.raw() + tensor.bytes(), sizeof value);
        past_the_end.insert(value);
        BOOST_TEST(!fb::damaged_guard(tensor).has_value());
    }
    BOOST_TEST(past_the_end.size() == tensors.size());

    for (const std::ptrdiff_t offset : {std::ptrdiff_t{-256}, std::ptrdiff_t{-255}, std::ptrdiff_t{12}}) {
        fb::Tensor& tensor = tensors[static_cast<std::size_t>(offset + 256) % tensors.size()];
        std::byte& byte = tensor.raw()[offset];
        const std::byte kept = byte;
        byte ^= std::byte{0x80};  // the byte that says the variant's sign bit, or a data neighbour's
        BOOST_TEST(fb::damaged_guard(tensor).has_value(), "byte " << offset);
        byte = kept;
        BOOST_TEST(!fb::damaged_guard(tensor).has_value());
    }
}

BOOST_AUTO_TEST_CASE(a_sysfs_choice_list_reads_as_its_selected_word) {
    BOOST_TEST(fb::selected_choice("always [madvise] never") == "madvise");
    BOOST_TEST(fb::selected_choice("[always] madvise never") == "always");
    BOOST_TEST(fb::selected_choice("always madvise [never]") == "never");
    BOOST_TEST(fb::selected_choice("always madvise never").empty());  // none selected
    BOOST_TEST(fb::selected_choice("").empty());                       // the file was not there
    BOOST_TEST(fb::selected_choice("always [madvise").empty());       // cut short
}
