// A side's median call held to the memory's ceiling for the bytes the bench
// declares (beyond_memory_ceiling), with made-up figures.
#define BOOST_TEST_MODULE bench_physical_floor
#include <boost/test/unit_test.hpp>

#include <optional>
#include <string>

#include "rules/physical_floor.hpp"

namespace fb = forge::bench;

namespace {

const fb::MemoryCeiling host_ceiling{.gbps = 10.0, .margin = 2.0, .source = "a measurement"};

bool has(const std::optional<std::string>& text, const std::string& part) {
    return text && text->find(part) != std::string::npos;
}

}  // namespace

BOOST_AUTO_TEST_CASE(a_call_past_the_ceiling_times_its_margin_is_refused_with_the_figures) {
    // 100 MB in 4 ms: 25 GB/s, past 2 x 10 GB/s.
    const auto why = fb::beyond_memory_ceiling(fb::Side::student, fb::Work{.bytes = 100e6}, 4.0, host_ceiling);
    BOOST_TEST(has(why, "the student's median call (4 ms)"));
    BOOST_TEST(has(why, "100 MB"));
    BOOST_TEST(has(why, "25 GB/s"));
    BOOST_TEST(has(why, "(10 GB/s, a measurement; refused past 2x that)"));
    BOOST_TEST(has(why, "bench.work declares more bytes than the operation moves"));
}

BOOST_AUTO_TEST_CASE(a_call_within_the_margin_is_not) {
    // 100 MB in 5 ms: 20 GB/s, exactly 2 x 10 GB/s; and 10 ms, at the ceiling.
    BOOST_TEST(!fb::beyond_memory_ceiling(fb::Side::student, fb::Work{.bytes = 100e6}, 5.0, host_ceiling));
    BOOST_TEST(!fb::beyond_memory_ceiling(fb::Side::reference, fb::Work{.bytes = 100e6}, 10.0, host_ceiling));
    const fb::MemoryCeiling peak{.gbps = 4800.0, .margin = 1.1, .source = "the device's peak"};
    // 1 GB in 0.2 ms: 5000 GB/s, within 1.1 x 4800; in 0.18 ms, past it, and the reference too.
    BOOST_TEST(!fb::beyond_memory_ceiling(fb::Side::reference, fb::Work{.bytes = 1e9}, 0.2, peak));
    BOOST_TEST(has(fb::beyond_memory_ceiling(fb::Side::reference, fb::Work{.bytes = 1e9}, 0.18, peak),
                   "the reference's median call"));
}

BOOST_AUTO_TEST_CASE(nothing_is_judged_without_declared_bytes_or_a_reading) {
    BOOST_TEST(!fb::beyond_memory_ceiling(fb::Side::student, fb::Work{.flops = 1e12}, 1e-6, host_ceiling));
    BOOST_TEST(!fb::beyond_memory_ceiling(fb::Side::student, fb::Work{.bytes = 1e9}, 0.0, host_ceiling));
    BOOST_TEST(!fb::beyond_memory_ceiling(fb::Side::student, fb::Work{.bytes = 1e9}, 1.0, fb::MemoryCeiling{}));
}
