// Throughput beside time: a workload's declared work over a side's median time,
// and the run's geometric mean (values worked out by hand).
#define BOOST_TEST_MODULE bench_throughput
#include <boost/test/unit_test.hpp>

#include <optional>
#include <vector>

#include "forge/bench/bench.hpp"
#include "definition.hpp"
#include "rules/throughput.hpp"

namespace fb = forge::bench;
namespace tt = boost::test_tools;

BOOST_AUTO_TEST_CASE(gflops_and_gbps_are_the_work_over_the_time) {
    // A 4096^3 GEMM (2 * 4096^3 = 1.374e11 flops) in 2 ms: 68.72 TFLOP/s;
    // 3 * 4096^2 fp32 matrices (201.3 MB) in 2 ms: 100.7 GB/s.
    const fb::Work work{.flops = 2.0 * 4096.0 * 4096.0 * 4096.0, .bytes = 4.0 * 3 * 4096.0 * 4096.0};
    const fb::SideThroughput t = fb::throughput(work, 2.0, std::nullopt);
    BOOST_TEST(*t.gflops == 68719.476736, tt::tolerance(1e-12));
    BOOST_TEST(*t.gbps == 100.663296, tt::tolerance(1e-12));
    BOOST_TEST(!t.peak_dram_bandwidth_fraction);  // no peak known (HOST)
}

BOOST_AUTO_TEST_CASE(the_peak_fraction_is_the_bandwidth_over_the_devices_peak) {
    // 1e9 bytes in 0.5 ms: 2000 GB/s of a 4000 GB/s peak.
    const fb::SideThroughput t = fb::throughput({.bytes = 1e9}, 0.5, 4000.0);
    BOOST_TEST(*t.gbps == 2000.0);
    BOOST_TEST(*t.peak_dram_bandwidth_fraction == 0.5);
    BOOST_TEST(!t.gflops);  // no flops declared, no figure
}

BOOST_AUTO_TEST_CASE(a_time_the_clock_could_not_resolve_gives_no_figure) {
    const fb::Work work{.flops = 1e9, .bytes = 1e9};
    for (double ms : {0.0, -1.0}) {
        const fb::SideThroughput t = fb::throughput(work, ms, 1000.0);
        BOOST_TEST((!t.gflops && !t.gbps && !t.peak_dram_bandwidth_fraction));
    }
}

BOOST_AUTO_TEST_CASE(the_runs_figure_is_the_geometric_mean_when_every_workload_has_one) {
    const std::vector<std::optional<double>> all{100.0, 400.0};
    BOOST_TEST(*fb::geomean_of_all(all) == 200.0, tt::tolerance(1e-12));
    const std::vector<std::optional<double>> one_missing{100.0, std::nullopt};
    BOOST_TEST(!fb::geomean_of_all(one_missing));
    const std::vector<std::optional<double>> one_zero{100.0, 0.0};
    BOOST_TEST(!fb::geomean_of_all(one_zero));
    BOOST_TEST(!fb::geomean_of_all(std::vector<std::optional<double>>{}));
}

BOOST_AUTO_TEST_CASE(a_negative_or_non_finite_count_is_a_problem_naming_the_workload) {
    fb::Bench bench{fb::Backend::host};
    bench.workload("a", {{"n", 4}}, 1).workload("b", {{"n", -4}}, 2);
    bench.work([](const fb::Workload& w) { return fb::Work{.bytes = 4.0 * static_cast<double>(w["n"])}; });
    bool named = false;
    for (const std::string& problem : fb::BenchDefinition(bench).problems()) {
        named = named || problem.find("work() for workload 'b' gives bytes = -16") != std::string::npos;
        BOOST_TEST(problem.find("workload 'a'") == std::string::npos);
    }
    BOOST_TEST(named);
    // A parameter the workload lacks is a problem too, not an exception.
    bench.work([](const fb::Workload& w) { return fb::Work{.flops = static_cast<double>(w["k"])}; });
    bool missing = false;
    for (const std::string& problem : fb::BenchDefinition(bench).problems()) {
        missing = missing || problem.find("work(): workload 'a' has no parameter 'k'") != std::string::npos;
    }
    BOOST_TEST(missing);
}
