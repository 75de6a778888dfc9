#define BOOST_TEST_MODULE bench_profiled_calls
#include <boost/test/unit_test.hpp>

#include <stdexcept>
#include <vector>

#include "rules/profiled_calls.hpp"

namespace fb = forge::bench;
namespace tt = boost::test_tools;

namespace {

forge::KernelTable call(double stats_ns, double main_ns) {
    forge::KernelTable table;
    if (stats_ns > 0) table.kernels.push_back({"rebuild_stats", 1, stats_ns, 0.0});
    table.kernels.push_back({"main", 2, main_ns, 0.0});
    table.profiler = forge::ProfilerDigest{stats_ns + main_ns, 1};
    return table;
}

}  // namespace

// One call 35% slow (the case that voided a real card's credit) moves nothing.
BOOST_AUTO_TEST_CASE(each_kernel_is_its_median_per_call_so_one_noisy_call_moves_nothing) {
    const std::vector<forge::KernelTable> calls{call(100, 900), call(135, 1215), call(102, 905)};
    const forge::KernelTable table = fb::median_per_call(calls);
    BOOST_TEST_REQUIRE(table.kernels.size() == 2u);
    BOOST_TEST(table.kernels[0].name == "rebuild_stats");
    BOOST_TEST(table.kernels[0].time_ns == 3 * 102.0, tt::tolerance(1e-12));
    BOOST_TEST(table.kernels[0].launches == 3);
    BOOST_TEST(table.kernels[1].time_ns == 3 * 905.0, tt::tolerance(1e-12));
    BOOST_TEST(table.kernels[1].launches == 6);
    BOOST_TEST_REQUIRE(table.profiler.has_value());
    BOOST_TEST(table.profiler->calls == 3);
    // Per call: the digest's total / calls.
    BOOST_TEST(table.profiler->total_ns / 3 == 1007.0, tt::tolerance(1e-12));
    BOOST_TEST(table.kernels[0].pct == 100.0 * 102 / 1007, tt::tolerance(1e-9));
}

BOOST_AUTO_TEST_CASE(a_kernel_missing_from_a_call_counts_zero_there) {
    const std::vector<forge::KernelTable> calls{call(0, 900), call(100, 900), call(0, 900)};
    const forge::KernelTable table = fb::median_per_call(calls);
    BOOST_TEST_REQUIRE(table.kernels.size() == 2u);
    BOOST_TEST(table.kernels[0].name == "main");  // first seen
    BOOST_TEST(table.kernels[1].name == "rebuild_stats");
    BOOST_TEST(table.kernels[1].time_ns == 0.0);
}

// A call the profiler could not read is left out, not read as zero time; with
// none read there is no table (and so no coverage, and no more calls asked for).
BOOST_AUTO_TEST_CASE(a_call_without_a_profile_is_no_table_not_a_zero_time_one) {
    const std::vector<forge::KernelTable> some{call(100, 900), forge::KernelTable{}, call(110, 910)};
    const forge::KernelTable table = fb::median_per_call(some);
    BOOST_TEST_REQUIRE(table.profiler.has_value());
    BOOST_TEST(table.profiler->calls == 2);
    BOOST_TEST(table.kernels[0].time_ns == 2 * 105.0, tt::tolerance(1e-12));
    const std::vector<forge::KernelTable> none(3);
    const forge::KernelTable unprofiled = fb::median_per_call(none);
    BOOST_TEST(unprofiled.kernels.empty());
    BOOST_TEST(!unprofiled.profiler.has_value());
    BOOST_TEST(fb::ProfiledCallCount{}.wanted(unprofiled, 3, 1.0) == 3u);
}

BOOST_AUTO_TEST_CASE(no_calls_is_refused) {
    BOOST_CHECK_THROW((void)fb::median_per_call(std::vector<forge::KernelTable>{}), std::invalid_argument);
}

// Three calls at 1.3 ms per call against a 1.0 ms timed median: a credit would
// be refused (coverage 1.3), so three more; then 1.1 reconciles and no more.
BOOST_AUTO_TEST_CASE(a_table_off_the_timed_median_asks_for_more_calls_until_it_reconciles) {
    const fb::ProfiledCallCount count;
    const std::vector<forge::KernelTable> slow{call(130'000, 1'170'000), call(130'000, 1'170'000),
                                               call(130'000, 1'170'000)};
    BOOST_TEST(count.wanted(fb::median_per_call(slow), 3, 1.0) == 6u);
    BOOST_TEST(count.wanted(fb::median_per_call(slow), 3, 1.3) == 3u);
    std::vector<forge::KernelTable> settled = slow;
    for (int i = 0; i < 3; ++i) settled.push_back(call(100'000, 900'000));
    settled.push_back(call(110'000, 990'000));  // the median of 7: 1.1 ms per call
    BOOST_TEST(count.wanted(fb::median_per_call(settled), 7, 1.0) == 7u);
    // Inside the band on its low edge too.
    BOOST_TEST(count.wanted(fb::median_per_call(slow), 3, 1.3 / 0.81) == 3u);
    BOOST_TEST(count.wanted(fb::median_per_call(slow), 3, 1.3 / 0.79) == 6u);
}

// A profile that does not describe the call stays out of band at any count:
// the calls stop at `most`, and the credit says so.
BOOST_AUTO_TEST_CASE(calls_stop_at_the_most_however_far_off_the_table_reads) {
    const fb::ProfiledCallCount count;
    const std::vector<forge::KernelTable> half{call(50'000, 450'000)};
    BOOST_TEST(count.wanted(fb::median_per_call(half), 12, 1.0) == 15u);
    BOOST_TEST(count.wanted(fb::median_per_call(half), 14, 1.0) == 15u);
    BOOST_TEST(count.wanted(fb::median_per_call(half), 15, 1.0) == 15u);
}

// No coverage can be read (no digest, an empty table, no timed median): nothing
// to reconcile, no more calls.
BOOST_AUTO_TEST_CASE(no_coverage_asks_for_no_more_calls) {
    const fb::ProfiledCallCount count;
    forge::KernelTable unprofiled;
    BOOST_TEST(count.wanted(unprofiled, 3, 1.0) == 3u);
    const std::vector<forge::KernelTable> calls{call(100'000, 900'000)};
    BOOST_TEST(count.wanted(fb::median_per_call(calls), 3, 0.0) == 3u);
}
