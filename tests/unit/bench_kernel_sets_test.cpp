// When a side's per-kernel table stops describing its timed calls: a timed
// sample that ran other kernels than the profiled call, and profiled work
// outside the window.
#define BOOST_TEST_MODULE bench_kernel_sets
#include <boost/test/unit_test.hpp>

#include <optional>
#include <set>
#include <string>
#include <vector>

#include "rules/kernel_sets.hpp"

namespace fb = forge::bench;
using forge::Side;

BOOST_AUTO_TEST_CASE(each_distinct_kernel_set_is_noted_once) {
    std::vector<fb::KernelNames> seen;
    fb::note_kernel_set(seen, {{"a", "b"}, true});
    fb::note_kernel_set(seen, {{"a", "b"}, true});
    fb::note_kernel_set(seen, {{"a", "b"}, false});  // a partial log is another reading
    fb::note_kernel_set(seen, {{"c"}, true});
    BOOST_TEST(seen.size() == 3u);
}

BOOST_AUTO_TEST_CASE(samples_that_ran_the_profiled_kernels_change_nothing) {
    const std::set<std::string> profiled{"gemm", "bias"};
    BOOST_TEST(!fb::changed_kernel_set(Side::student, {{profiled, true}}, profiled));
    BOOST_TEST(!fb::changed_kernel_set(Side::student, {}, profiled));
    // A log that saw only part of a sample's kernels holds a subset of them.
    BOOST_TEST(!fb::changed_kernel_set(Side::student, {{{"gemm"}, false}}, profiled));
}

BOOST_AUTO_TEST_CASE(a_sample_with_other_kernels_names_both_sets) {
    const std::set<std::string> profiled{"gemm", "bias"};
    const std::optional<std::string> extra =
        fb::changed_kernel_set(Side::reference, {{profiled, true}, {{"gemm", "bias", "splitk"}, true}}, profiled);
    BOOST_REQUIRE(extra);
    BOOST_TEST(extra->find("the reference's timed calls ran the kernels {bias, gemm, splitk}") != std::string::npos);
    BOOST_TEST(extra->find("its profiled call ran {bias, gemm}") != std::string::npos);
    // A partial log with a kernel the profiled call never ran is a change too.
    BOOST_TEST(fb::changed_kernel_set(Side::student, {{{"gemv"}, false}}, profiled).has_value());
    // A complete log that missed one is.
    BOOST_TEST(fb::changed_kernel_set(Side::student, {{{"gemm"}, true}}, profiled).has_value());
}

BOOST_AUTO_TEST_CASE(a_call_with_no_untimed_work_has_no_problem) {
    BOOST_TEST(fb::untimed_work(Side::student, fb::Profile{}).empty());
}

BOOST_AUTO_TEST_CASE(untimed_work_names_its_first_kernel_how_far_out_and_the_fix) {
    fb::Profile profile;
    profile.late = {{"reduce", 1.5e6}, {"scale", 2e5}};
    profile.early = {{"prefetch", 2.5e4}};
    const std::vector<fb::UntimedWork> found = fb::untimed_work(Side::student, profile);
    BOOST_REQUIRE(found.size() == 2u);
    BOOST_TEST(found[0].kind != found[1].kind);
    BOOST_TEST(found[0].problem.find("the student's call left work running after its window ended: 'reduce' "
                                     "finished 1.5 ms after the window's end (and 1 more)") != std::string::npos);
    BOOST_TEST(found[0].problem.find("launch on io.stream()") != std::string::npos);
    BOOST_TEST(found[1].problem.find("started work before its window began: 'prefetch' began 0.025 ms before the "
                                     "window's start") != std::string::npos);
    BOOST_TEST(found[1].problem.find("(and") == std::string::npos);
}
