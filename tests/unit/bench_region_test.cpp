#define BOOST_TEST_MODULE bench_region
#include <boost/test/unit_test.hpp>

#include <chrono>
#include <stdexcept>
#include <thread>

#include "forge/bench/region.hpp"
#include "regions.hpp"

namespace fb = forge::bench;

namespace {

void busy_for(std::chrono::microseconds duration) {
    const auto end = std::chrono::steady_clock::now() + duration;
    while (std::chrono::steady_clock::now() < end) {
    }
}

}  // namespace

BOOST_AUTO_TEST_CASE(regions_outside_a_recording_record_nothing) {
    { fb::region r{"ignored"}; }
    fb::RegionRecording recording;
    BOOST_TEST(recording.rows().empty());
}

BOOST_AUTO_TEST_CASE(nested_time_is_counted_once_in_the_inner_region) {
    fb::RegionRecording recording;
    const auto start = std::chrono::steady_clock::now();
    {
        fb::region outer{"outer"};
        busy_for(std::chrono::microseconds(2000));
        {
            fb::region inner{"inner"};
            busy_for(std::chrono::microseconds(6000));
        }
    }
    const double total_ns = std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count();
    const auto rows = recording.rows();
    BOOST_TEST_REQUIRE(rows.size() == 2u);
    BOOST_TEST(rows[0].name == "inner");  // exit order
    BOOST_TEST(rows[1].name == "outer");
    BOOST_TEST(rows[0].time_ns >= 6e6);
    BOOST_TEST(rows[1].time_ns >= 2e6);
    // outer's own time excludes inner's: together they fit in the wall time once
    // (counted in both, they would exceed it by inner's 6 ms).
    BOOST_TEST(rows[0].time_ns + rows[1].time_ns <= total_ns);
}

BOOST_AUTO_TEST_CASE(a_region_entered_twice_is_two_launches) {
    fb::RegionRecording recording;
    for (int i = 0; i < 2; ++i) {
        fb::region r{"step"};
    }
    const forge::KernelTable table = forge::merge_by_name(recording.rows());
    BOOST_TEST_REQUIRE(table.kernels.size() == 1u);
    BOOST_TEST(table.kernels[0].launches == 2);
}

BOOST_AUTO_TEST_CASE(one_recording_at_a_time) {
    fb::RegionRecording recording;
    BOOST_CHECK_THROW(fb::RegionRecording second, std::logic_error);
}
