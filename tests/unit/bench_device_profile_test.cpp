#define BOOST_TEST_MODULE bench_device_profile
#include <boost/test/unit_test.hpp>

#include <set>
#include <string>
#include <vector>

#include "device_profile.hpp"

// What a profiled CUDA call's device work becomes: these rules run here, without a
// GPU, on records shaped as CUPTI reports them.
namespace fb = forge::bench;
using Kind = fb::DeviceActivity::Kind;

namespace {

constexpr fb::WindowEndMarker marker{44, 0xF7};

fb::DeviceActivity kernel(const char* name, std::uint64_t start, std::uint64_t end) {
    return {Kind::kernel, name, start, end, 0, 0};
}

const forge::KernelRow* row(const forge::KernelTable& table, const std::string& name) {
    for (const forge::KernelRow& r : table.kernels) {
        if (r.name == name) return &r;
    }
    return nullptr;
}

fb::DeviceActivity window_end(std::uint64_t start) { return {Kind::memset, "[CUDA memset]", start, start + 800, 44, 0xF7}; }

}  // namespace

BOOST_AUTO_TEST_CASE(work_that_ends_before_the_window_end_is_not_late) {
    const fb::Profile profile = fb::profile_of(
        {kernel("add", 1'000, 50'000), kernel("scale", 50'500, 90'000), window_end(90'400)}, marker);
    BOOST_TEST(profile.late.empty());
    BOOST_TEST((profile.launched == std::set<std::string>{"add", "scale"}));
}

BOOST_AUTO_TEST_CASE(work_on_a_stream_that_outlives_the_window_is_late_and_named) {
    // The call's own kernel is inside; the one on a non-blocking stream ends 2 ms after.
    const fb::Profile profile = fb::profile_of(
        {kernel("add", 1'000, 50'000), window_end(50'300), kernel("spin_on_my_stream", 2'000, 2'050'300)}, marker);
    BOOST_TEST_REQUIRE(profile.late.size() == 1u);
    BOOST_TEST(profile.late[0].name == "spin_on_my_stream");
    BOOST_TEST(profile.late[0].ns_after_window_end == 2'000'000.0);
}

BOOST_AUTO_TEST_CASE(late_work_is_listed_latest_first) {
    const fb::Profile profile = fb::profile_of(
        {window_end(10'000), kernel("a", 0, 20'000), kernel("b", 0, 900'000), kernel("c", 0, 50'000)}, marker);
    BOOST_TEST_REQUIRE(profile.late.size() == 3u);
    BOOST_TEST(profile.late[0].name == "b");
    BOOST_TEST(profile.late[1].name == "c");
    BOOST_TEST(profile.late[2].name == "a");
}

BOOST_AUTO_TEST_CASE(an_end_within_the_clocks_granularity_is_not_late) {
    const fb::Profile profile = fb::profile_of({kernel("add", 0, 10'900), window_end(10'000)}, marker);
    BOOST_TEST(profile.late.empty());
}

BOOST_AUTO_TEST_CASE(the_marker_is_not_in_the_table_but_the_calls_own_memsets_are) {
    const fb::Profile profile =
        fb::profile_of({{Kind::memset, "[CUDA memset]", 0, 400, 4096, 0}, kernel("add", 500, 5'000), window_end(5'200)},
                       marker);
    BOOST_TEST_REQUIRE(profile.kernels.kernels.size() == 2u);
    BOOST_TEST_REQUIRE(row(profile.kernels, "[CUDA memset]") != nullptr);
    BOOST_TEST(row(profile.kernels, "[CUDA memset]")->launches == 1);
    BOOST_TEST(row(profile.kernels, "[CUDA memset]")->time_ns == 400.0);
    // A copy or a set is in the table, but not one of the call's kernels.
    BOOST_TEST((profile.launched == std::set<std::string>{"add"}));
    BOOST_TEST(profile.kernels.profiler->total_ns == 4'900.0);
}

BOOST_AUTO_TEST_CASE(a_memset_that_looks_like_the_marker_earlier_in_the_call_does_not_end_the_window) {
    // The call's own 44-byte 0xF7 memset comes first; the harness's marker is the last one.
    const fb::Profile profile = fb::profile_of(
        {window_end(100), kernel("add", 1'000, 50'000), window_end(50'200)}, marker);
    BOOST_TEST(profile.late.empty());
    BOOST_TEST_REQUIRE(row(profile.kernels, "[CUDA memset]") != nullptr);
    BOOST_TEST(row(profile.kernels, "[CUDA memset]")->launches == 1);
}

BOOST_AUTO_TEST_CASE(without_a_marker_nothing_is_judged_late) {
    const fb::Profile profile = fb::profile_of({kernel("add", 0, 9'000'000)}, marker);
    BOOST_TEST(profile.late.empty());
    BOOST_TEST(profile.kernels.kernels.size() == 1u);
}

BOOST_AUTO_TEST_CASE(launches_of_one_kernel_merge_into_one_row) {
    const fb::Profile profile =
        fb::profile_of({kernel("add", 0, 1'000), kernel("add", 2'000, 3'500), window_end(4'000)}, marker);
    BOOST_TEST_REQUIRE(profile.kernels.kernels.size() == 1u);
    BOOST_TEST(profile.kernels.kernels[0].launches == 2);
    BOOST_TEST(profile.kernels.kernels[0].time_ns == 2'500.0);
}
