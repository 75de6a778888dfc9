// The HOST cache flush: where the machine reports its L3 only as a figure that
// may be the package's, the sweep a round needs is measured, and a flush of
// twice that evicts a working set the timing thread warmed.
#define BOOST_TEST_MODULE bench_cache_flush
#include <boost/test/unit_test.hpp>

#include <cstddef>
#include <optional>
#include <vector>

#include "runtime/host/cache_flush.hpp"
#include "runtime/host/flush_probe.hpp"
#include "runtime/host/timing_thread.hpp"

namespace fb = forge::bench;

namespace {

constexpr std::size_t mib = std::size_t{1} << 20;

}  // namespace

BOOST_AUTO_TEST_CASE(a_measured_sweep_is_the_smallest_that_evicted_and_twice_it_flushes) {
    const fb::TimingThreadPin pin;
    const std::vector<int> helpers = pin.other_cpus(3);
    // As if the machine reported a 1 GiB L3, as a VM's CPUID can for a package.
    const std::optional<fb::SweepReach> reach = fb::measure_sweep_reach(1024 * mib, helpers);
    if (!reach) {
        BOOST_TEST_MESSAGE("no sweep below 1 GiB evicted the working set on this machine: its L3 reaches that far");
        return;
    }
    BOOST_TEST(reach->bytes >= 4 * mib);
    BOOST_TEST(reach->bytes < 1024 * mib);
    BOOST_TEST((reach->bytes & (reach->bytes - 1)) == 0u);  // 4 MiB doubled
    BOOST_TEST(reach->evicted_ms >= fb::FlushProbe::effective_slowdown * reach->warm_ms);
    BOOST_TEST_REQUIRE(!reach->readings.empty());
    for (std::size_t i = 0; i < reach->readings.size(); ++i) {
        const fb::SweepReach::Reading& r = reach->readings[i];
        BOOST_TEST(r.bytes == (4 * mib) << i);
        // Every sweep tried before the last left the working set partly cached.
        BOOST_TEST((r.evicted_fraction >= fb::evicted_way) == (i + 1 == reach->readings.size()));
    }
    BOOST_TEST(reach->readings.back().bytes == reach->bytes);

    // What the rounds rely on: a flush of twice the measured sweep evicts.
    fb::CacheFlusher flusher(2 * reach->bytes, helpers);
    const fb::FlushProbe probe = fb::probe_flush(flusher, reach->bytes);
    BOOST_TEST(probe.effective(), "warm " << probe.warm_ms << " ms, after the flush " << probe.flushed_ms << " ms");
}

BOOST_AUTO_TEST_CASE(with_no_sweep_below_the_reported_cache_to_try_none_is_measured) {
    const fb::TimingThreadPin pin;
    BOOST_TEST(!fb::measure_sweep_reach(4 * mib, pin.other_cpus(3)).has_value());
}

BOOST_AUTO_TEST_CASE(the_cache_to_sweep_is_measured_only_where_sysconf_alone_reports_it) {
    const fb::CacheToSweep swept = fb::cache_to_sweep({});
    BOOST_TEST(swept.reported.bytes == fb::last_level_cache().bytes);
    if (swept.reported.source != "sysconf") BOOST_TEST(!swept.reach.has_value());
    if (swept.reach) {
        BOOST_TEST(swept.cache().source == "measured");
        BOOST_TEST(swept.cache().bytes == swept.reach->bytes);
        BOOST_TEST(swept.cache().bytes < swept.reported.bytes);
    } else {
        BOOST_TEST(swept.cache().bytes == swept.reported.bytes);
        BOOST_TEST(swept.cache().source == swept.reported.source);
    }
}
