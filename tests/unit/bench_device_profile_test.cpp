#define BOOST_TEST_MODULE bench_device_profile
#include <boost/test/unit_test.hpp>

#include <set>
#include <string>
#include <vector>

#include "forge/bench/tensor.hpp"
#include "runtime/cuda/device_profile.hpp"

// What a profiled CUDA call's device work becomes: these rules run here, without a
// GPU, on records shaped as CUPTI reports them. The harness's own work (the flush
// that starts the window, the marker that ends it) is on a stream of its own.
namespace fb = forge::bench;
using Kind = fb::DeviceActivity::Kind;

namespace {

constexpr std::uint32_t harness_stream = 99;
constexpr std::uint32_t bench_stream = 7;

fb::DeviceActivity kernel(const char* name, std::uint64_t start, std::uint64_t end,
                          std::uint32_t stream = bench_stream) {
    return {Kind::kernel, name, start, end, 0, stream};
}

fb::DeviceActivity memset_on(std::uint32_t stream, std::uint64_t start, std::uint64_t end, std::uint64_t bytes) {
    return {Kind::memset, "[CUDA memset]", start, end, bytes, stream};
}

// The harness's flush, ending where the window starts, and its window-end marker.
fb::DeviceActivity flush(std::uint64_t start, std::uint64_t end) { return memset_on(harness_stream, start, end, 1 << 27); }
fb::DeviceActivity window_end(std::uint64_t start) { return memset_on(harness_stream, start, start + 800, 4); }

const forge::KernelRow* row(const forge::KernelTable& table, const std::string& name) {
    for (const forge::KernelRow& r : table.kernels) {
        if (r.name == name) return &r;
    }
    return nullptr;
}

}  // namespace

BOOST_AUTO_TEST_CASE(work_inside_the_window_is_neither_early_nor_late) {
    const fb::Profile profile = fb::profile_of({flush(0, 900), kernel("add", 1'000, 50'000),
                                                kernel("scale", 50'500, 90'000), window_end(90'400)},
                                               harness_stream);
    BOOST_TEST(profile.late.empty());
    BOOST_TEST(profile.early.empty());
    BOOST_TEST((profile.launched == std::set<std::string>{"add", "scale"}));
}

BOOST_AUTO_TEST_CASE(work_on_a_stream_that_outlives_the_window_is_late_and_named) {
    // The call's own kernel is inside; the one on a non-blocking stream ends 2 ms after.
    const fb::Profile profile = fb::profile_of({flush(0, 900), kernel("add", 1'000, 50'000), window_end(50'300),
                                                kernel("spin_on_my_stream", 2'000, 2'050'300, 12)},
                                               harness_stream);
    BOOST_TEST_REQUIRE(profile.late.size() == 1u);
    BOOST_TEST(profile.late[0].name == "spin_on_my_stream");
    BOOST_TEST(profile.late[0].ns_after_window_end == 2'000'000.0);
}

BOOST_AUTO_TEST_CASE(work_that_began_beside_the_flush_is_early_and_named) {
    // A kernel on a non-blocking stream starts while the flush still runs: the
    // window, which starts at the flush's end, timed only its remainder.
    const fb::Profile profile = fb::profile_of({flush(0, 40'000), kernel("head_start", 2'000, 60'000, 12),
                                                kernel("add", 40'500, 70'000), window_end(70'200)},
                                               harness_stream);
    BOOST_TEST_REQUIRE(profile.early.size() == 1u);
    BOOST_TEST(profile.early[0].name == "head_start");
    BOOST_TEST(profile.early[0].ns_before_window_start == 38'000.0);
    BOOST_TEST(profile.late.empty());
}

BOOST_AUTO_TEST_CASE(early_work_is_listed_earliest_first) {
    const fb::Profile profile = fb::profile_of({flush(0, 100'000), kernel("a", 90'000, 110'000, 12),
                                                kernel("b", 5'000, 110'000, 13), window_end(200'000)},
                                               harness_stream);
    BOOST_TEST_REQUIRE(profile.early.size() == 2u);
    BOOST_TEST(profile.early[0].name == "b");
    BOOST_TEST(profile.early[1].name == "a");
}

BOOST_AUTO_TEST_CASE(late_work_is_listed_latest_first) {
    const fb::Profile profile = fb::profile_of({flush(0, 900), window_end(10'000), kernel("a", 1'000, 20'000),
                                                kernel("b", 1'000, 900'000), kernel("c", 1'000, 50'000)},
                                               harness_stream);
    BOOST_TEST_REQUIRE(profile.late.size() == 3u);
    BOOST_TEST(profile.late[0].name == "b");
    BOOST_TEST(profile.late[1].name == "c");
    BOOST_TEST(profile.late[2].name == "a");
}

BOOST_AUTO_TEST_CASE(edges_within_the_clocks_granularity_are_neither_early_nor_late) {
    const fb::Profile profile =
        fb::profile_of({flush(0, 1'500), kernel("add", 1'000, 10'900), window_end(10'000)}, harness_stream);
    BOOST_TEST(profile.late.empty());
    BOOST_TEST(profile.early.empty());
}

BOOST_AUTO_TEST_CASE(the_harness_work_is_not_in_the_table_but_the_calls_own_memsets_are) {
    const fb::Profile profile = fb::profile_of(
        {flush(0, 300), memset_on(bench_stream, 400, 800, 4096), kernel("add", 900, 5'000), window_end(5'200)},
        harness_stream);
    BOOST_TEST_REQUIRE(profile.kernels.kernels.size() == 2u);
    BOOST_TEST_REQUIRE(row(profile.kernels, "[CUDA memset]") != nullptr);
    BOOST_TEST(row(profile.kernels, "[CUDA memset]")->launches == 1);
    BOOST_TEST(row(profile.kernels, "[CUDA memset]")->time_ns == 400.0);
    // A copy or a set is in the table, but not one of the call's kernels.
    BOOST_TEST((profile.launched == std::set<std::string>{"add"}));
    BOOST_TEST(profile.kernels.profiler->total_ns == 4'500.0);
}

BOOST_AUTO_TEST_CASE(a_calls_memset_shaped_like_the_marker_ends_no_window) {
    // A call's memset of the marker's size on its own stream, last of all, is the
    // call's work: the window still ends at the harness's marker, so the kernel
    // that ran past it is late, and the look-alike is in the table.
    const fb::Profile profile =
        fb::profile_of({flush(0, 300), kernel("add", 1'000, 50'000), window_end(10'000),
                        memset_on(bench_stream, 60'000, 60'800, 4)},
                       harness_stream);
    BOOST_TEST_REQUIRE(profile.late.size() == 2u);
    BOOST_TEST(profile.late[0].name == "[CUDA memset]");
    BOOST_TEST(profile.late[1].name == "add");
    BOOST_TEST_REQUIRE(row(profile.kernels, "[CUDA memset]") != nullptr);
}

// Without both of the harness's records (CUPTI naming its stream otherwise, a
// record lost) the flush could sit in the call's table: there is no table.
BOOST_AUTO_TEST_CASE(without_the_flush_and_the_marker_there_is_no_table) {
    const auto refused = [](const std::vector<fb::DeviceActivity>& records, std::uint32_t stream) {
        BOOST_CHECK_THROW((void)fb::profile_of(records, stream), fb::BenchError);
    };
    refused({kernel("add", 0, 9'000'000)}, harness_stream);
    refused({kernel("add", 0, 90'000), window_end(10'000)}, harness_stream);
    // The harness's records reported on another stream id than the one asked about.
    refused({flush(0, 300), kernel("add", 900, 5'000), window_end(5'200)}, bench_stream + 1);
    refused({flush(0, 300), window_end(400), kernel("add", 900, 5'000), window_end(5'200)}, harness_stream);
}

BOOST_AUTO_TEST_CASE(launches_of_one_kernel_merge_into_one_row) {
    const fb::Profile profile = fb::profile_of(
        {flush(0, 10), kernel("add", 100, 1'000), kernel("add", 2'000, 3'500), window_end(4'000)}, harness_stream);
    BOOST_TEST_REQUIRE(profile.kernels.kernels.size() == 1u);
    BOOST_TEST(profile.kernels.kernels[0].launches == 2);
    BOOST_TEST(profile.kernels.kernels[0].time_ns == 2'400.0);
}
