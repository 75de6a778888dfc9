// A side's median call held to the memory's ceiling for the bytes the bench
// declares (beyond_memory_ceiling) and to the arithmetic's for its FLOPs
// (beyond_compute_ceiling), with made-up figures; the HOST compute peak; and
// the HOST memory ceiling raised to the run's fastest memory calibration.
#define BOOST_TEST_MODULE bench_physical_floor
#include <boost/test/unit_test.hpp>

#if defined(__x86_64__)
#include <cpuid.h>
#endif

#include <memory>
#include <optional>
#include <string>

#include "results/record.hpp"
#include "rules/physical_floor.hpp"
#include "runtime/calibration.hpp"
#include "runtime/host/compute_peak.hpp"
#include "runtime/runtime.hpp"

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

BOOST_AUTO_TEST_CASE(a_call_past_the_arithmetics_ceiling_times_its_margin_is_refused_with_the_figures) {
    const fb::ComputeCeiling ceiling{.gflops = 100.0, .margin = 8.0, .source = "a measurement"};
    // 2 TFLOP in 2 ms: 1e6 GFLOP/s, past 8 x 100; 1.6 TFLOP in 2 s: 800 GFLOP/s, at 8x, not past it.
    const auto why = fb::beyond_compute_ceiling(fb::Side::student, fb::Work{.flops = 2e12}, 2.0, ceiling);
    BOOST_TEST(has(why, "the student's median call (2 ms)"));
    BOOST_TEST(has(why, "2e+03 GFLOP that bench.work declares at 1e+06 GFLOP/s"));
    BOOST_TEST(has(why, "(100 GFLOP/s, a measurement; refused past 8x that)"));
    BOOST_TEST(has(why, "bench.work declares more FLOPs than the operation does"));
    BOOST_TEST(!fb::beyond_compute_ceiling(fb::Side::student, fb::Work{.flops = 1.6e12}, 2000.0, ceiling));
    BOOST_TEST(has(fb::beyond_compute_ceiling(fb::Side::reference, fb::Work{.flops = 1.6e12}, 1900.0, ceiling),
                   "the reference's median call"));
    // Declared bytes alone, no reading, or no ceiling: nothing is judged.
    BOOST_TEST(!fb::beyond_compute_ceiling(fb::Side::student, fb::Work{.bytes = 1e12}, 1e-6, ceiling));
    BOOST_TEST(!fb::beyond_compute_ceiling(fb::Side::student, fb::Work{.flops = 1e12}, 0.0, ceiling));
    BOOST_TEST(!fb::beyond_compute_ceiling(fb::Side::student, fb::Work{.flops = 1e12}, 1.0, fb::ComputeCeiling{}));
}

#if defined(__x86_64__)
// AMX's int8 dot products where the CPU has them (CPUID leaf 7, EDX bits 24-25)
// and Linux lets the process use them, refused past 2x; else the widest
// vectors' fp32 multiply-adds, refused past 8x.
BOOST_AUTO_TEST_CASE(the_host_compute_peak_is_measured_on_the_densest_arithmetic) {
    const fb::ComputePeak peak = fb::measure_compute_peak();
    // Any x86-64 core does 4 fp32 lanes of a multiply and an add a cycle at 1 GHz or more.
    BOOST_TEST(peak.gflops > 4.0);
    BOOST_TEST(peak.threads >= 1U);
    if (peak.instructions == "amx-int8") {
        unsigned eax = 0;
        unsigned ebx = 0;
        unsigned ecx = 0;
        unsigned edx = 0;
        BOOST_TEST_REQUIRE(__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx) != 0);
        BOOST_TEST((edx & (1U << 24)) != 0U);  // AMX-TILE
        BOOST_TEST((edx & (1U << 25)) != 0U);  // AMX-INT8
        BOOST_TEST(peak.margin == 2.0);
        return;
    }
    __builtin_cpu_init();
    const std::string widest = __builtin_cpu_supports("avx512f")                                 ? "avx512f"
                               : __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") ? "avx2+fma"
                                                                                                 : "sse2";
    BOOST_TEST(peak.instructions == widest);
    BOOST_TEST(peak.margin == 8.0);
}
#endif

// 8 MiB (8.39 MB) read in 0.25 ms at the fastest: 33.6 GB/s, wherever the
// reading sits (before the first round or after any round, any workload); a
// workload without rounds gives nothing.
BOOST_AUTO_TEST_CASE(the_fastest_memory_calibration_of_the_run_gives_its_bandwidth) {
    fb::RunRecord record;
    BOOST_TEST(!fb::fastest_memory_calibration_gbps(record));
    fb::WorkloadRecord unmeasured;
    unmeasured.memory_calibration_before_ms = 0.01;
    record.workloads.push_back(unmeasured);
    BOOST_TEST(!fb::fastest_memory_calibration_gbps(record));

    fb::WorkloadRecord first;
    first.memory_calibration_before_ms = 0.6;
    first.rounds.resize(3);
    first.rounds[0].memory_calibration_ms = 0.9;
    first.rounds[1].memory_calibration_ms = 0.25;
    first.rounds[2].memory_calibration_ms = 0.0;  // not read: no reading, not an infinitely fast one
    record.workloads.push_back(first);
    fb::WorkloadRecord second;
    second.memory_calibration_before_ms = 0.3;
    second.rounds.resize(1);
    second.rounds[0].memory_calibration_ms = 1.2;
    record.workloads.push_back(second);

    const std::optional<double> gbps = fb::fastest_memory_calibration_gbps(record);
    BOOST_TEST_REQUIRE(gbps.has_value());
    BOOST_TEST(*gbps == static_cast<double>(fb::memory_calibration_bytes) / 0.25e6,
               boost::test_tools::tolerance(1e-12));
}

// A neighbour busy through both measurements of the HOST buffer keeps them
// low; the run's calibrations, read between rounds all along, then raise the
// ceiling (here a made-up 1e6 GB/s, past any measurement) and say so. Slower
// calibrations leave the measurement as the ceiling.
BOOST_AUTO_TEST_CASE(a_faster_memory_calibration_raises_the_host_ceiling_measured_again) {
    const std::unique_ptr<fb::Runtime> runtime = fb::make_host_runtime(0);
    const std::optional<fb::MemoryCeiling> at_start = runtime->memory_ceiling();
    BOOST_TEST_REQUIRE(at_start.has_value());  // else the flush does not evict, and no ceiling holds
    BOOST_TEST(runtime->device_facts()["memory_bandwidth"]["calibration_gbps"].is_null());

    const std::optional<fb::MemoryCeiling> again = runtime->memory_ceiling_measured_again(1e6);
    BOOST_TEST_REQUIRE(again.has_value());
    BOOST_TEST(again->gbps == 1e6);
    BOOST_TEST(again->margin == 2.0);
    BOOST_TEST(has(again->source, "the run's fastest memory calibration"));
    BOOST_TEST(has(again->source, "faster than the best of a"));
    BOOST_TEST(has(again->source, "at the run's start and again at its end"));
    const auto facts = runtime->device_facts()["memory_bandwidth"];
    BOOST_TEST(facts["measured_again"] == true);
    BOOST_TEST(facts["calibration_gbps"] == 1e6);

    const std::unique_ptr<fb::Runtime> slower = fb::make_host_runtime(0);
    const std::optional<fb::MemoryCeiling> measured = slower->memory_ceiling_measured_again(1e-6);
    BOOST_TEST_REQUIRE(measured.has_value());
    BOOST_TEST(measured->gbps == slower->device_facts()["memory_bandwidth"]["gbps"].get<double>());
    BOOST_TEST(has(measured->source, "(device.memory_bandwidth)"));
    BOOST_TEST(!has(measured->source, "calibration"));
}
