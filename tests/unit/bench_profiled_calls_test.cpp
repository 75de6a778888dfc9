#define BOOST_TEST_MODULE bench_profiled_calls
#include <boost/test/unit_test.hpp>

#include <stdexcept>
#include <vector>

#include "profiled_calls.hpp"

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

BOOST_AUTO_TEST_CASE(no_calls_is_refused) {
    BOOST_CHECK_THROW((void)fb::median_per_call(std::vector<forge::KernelTable>{}), std::invalid_argument);
}
