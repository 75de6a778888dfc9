#define BOOST_TEST_MODULE bench_harness
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include <sys/mman.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include "forge/bench/bench.hpp"
#include "forge/bench/run.hpp"
#include "forge/contract/contract.hpp"
#include "forge/eval/eval.hpp"
#include "forge/exit_code.hpp"
#include "forge/io/file.hpp"
#include "forge/stats/ratio_interval.hpp"
#include "bench_add_operator.hpp"
#include "definition.hpp"
#include "harness/workload_run.hpp"
#include "results/record.hpp"
#include "rules/page_faults.hpp"
#include "rules/round_schedule.hpp"
#include "runtime/runtime.hpp"

namespace fb = forge::bench;
using nlohmann::json;

namespace {

fb::Bench add_bench(std::size_t workloads = 3) {
    fb::Bench b{fb::Backend::host};
    for (std::size_t i = 0; i < workloads; ++i) {
        const std::int64_t n = 256 << i;
        b.workload("n" + std::to_string(n), {{"n", n}}, i + 1);
    }
    add_tensors(b);
    b.reference(add);
    b.student(add);
    return b;
}

void add_with_s(fb::Io& io) {
    const auto s = io.in("s").span<const float>();
    const auto b = io.in("b").span<const float>();
    auto c = io.out("c").span<float>();
    for (std::size_t i = 0; i < c.size(); ++i) c[i] = 0.5F * s[i] + b[i];
}

void double_a(fb::PrepIo& io) {
    const auto a = io.in("a").span<const float>();
    auto s = io.out("s", {static_cast<std::int64_t>(a.size())}, fb::DType::fp32).span<float>();
    for (std::size_t i = 0; i < a.size(); ++i) s[i] = 2.0F * a[i];
}

fb::Bench prep_bench() {
    fb::Bench b{fb::Backend::host};
    for (int i = 0; i < 3; ++i) b.workload("w" + std::to_string(i), {{"n", 256}}, 10 + i);
    add_tensors(b);
    b.reference(add_with_s);
    b.student(add_with_s);
    b.prep(double_a);
    return b;
}

bool any_problem_has(const fb::RunResult& result, std::initializer_list<std::string> texts) {
    for (const std::string& problem : result.problems) {
        bool all = true;
        for (const std::string& text : texts) all = all && problem.find(text) != std::string::npos;
        if (all) return true;
    }
    return false;
}

}  // namespace

BOOST_AUTO_TEST_CASE(a_symmetric_run_reports_every_key_of_eval_json) {
    fb::RunOptions options = quick_options();
    options.host_flush_bytes = 0;  // the flush a bench gets: twice the last-level cache
    const fb::RunResult result = fb::run(add_bench(), add_contract(), options);
    BOOST_TEST(result.exit_code == forge::exit_code::ok);
    const json& e = result.eval;
    const json& machine = e["device"];
    BOOST_TEST(machine["flush_bytes"] == 2 * machine["last_level_cache_bytes"].get<std::size_t>());
    BOOST_TEST(machine["flush_probe"]["effective"].is_boolean());
    // The reported L3 may be the package's: the sweep is measured below it.
    BOOST_REQUIRE(machine.contains("sweep_reach"));
    const json& reach = machine["sweep_reach"];
    BOOST_TEST(reach.is_null() == (machine["last_level_cache_source"] != "measured"));
    if (!reach.is_null()) {
        BOOST_TEST(reach["reported_bytes"].get<std::size_t>() > machine["last_level_cache_bytes"].get<std::size_t>());
        BOOST_TEST(reach["readings"].back()["bytes"] == machine["last_level_cache_bytes"]);
    }
    BOOST_TEST(!any_has(result.notices, {"the cache flush was set to"}));
    // The huge page mode the tensors were mapped under, and a notice when it refuses them.
    BOOST_REQUIRE(machine.contains("transparent_huge_pages"));
    const json& huge_pages = machine["transparent_huge_pages"];
    BOOST_TEST((huge_pages.is_null() || huge_pages == "always" || huge_pages == "madvise" || huge_pages == "never"));
    BOOST_TEST(any_has(result.notices, {"transparent huge pages are off"}) == (huge_pages == "never"));
    BOOST_TEST(e["schema_version"] == 1);
    BOOST_TEST(e["operator"] == "add");
    BOOST_TEST(e["backend"] == "host");
    BOOST_TEST(e["device"]["name"].is_string());
    BOOST_TEST(e["correctness"]["passed"] == true);
    const json& c = e["correctness"]["outputs"]["c"];
    for (const char* key : {"max_abs_error", "max_rel_error", "atol", "rtol"}) BOOST_TEST(c[key].is_number(), key);
    BOOST_TEST(c["max_abs_error"] == 0.0);  // the same code on the same inputs

    const json& p = e["performance"];
    BOOST_TEST(p["mode"] == "per_call");
    BOOST_TEST(p["n_workloads"] == 3);
    BOOST_TEST(p["prep"].is_null());
    for (const char* key : {"reference_ms", "student_ms", "ratio"}) BOOST_TEST(p[key].get<double>() > 0.0, key);
    BOOST_TEST_REQUIRE(p["workloads"].size() == 3u);
    for (const json& w : p["workloads"]) {
        BOOST_TEST(w["name"].is_string());
        for (const char* key : {"reference_ms", "student_ms", "ratio"}) BOOST_TEST(w[key].get<double>() > 0.0, key);
        for (const char* side : {"reference", "student"}) {
            BOOST_TEST(w["pipelined"][side + std::string("_ms")].get<double>() > 0.0);
            const json& s = w["samples"][side];
            BOOST_TEST(s["n"].get<int>() >= 1);
            BOOST_TEST(s["min_ms"].get<double>() <= s["q1_ms"].get<double>());
            BOOST_TEST(s["q1_ms"].get<double>() <= s["median_ms"].get<double>());
            BOOST_TEST(s["median_ms"].get<double>() <= s["q3_ms"].get<double>());
            BOOST_TEST(w["kernels"][side].is_array());
            BOOST_TEST(w["profiler"][side]["calls"] == 3);  // median per call over three profiled calls
            BOOST_TEST(w["profiler"][side]["total_ns"].get<double>() > 0.0);
            BOOST_TEST(w["page_faults"][side].get<long>() >= 0);
            BOOST_TEST(w["page_faults"][side].get<long>() < fb::many_page_faults);
        }
        // Where its wall time went: parts that add up to no more than the total,
        // the measured part the counted rounds' calls.
        const json& wall = w["wall_time"];
        double parts_s = 0.0;
        for (const auto& [key, seconds] : wall.items()) {
            BOOST_TEST(seconds.get<double>() >= (key == "other_s" ? -1e-3 : 0.0), key);
            if (key != "total_s" && key != "measured_fraction") parts_s += seconds.get<double>();
        }
        BOOST_TEST(parts_s == wall["total_s"].get<double>(), boost::test_tools::tolerance(1e-6));
        double counted_s = 0.0;
        for (const json& round : w["rounds"]) {
            if (round["used"] == true) {
                counted_s += (round["reference_ms"].get<double>() + round["student_ms"].get<double>()) * 1e-3;
            }
        }
        BOOST_TEST(wall["measured_s"].get<double>() == counted_s, boost::test_tools::tolerance(1e-6));
        BOOST_TEST(
            wall["measured_fraction"].get<double>() == wall["measured_s"].get<double>() / wall["total_s"].get<double>(),
            boost::test_tools::tolerance(1e-9));
        // The reported per-workload reading is the median of the samples.
        BOOST_TEST(w["reference_ms"] == w["samples"]["reference"]["median_ms"]);
        // The ratio comes with its interval and verdict.
        const double low = w["ratio_ci"][0].get<double>();
        const double high = w["ratio_ci"][1].get<double>();
        BOOST_TEST(low <= w["ratio"].get<double>());
        BOOST_TEST(w["ratio"].get<double>() <= high);
        BOOST_TEST(w["verdict"].is_string());
        BOOST_TEST(w["precision_reached"].is_boolean());
    }
    BOOST_TEST(p["ratio_ci"].size() == 2u);
    BOOST_TEST(p["ratio_ci"][0].get<double>() <= p["ratio"].get<double>());
    BOOST_TEST(p["ratio"].get<double>() <= p["ratio_ci"][1].get<double>());
    BOOST_TEST(p["precision_reached"].is_boolean());
    BOOST_TEST(p["stopping"]["criterion"] == "paired-ratio-precision");
    BOOST_TEST(p["stopping"]["preset"] == "quick");  // a --quick ratio is never taken for one to keep
    BOOST_TEST(!any_has(result.notices, {"page faults each"}));
}

// A flush the caller made smaller than a cold sample needs is recorded, and said.
BOOST_AUTO_TEST_CASE(a_flush_under_twice_the_last_level_cache_is_recorded_and_said) {
    const fb::RunResult result = quick_run(add_bench(), add_contract());
    const json& machine = result.eval["device"];
    BOOST_TEST(machine["flush_bytes"] == quick_options().host_flush_bytes);
    const bool under = quick_options().host_flush_bytes < 2 * machine["last_level_cache_bytes"].get<std::size_t>();
    BOOST_TEST(any_has(result.notices, {"the cache flush was set to", "under twice the last-level cache"}) == under);
}

// Every round times both sides on one input variant, each order with each
// variant, never one layout's tensors twice running with the same contents
// (RoundSchedule); some rounds on fresh inputs, each its own variant; the rounds in eval.json recompute the workload's ratio and interval.
BOOST_AUTO_TEST_CASE(rounds_pair_both_sides_in_alternating_order_and_recompute_the_ratio) {
    const fb::RunResult result = quick_run(add_bench(), add_contract());
    BOOST_TEST_REQUIRE(result.exit_code == forge::exit_code::ok);
    for (const json& w : result.eval["performance"]["workloads"]) {
        const json& rounds = w["rounds"];
        BOOST_TEST_REQUIRE(rounds.size() >= 8u);  // the quick minimum
        forge::stats::PairedRounds paired;
        double last_t = -1.0;
        std::set<std::pair<std::string, int>> orders_and_variants;
        std::map<std::size_t, int> last_variant_on_layout;
        std::set<int> fresh_variants;
        for (std::size_t r = 0; r < rounds.size(); ++r) {
            const int variant = rounds[r]["input_variant"].get<int>();
            const auto layout = rounds[r]["layout"].get<std::size_t>();
            if (rounds[r]["fresh"] == true) {
                BOOST_TEST(variant >= 2);
                BOOST_TEST(fresh_variants.insert(variant).second, "round " << r << " repeats a fresh variant");
            } else {
                BOOST_TEST(variant < 2);
                orders_and_variants.emplace(rounds[r]["first"].get<std::string>(), variant);
            }
            if (const auto last = last_variant_on_layout.find(layout); last != last_variant_on_layout.end()) {
                BOOST_TEST(variant != last->second, "round " << r);
            }
            last_variant_on_layout[layout] = variant;
            BOOST_TEST(rounds[r]["t_s"].get<double>() >= last_t);
            last_t = rounds[r]["t_s"].get<double>();
            if (rounds[r]["used"] == false) continue;
            paired.log_ratios.push_back(
                std::log(rounds[r]["reference_ms"].get<double>() / rounds[r]["student_ms"].get<double>()));
            paired.clusters.push_back(rounds[r]["layout"].get<std::size_t>());
        }
        BOOST_TEST(orders_and_variants.size() == 4u);
        BOOST_TEST(fresh_variants.size() >= 2u);  // the quick minimum
        BOOST_TEST(w["reuse"]["fresh_rounds"].get<std::size_t>() <= fresh_variants.size());
        BOOST_TEST(w["reuse"]["student_gained"] == false);
        BOOST_TEST(w["reuse"]["reference_gained"] == false);
        // The ms columns come from the same rounds as the ratio.
        BOOST_TEST(w["samples"]["reference"]["n"] == paired.log_ratios.size());
        BOOST_TEST(w["samples"]["student"]["n"] == paired.log_ratios.size());
        const forge::stats::RatioInterval again = forge::stats::clustered_paired_ratio(paired);
        BOOST_TEST(w["ratio"].get<double>() == again.ratio, boost::test_tools::tolerance(1e-12));
        BOOST_TEST(w["ratio_ci"][0].get<double>() == again.low, boost::test_tools::tolerance(1e-12));
        BOOST_TEST(w["ratio_ci"][1].get<double>() == again.high, boost::test_tools::tolerance(1e-12));
    }
}

BOOST_AUTO_TEST_CASE(the_benchs_precision_is_recorded_and_the_command_lines_wins) {
    fb::Bench bench = add_bench();
    bench.precision(0.2);
    fb::RunOptions options = quick_options();
    BOOST_TEST(fb::run(bench, add_contract(), options).eval["performance"]["stopping"]["precision"] == 0.2);
    options.precision = 0.3;
    BOOST_TEST(fb::run(bench, add_contract(), options).eval["performance"]["stopping"]["precision"] == 0.3);
    bench.precision(1.5);
    BOOST_TEST(fb::run(bench, add_contract(), options).exit_code == forge::exit_code::usage);
}

BOOST_AUTO_TEST_CASE(fewer_than_three_workloads_is_refused) {
    const fb::RunResult result = quick_run(add_bench(2), add_contract());
    BOOST_TEST(result.exit_code == forge::exit_code::usage);
    BOOST_TEST(any_problem_has(result, {"2 workload(s)", "at least 3"}));
    BOOST_TEST(result.eval.is_null());  // nothing ran
}

BOOST_AUTO_TEST_CASE(asking_for_an_undeclared_tensor_is_an_error_naming_it_and_the_side) {
    fb::Bench bench = add_bench();
    bench.student([](fb::Io& io) {
        (void)io.in("mean");
        add(io);
    });
    const fb::RunResult result = quick_run(bench, add_contract());
    BOOST_TEST(result.exit_code == forge::exit_code::problems);
    BOOST_TEST(any_problem_has(result, {"'mean'", "student", "[student].inputs", "a, b"}));
    BOOST_TEST(result.eval["correctness"]["passed"] == false);
    BOOST_TEST(result.eval["performance"].is_null());
}

BOOST_AUTO_TEST_CASE(an_output_the_side_does_not_declare_is_refused_too) {
    forge::WindowContract contract = add_contract();
    contract.reference_outputs = {"c", "d"};
    forge::Asymmetry d;
    d.kind = forge::Kind::ref_output;
    d.name = "d";
    d.cls = "accept";
    contract.asymmetries.push_back(d);
    fb::Bench bench = add_bench();
    bench.outputs([](const fb::Workload& w) {
        return std::vector<fb::TensorSpec>{{"c", {w["n"]}, fb::DType::fp32}, {"d", {1}, fb::DType::fp32}};
    });
    bench.student([](fb::Io& io) {
        add(io);
        io.out("d").span<float>()[0] = 1.0F;  // only the reference declares d
    });
    const fb::RunResult result = quick_run(bench, contract);
    BOOST_TEST(result.exit_code == forge::exit_code::problems);
    BOOST_TEST(any_problem_has(result, {"output 'd'", "[student].outputs"}));
}

BOOST_AUTO_TEST_CASE(an_output_mismatch_fails_the_run) {
    fb::Bench bench = add_bench();
    bench.student([](fb::Io& io) {
        add(io);
        io.out("c").span<float>()[7] += 0.5F;
    });
    const fb::RunResult result = quick_run(bench, add_contract());
    BOOST_TEST(result.exit_code == forge::exit_code::problems);
    BOOST_TEST(result.eval["correctness"]["passed"] == false);
    const json& c = result.eval["correctness"]["outputs"]["c"];
    BOOST_TEST(c["passed"] == false);
    BOOST_TEST(c["max_abs_error"].get<double>() == 0.5, boost::test_tools::tolerance(1e-6));
    BOOST_TEST(any_problem_has(result, {"output 'c'", "first at element 7"}));
    BOOST_TEST(!result.eval["performance"].is_null());  // the numbers are still real and reported
}

// A side that does not repeat itself bit for bit, within its tolerance, passes
// and is told so once: a loose (quantized) tolerance also passes a read past
// an input's end. A side that repeats itself hears nothing.
BOOST_AUTO_TEST_CASE(outputs_that_vary_from_call_to_call_within_the_tolerance_are_a_notice) {
    const auto varying_notices = [](const fb::RunResult& result) {
        return std::count_if(result.notices.begin(), result.notices.end(), [](const std::string& n) {
            return n.find("the student's timed calls' outputs are not bit for bit") != std::string::npos;
        });
    };
    fb::Bench bench = add_bench();
    bench.tolerance("c", fb::RelativeL2{.max = 0.1});
    const fb::RunResult repeats = quick_run(bench, add_contract());
    BOOST_TEST_REQUIRE(repeats.exit_code == forge::exit_code::ok);
    BOOST_TEST(varying_notices(repeats) == 0);

    auto calls = std::make_shared<int>(0);
    bench.student([calls](fb::Io& io) {
        add(io);
        io.out("c").span<float>()[0] += 1e-3F * static_cast<float>(++*calls % 3);
    });
    const fb::RunResult varies = quick_run(bench, add_contract());
    BOOST_TEST_REQUIRE(varies.exit_code == forge::exit_code::ok);
    BOOST_TEST(varying_notices(varies) == 1);
}

// A failed check ends the standard-length rounds: what failed is said in
// seconds, each workload still with its comparisons and its times.
BOOST_AUTO_TEST_CASE(after_a_failed_check_the_rounds_are_quick_ones) {
    fb::Bench bench = add_bench();
    bench.student([](fb::Io& io) {
        add(io);
        io.out("c").span<float>()[7] += 0.5F;
    });
    fb::RunOptions options = quick_options();
    options.quick = false;
    const fb::RunResult result = fb::run(bench, add_contract(), options);
    BOOST_TEST(result.exit_code == forge::exit_code::problems);
    BOOST_TEST(result.eval["performance"]["stopping"]["preset"] == "standard");
    const json& workloads = result.eval["performance"]["workloads"];
    BOOST_TEST_REQUIRE(workloads.size() == 3u);
    for (const json& w : workloads) {
        BOOST_TEST(w["stopping"]["preset"] == "quick");
        BOOST_TEST(w["stopping"]["wall_s"].get<double>() < fb::StoppingParameters::standard().max_wall_s);
        BOOST_TEST(w["outputs"]["c"]["passed"] == false);
    }
    const auto shortened = std::count_if(result.notices.begin(), result.notices.end(), [](const std::string& n) {
        return n.find("timed at --quick's length") != std::string::npos;
    });
    BOOST_TEST(shortened == 1);  // said once, for the run
    // How precise or quiet a failed run's rounds were is no news.
    for (const std::string& notice : result.notices) BOOST_TEST(notice.find("rounds were quiet") == std::string::npos);
}

// One element off by 0.5 in c ~ N(0, 2) of n elements: relative L2 error about
// 0.5 / sqrt(2n), so 0.022 at n = 256 and 0.011 at n = 1024.
BOOST_AUTO_TEST_CASE(each_workload_reports_its_errors_and_the_comparison_applied) {
    fb::Bench bench = add_bench();
    bench.student([](fb::Io& io) {
        add(io);
        io.out("c").span<float>()[7] += 0.5F;
    });
    bench.tolerance("c", fb::RelativeL2{.max = 0.1});
    const fb::RunResult passed = quick_run(bench, add_contract());
    BOOST_TEST(passed.exit_code == forge::exit_code::ok);
    const json& run = passed.eval["correctness"]["outputs"]["c"];
    BOOST_TEST(run["comparison"] == "relative_l2");
    BOOST_TEST(run["threshold"] == 0.1);
    BOOST_TEST(!run.contains("atol"));
    std::vector<double> errors;
    for (const json& w : passed.eval["performance"]["workloads"]) {
        const json& c = w["outputs"]["c"];
        BOOST_TEST(c["comparison"] == "relative_l2");
        BOOST_TEST(c["threshold"] == 0.1);
        BOOST_TEST(c["passed"] == true);
        BOOST_TEST(c["max_abs_error"].get<double>() == 0.5, boost::test_tools::tolerance(1e-6));
        BOOST_TEST(c["max_rel_error"].get<double>() > 0.0);
        errors.push_back(c["relative_l2_error"].get<double>());
    }
    BOOST_TEST_REQUIRE(errors.size() == 3u);
    BOOST_TEST((errors[0] > errors[1] && errors[1] > errors[2]));  // the same error over more elements
    BOOST_TEST((errors[0] > 0.005 && errors[0] < 0.05));
    BOOST_TEST(run["relative_l2_error"] == errors[0]);  // the run's figure is the worst workload's

    bench.tolerance("c", fb::RelativeL2{.max = 1e-3});
    const fb::RunResult failed = quick_run(bench, add_contract());
    BOOST_TEST(failed.exit_code == forge::exit_code::problems);
    BOOST_TEST(any_problem_has(failed, {"output 'c'", "relative L2 error", "above the threshold 0.001"}));
    BOOST_TEST(failed.eval["performance"]["workloads"][0]["outputs"]["c"]["passed"] == false);
}

// An elementwise tolerance is reported with its atol and rtol, per workload too.
BOOST_AUTO_TEST_CASE(an_elementwise_output_reports_its_atol_and_rtol_per_workload) {
    const fb::RunResult result = quick_run(add_bench(), add_contract());
    for (const json& w : result.eval["performance"]["workloads"]) {
        const json& c = w["outputs"]["c"];
        BOOST_TEST(c["comparison"] == "elementwise");
        BOOST_TEST(c["atol"] == fb::default_tolerance(fb::DType::fp32).atol);
        BOOST_TEST(c["rtol"] == fb::default_tolerance(fb::DType::fp32).rtol);
        BOOST_TEST(c["relative_l2_error"] == 0.0);
        BOOST_TEST(c["non_finite"] == 0);
    }
}

namespace {

// c = (a + b) * scale, stored as the workload's output dtype: fp16 where its
// parameter "half" is 1, else fp32.
fb::Call add_as_declared(float scale) {
    return [scale](fb::Io& io) {
        const auto a = io.in("a").span<const float>();
        const auto b = io.in("b").span<const float>();
        fb::Tensor& c = io.out("c");
        if (c.dtype() == fb::DType::fp16) {
            auto out = c.span<fb::float16>();
            for (std::size_t i = 0; i < out.size(); ++i) out[i] = fb::to_float16((a[i] + b[i]) * scale);
        } else {
            auto out = c.span<float>();
            for (std::size_t i = 0; i < out.size(); ++i) out[i] = (a[i] + b[i]) * scale;
        }
    };
}

}  // namespace

// An output whose dtype differs between workloads is held, in each, to its own
// dtype's tolerance: a relative error of 5e-4 passes fp16's rtol 1e-3 and fails
// fp32's 1e-4, though the first workload's output is fp16.
BOOST_AUTO_TEST_CASE(each_workload_holds_an_output_to_its_own_dtypes_tolerance) {
    fb::Bench bench{fb::Backend::host};
    bench.workload("half", {{"n", 256}, {"half", 1}}, 1);
    bench.workload("single", {{"n", 256}, {"half", 0}}, 2);
    bench.workload("single_again", {{"n", 256}, {"half", 0}}, 3);
    bench.inputs([](const fb::Workload& w, fb::Rng& rng, fb::Tensors& in) {
        rng.normal(in.add("a", {w["n"]}, fb::DType::fp32));
        rng.normal(in.add("b", {w["n"]}, fb::DType::fp32));
    });
    bench.outputs([](const fb::Workload& w) {
        return std::vector<fb::TensorSpec>{{"c", {w["n"]}, w["half"] == 1 ? fb::DType::fp16 : fb::DType::fp32}};
    });
    bench.reference(add_as_declared(1.0F));
    bench.student(add_as_declared(1.0005F));
    const fb::RunResult result = quick_run(bench, add_contract());
    BOOST_TEST(result.exit_code == forge::exit_code::problems);
    BOOST_TEST(any_problem_has(result, {"workload 'single'", "output 'c' differs"}));
    BOOST_TEST(!any_problem_has(result, {"workload 'half'"}));
    const json& workloads = result.eval["performance"]["workloads"];
    BOOST_TEST(workloads[0]["outputs"]["c"]["rtol"] == fb::default_tolerance(fb::DType::fp16).rtol);
    BOOST_TEST(workloads[0]["outputs"]["c"]["passed"] == true);
    BOOST_TEST(workloads[1]["outputs"]["c"]["rtol"] == fb::default_tolerance(fb::DType::fp32).rtol);
    BOOST_TEST(workloads[1]["outputs"]["c"]["passed"] == false);
    // The run's entry holds no one threshold: the workloads' entries hold theirs.
    const json& run = result.eval["correctness"]["outputs"]["c"];
    BOOST_TEST(run["dtype"] == "per workload");
    BOOST_TEST(!run.contains("rtol"));
    BOOST_TEST(run["passed"] == false);
}

// The declared work over each side's median, written by the bench and read back
// by the checks; a bench that declares none writes null and reads as none.
BOOST_AUTO_TEST_CASE(throughput_round_trips_through_eval_json_with_and_without_work) {
    fb::Bench bench = add_bench();
    // c = a + b on n floats: n flops, 12n bytes.
    bench.work([](const fb::Workload& w) {
        const double n = static_cast<double>(w["n"]);
        return fb::Work{.flops = n, .bytes = 12.0 * n};
    });
    const fb::RunResult declared = quick_run(bench, add_contract());
    BOOST_TEST_REQUIRE(declared.exit_code == forge::exit_code::ok);
    // Readings within the memory's and the arithmetic's ceilings: neither is measured again.
    BOOST_TEST(declared.eval["device"]["memory_bandwidth"]["measured_again"] == false);
    BOOST_TEST(declared.eval["device"]["compute_peak"]["measured_again"] == false);
    const json& first = declared.eval["performance"]["workloads"][0];
    BOOST_TEST(first["work"]["flops"] == 256.0);
    BOOST_TEST(first["work"]["bytes"] == 3072.0);
    const double ms = first["student_ms"].get<double>();
    BOOST_TEST(first["throughput"]["student"]["gbps"].get<double>() == 3072.0 / ms / 1e6,
               boost::test_tools::tolerance(1e-12));
    BOOST_TEST(first["throughput"]["student"]["peak_dram_bandwidth_fraction"].is_null());  // HOST: no peak

    const forge::EvalReport read = forge::parse_eval(declared.eval.dump(), "eval.json");
    BOOST_TEST(read.workloads.at(0).student.throughput.gflops.value() == 256.0 / ms / 1e6,
               boost::test_tools::tolerance(1e-12));
    BOOST_TEST(read.workloads.at(0).reference.throughput.gbps.has_value());
    // The run's figure: the geometric mean of the workloads'.
    double log_sum = 0.0;
    for (const forge::WorkloadReading& w : read.workloads) log_sum += std::log(*w.student.throughput.gflops);
    BOOST_TEST(read.student_throughput.gflops.value() == std::exp(log_sum / 3.0), boost::test_tools::tolerance(1e-9));
    BOOST_TEST(!read.student_throughput.peak_dram_bandwidth_fraction.has_value());

    const fb::RunResult undeclared = quick_run(add_bench(), add_contract());
    BOOST_TEST(undeclared.eval["performance"]["throughput"].is_null());
    BOOST_TEST(undeclared.eval["performance"]["workloads"][0]["work"].is_null());
    const forge::EvalReport none = forge::parse_eval(undeclared.eval.dump(), "eval.json");
    BOOST_TEST(!none.student_throughput.declared());
    BOOST_TEST(!none.workloads.at(0).reference.throughput.declared());
}

BOOST_AUTO_TEST_CASE(an_output_the_student_never_writes_fails) {
    fb::Bench bench = add_bench();
    bench.student([](fb::Io& io) { (void)io.out("c"); });
    const fb::RunResult result = quick_run(bench, add_contract());
    BOOST_TEST(result.exit_code == forge::exit_code::problems);
    BOOST_TEST(result.eval["correctness"]["outputs"]["c"]["passed"] == false);
}

BOOST_AUTO_TEST_CASE(a_student_returning_outputs_cached_from_its_first_call_is_caught) {
    fb::Bench bench = add_bench();
    bench.student([cache = std::vector<float>{}](fb::Io& io) mutable {
        auto c = io.out("c").span<float>();
        if (cache.size() != c.size()) {
            add(io);
            cache.assign(c.begin(), c.end());
        }
        std::copy(cache.begin(), cache.end(), c.begin());
    });
    const fb::RunResult result = quick_run(bench, add_contract());
    BOOST_TEST(result.exit_code == forge::exit_code::problems);
    BOOST_TEST(result.eval["correctness"]["passed"] == false);
}

BOOST_AUTO_TEST_CASE(a_student_that_starts_caching_inside_the_timed_samples_is_caught) {
    // Honest on the two untimed correctness calls per workload, then replays its last output.
    fb::Bench bench = add_bench();
    bench.student([calls = 0, cache = std::vector<float>{}](fb::Io& io) mutable {
        auto c = io.out("c").span<float>();
        if (cache.size() != c.size()) calls = 0;  // a new workload
        if (++calls <= 2) {
            add(io);
            cache.assign(c.begin(), c.end());
        }
        std::copy(cache.begin(), cache.end(), c.begin());
    });
    const fb::RunResult result = quick_run(bench, add_contract());
    BOOST_TEST(result.exit_code == forge::exit_code::problems);
    BOOST_TEST(result.eval["correctness"]["passed"] == false);
    BOOST_TEST(any_problem_has(result, {"student's timed call", "'c'", "cached"}));
    // The untimed calls were right; a fresh round's were not.
    BOOST_TEST(!any_problem_has(result, {"on input variant"}));
    BOOST_TEST(any_problem_has(result, {"output 'c' differs between the student and the reference on the fresh inputs"}));
}

BOOST_AUTO_TEST_CASE(the_prep_step_runs_before_any_call_and_is_reported) {
    std::vector<std::string> events;
    fb::Bench bench = prep_bench();
    bench.prep([&events](fb::PrepIo& io) {
        events.push_back("prep " + io.workload().name);
        double_a(io);
    });
    bench.reference([&events](fb::Io& io) {
        events.push_back("call " + io.workload().name);
        add_with_s(io);
    });
    const fb::RunResult result = quick_run(bench, add_contract(256));
    BOOST_TEST(result.exit_code == forge::exit_code::ok);
    // Per workload: both input variants' prep before any call, and each fresh
    // round's a round ahead of it (the last drawn may be taken by no round).
    for (const std::string workload : {"w0", "w1", "w2"}) {
        std::size_t preps_before_calls = 0;
        std::size_t preps = 0;
        for (const std::string& event : events) {
            if (event == "call " + workload && preps_before_calls == 0) preps_before_calls = preps;
            if (event == "prep " + workload) ++preps;
        }
        BOOST_TEST(preps_before_calls == 2u, workload);
        std::size_t fresh_rounds = 0;
        for (const json& w : result.eval["performance"]["workloads"]) {
            if (w["name"] != workload) continue;
            for (const json& round : w["rounds"]) fresh_rounds += round["fresh"] == true ? 1 : 0;
        }
        BOOST_TEST(fresh_rounds >= 2u, workload);
        BOOST_TEST(preps >= 2 + fresh_rounds, workload);
        BOOST_TEST(preps <= 3 + fresh_rounds, workload);
    }
    const json& prep = result.eval["performance"]["prep"];
    BOOST_TEST(prep["outputs"]["s"]["shape"] == json::array({256}));
    BOOST_TEST(prep["outputs"]["s"]["dtype"] == "fp32");
    BOOST_TEST(prep["mutated"] == json::array());
    BOOST_TEST(prep["ms"].get<double>() > 0.0);
    BOOST_TEST(prep["workloads"].size() == 3u);
    BOOST_TEST(prep["workloads"][1]["name"] == "w1");
}

BOOST_AUTO_TEST_CASE(prep_work_stays_out_of_the_per_kernel_tables) {
    fb::Bench bench = prep_bench();
    bench.prep([](fb::PrepIo& io) {
        fb::region r{"prep_doubling"};
        double_a(io);
    });
    const fb::RunResult result = quick_run(bench, add_contract(256));
    for (const json& w : result.eval["performance"]["workloads"]) {
        for (const char* side : {"reference", "student"}) {
            for (const json& row : w["kernels"][side]) BOOST_TEST(row["name"] != "prep_doubling");
        }
    }
}

BOOST_AUTO_TEST_CASE(a_call_that_changes_a_prep_tensor_is_reported_as_mutated) {
    fb::Bench bench = prep_bench();
    bench.student([](fb::Io& io) {
        add_with_s(io);
        // Writing through the read-only view: what a careless in-place kernel does.
        const_cast<float*>(io.in("s").data<float>())[0] += 1.0F;
    });
    const fb::RunResult result = quick_run(bench, add_contract(256));
    BOOST_TEST(result.exit_code == forge::exit_code::problems);
    BOOST_TEST(result.eval["performance"]["prep"]["mutated"] == json::array({"s"}));
    BOOST_TEST(result.eval["performance"]["prep"]["workloads"][2]["mutated"] == json::array({"s"}));
    BOOST_TEST(any_problem_has(result, {"student", "prep tensor 's'"}));
}

BOOST_AUTO_TEST_CASE(a_symmetrized_input_made_outside_the_prep_step_is_a_problem) {
    fb::Bench bench = prep_bench();
    bench.prep({});
    bench.inputs([](const fb::Workload& w, fb::Rng& rng, fb::Tensors& in) {
        rng.normal(in.add("a", {w["n"]}, fb::DType::fp32));
        rng.normal(in.add("b", {w["n"]}, fb::DType::fp32));
        fb::Tensor& s = in.add("s", {w["n"]}, fb::DType::fp32);
        for (std::size_t i = 0; i < s.span<float>().size(); ++i) s.span<float>()[i] = 2.0F * in.at("a").span<float>()[i];
    });
    const fb::RunResult result = quick_run(bench, add_contract(256));
    BOOST_TEST(result.exit_code == forge::exit_code::problems);
    BOOST_TEST(any_problem_has(result, {"'s'", "no prep step"}));
}

BOOST_AUTO_TEST_CASE(host_tables_show_marked_regions_and_the_unmarked_rest) {
    fb::Bench bench = add_bench();
    bench.student([](fb::Io& io) {
        {
            fb::region r{"rebuild"};
            volatile float sink = 0.0F;
            for (int i = 0; i < 20000; ++i) sink = sink + 1.0F;
        }
        fb::region r{"add"};
        add(io);
    });
    const fb::RunResult result = quick_run(bench, add_contract());
    BOOST_TEST(result.exit_code == forge::exit_code::ok);
    for (const json& w : result.eval["performance"]["workloads"]) {
        const json& rows = w["kernels"]["student"];
        BOOST_TEST_REQUIRE(rows.size() == 3u);
        BOOST_TEST(rows[0]["name"] == "rebuild");
        BOOST_TEST(rows[1]["name"] == "add");
        BOOST_TEST(rows[2]["name"] == "(unmarked)");
        double sum = 0.0;
        double pct = 0.0;
        for (const json& row : rows) {
            sum += row["time_ns"].get<double>();
            pct += row["pct"].get<double>();
        }
        BOOST_TEST(w["profiler"]["student"]["total_ns"].get<double>() == sum, boost::test_tools::tolerance(1e-9));
        BOOST_TEST(pct == 100.0, boost::test_tools::tolerance(1e-9));
        BOOST_TEST(rows[0]["time_ns"].get<double>() > 0.0);
        // The reference marks nothing: its whole call is one honest row.
        BOOST_TEST_REQUIRE(w["kernels"]["reference"].size() == 1u);
        BOOST_TEST(w["kernels"]["reference"][0]["name"] == "(unmarked)");
    }
}

// A side that maps a temporary afresh on every call pays the operating
// system's page faults inside its window: recorded per side, and said.
BOOST_AUTO_TEST_CASE(a_side_that_maps_memory_afresh_every_call_is_said_to) {
    constexpr std::size_t mapped_bytes = std::size_t{8} << 20;
    const long page = ::sysconf(_SC_PAGESIZE);
    fb::Bench bench = add_bench();
    bench.reference([&](fb::Io& io) {
        void* temporary = ::mmap(nullptr, mapped_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        BOOST_REQUIRE(temporary != MAP_FAILED);
        (void)::madvise(temporary, mapped_bytes, MADV_NOHUGEPAGE);  // a fault a page wherever huge pages are on
        auto* bytes = static_cast<volatile char*>(temporary);
        for (std::size_t i = 0; i < mapped_bytes; i += static_cast<std::size_t>(page)) bytes[i] = 1;
        ::munmap(temporary, mapped_bytes);
        add(io);
    });
    const fb::RunResult result = quick_run(bench, add_contract());
    BOOST_TEST(result.exit_code == forge::exit_code::ok);
    for (const json& w : result.eval["performance"]["workloads"]) {
        BOOST_TEST(w["page_faults"]["reference"].get<long>() >= static_cast<long>(mapped_bytes) / page);
        BOOST_TEST(w["page_faults"]["student"].get<long>() < fb::many_page_faults);
        BOOST_TEST(any_has(result.notices, {"workload '" + w["name"].get<std::string>() + "'",
                                            "the reference's calls took", "page faults each", "bench.setup"}));
    }
    BOOST_TEST(!any_has(result.notices, {"the student's calls", "page faults each"}));
}

BOOST_AUTO_TEST_CASE(the_eval_file_is_written_when_asked) {
    const TempDir dir("forge_bench_harness");
    fb::RunOptions options = quick_options();
    options.eval_path = dir.path / "eval.json";
    const fb::RunResult result = fb::run(add_bench(), add_contract(), options);
    std::ifstream in(options.eval_path);
    const json read = json::parse(in);
    BOOST_TEST(read == result.eval);
}

// Runs of the same bench build keep a history beside eval.json: the second run's
// intervals hold its own rounds' interval and the spread between the two runs; a
// rebuilt bench (another identity) starts afresh.
BOOST_AUTO_TEST_CASE(runs_of_the_same_bench_share_a_history_and_their_spread) {
    const TempDir dir("forge_bench_history");
    fb::RunOptions options = quick_options();
    options.eval_path = dir.path / "eval.json";
    options.history_path = dir.path / "add.runs.json";
    options.bench_identity = "build 1";
    const auto runs_seen = [](const json& between) { return between["runs"].get<std::size_t>(); };

    const fb::RunResult first = fb::run(add_bench(), add_contract(), options);
    BOOST_TEST_REQUIRE(first.exit_code == forge::exit_code::ok);
    BOOST_TEST(runs_seen(first.eval["performance"]["between_runs"]) == 1u);
    BOOST_TEST(std::filesystem::exists(options.history_path));

    const fb::RunResult second = fb::run(add_bench(), add_contract(), options);
    BOOST_TEST_REQUIRE(second.exit_code == forge::exit_code::ok);
    const json& run = second.eval["performance"];
    BOOST_TEST(runs_seen(run["between_runs"]) == 2u);
    for (const json& w : run["workloads"]) {
        BOOST_TEST(runs_seen(w["between_runs"]) == 2u);
        // Widened, never narrowed: the interval holds the run's own.
        BOOST_TEST(w["ratio_ci"][0].get<double>() <= w["between_runs"]["within_run_ci"][0].get<double>());
        BOOST_TEST(w["ratio_ci"][1].get<double>() >= w["between_runs"]["within_run_ci"][1].get<double>());
        BOOST_TEST(w["between_runs"]["log_sd"].get<double>() >= 0.0);
        // The precision the stopping rule judged: the run's own rounds'.
        const json& within = w["between_runs"]["within_run_ci"];
        const double within_half_width =
            (within[1].get<double>() - within[0].get<double>()) / 2.0 / w["ratio"].get<double>();
        BOOST_TEST(w["stopping"]["half_width"].get<double>() == within_half_width,
                   boost::test_tools::tolerance(1e-9));
    }

    options.bench_identity = "build 2";
    const fb::RunResult rebuilt = fb::run(add_bench(), add_contract(), options);
    BOOST_TEST(runs_seen(rebuilt.eval["performance"]["between_runs"]) == 1u);

    // A history the bench cannot read is a notice, the run stands alone, and the
    // file (perhaps not the bench's) is left as it was.
    std::ofstream(options.history_path) << "not a history";
    const fb::RunResult unreadable = fb::run(add_bench(), add_contract(), options);
    BOOST_TEST(forge::read_file(options.history_path) == "not a history");
    BOOST_TEST(unreadable.exit_code == forge::exit_code::ok);
    BOOST_TEST(runs_seen(unreadable.eval["performance"]["between_runs"]) == 1u);
    bool named = false;
    for (const std::string& notice : unreadable.notices) {
        named = named || notice.find(options.history_path.string()) != std::string::npos;
    }
    BOOST_TEST(named);
}

// Each run keeps how busy the machine was for the rounds its ratios came from;
// a run whose rounds read it 30% busier or more than the earlier runs' quietest says so.
BOOST_AUTO_TEST_CASE(a_run_on_a_busier_machine_than_the_earlier_runs_says_so) {
    const TempDir dir("forge_bench_history_machine");
    fb::RunOptions options = quick_options();
    options.history_path = dir.path / "add.runs.json";
    options.bench_identity = "build 1";
    const auto said_busier = [](const fb::RunResult& result) {
        return std::any_of(result.notices.begin(), result.notices.end(), [](const std::string& notice) {
            return notice.find("busier than the bench's earlier runs") != std::string::npos;
        });
    };

    const fb::RunResult first = fb::run(add_bench(), add_contract(), options);
    BOOST_TEST_REQUIRE(first.exit_code == forge::exit_code::ok);
    const json& machine = first.eval["performance"]["between_runs"]["machine"];
    BOOST_TEST(machine["memory_ms"].get<double>() > 0.0);
    BOOST_TEST(machine["earlier_memory_ms"].is_null());
    BOOST_TEST(machine["busier"] == false);
    BOOST_TEST(!said_busier(first));

    // The earlier run as if on a machine a thousand times quieter than this one can be.
    json history = json::parse(forge::read_file(options.history_path));
    const double memory_ms = history["benches"][0]["runs"][0]["memory_ms"].get<double>();
    BOOST_TEST(memory_ms == machine["memory_ms"].get<double>());
    history["benches"][0]["runs"][0]["memory_ms"] = memory_ms / 1000.0;
    // And its ratio 65% higher, with an error so wide that the spread between
    // runs reads as none: only its being on a quieter machine widens this run's.
    const double earlier_log_ratio = history["benches"][0]["runs"][0]["run"]["log_ratio"].get<double>() + 0.5;
    history["benches"][0]["runs"][0]["run"] = {{"log_ratio", earlier_log_ratio}, {"standard_error", 10.0}};
    std::ofstream(options.history_path) << history.dump();
    const fb::RunResult busier = fb::run(add_bench(), add_contract(), options);
    BOOST_TEST_REQUIRE(busier.exit_code == forge::exit_code::ok);
    BOOST_TEST(busier.eval["performance"]["between_runs"]["machine"]["busier"] == true);
    BOOST_TEST(busier.eval["performance"]["between_runs"]["machine"]["earlier_memory_ms"].get<double>() ==
               memory_ms / 1000.0);
    BOOST_TEST(said_busier(busier));
    // Its interval reaches the earlier run's ratio as well (another state of the machine, no better a reading).
    BOOST_TEST(busier.eval["performance"]["between_runs"]["log_sd"].get<double>() == 0.0);
    BOOST_TEST(busier.eval["performance"]["ratio_ci"][1].get<double>() >= std::exp(earlier_log_ratio) * (1 - 1e-12));

    // And a thousand times busier: this run is the quiet one, nothing to say.
    history = json::parse(forge::read_file(options.history_path));
    for (json& run : history["benches"][0]["runs"]) run["memory_ms"] = memory_ms * 1000.0;
    std::ofstream(options.history_path) << history.dump();
    const fb::RunResult quieter = fb::run(add_bench(), add_contract(), options);
    BOOST_TEST(quieter.eval["performance"]["between_runs"]["machine"]["busier"] == false);
    BOOST_TEST(!said_busier(quieter));
}

// A retake continues the workload's first measurement: the first's rounds come
// first and count with the new ones, whose layouts are other copies of the tensors.
BOOST_AUTO_TEST_CASE(a_retake_pools_its_rounds_with_the_first_measurement) {
    const fb::Bench bench = add_bench(1);
    const forge::WindowContract contract = add_contract();
    const fb::RunOptions options = quick_options();
    const std::unique_ptr<fb::Runtime> runtime = fb::make_host_runtime(options.host_flush_bytes);
    fb::RunRecord record;
    record.stopping = fb::StoppingParameters::quick();
    const fb::Workload& workload = fb::BenchDefinition(bench).workloads()[0];
    record.workloads.push_back(
        fb::measure_workload(bench, contract, *runtime, options, workload, record, record.stopping));
    fb::WorkloadRecord& first = record.workloads[0];
    BOOST_TEST_REQUIRE(first.rounds.size() >= record.stopping.min_rounds);
    first.waited_for_quiet = true;

    const fb::WorkloadRecord retake =
        fb::measure_workload(bench, contract, *runtime, options, workload, record, record.stopping, &first);
    BOOST_TEST_REQUIRE(retake.rounds.size() > first.rounds.size());
    std::size_t first_layouts = 0;
    for (std::size_t r = 0; r < first.rounds.size(); ++r) {
        BOOST_TEST(retake.rounds[r].reference_ms == first.rounds[r].reference_ms);
        BOOST_TEST(retake.rounds[r].layout == first.rounds[r].layout);
        first_layouts = std::max(first_layouts, first.rounds[r].layout + 1);
    }
    for (std::size_t r = first.rounds.size(); r < retake.rounds.size(); ++r) {
        BOOST_TEST(retake.rounds[r].layout >= first_layouts);
    }
    // The ratio comes from rounds of both measurements.
    std::size_t used = 0;
    for (const fb::Round& round : retake.rounds) used += round.used ? 1 : 0;
    BOOST_TEST(retake.estimated_rounds.log_ratios.size() == used);
    BOOST_TEST(retake.measured_s > first.measured_s);
    BOOST_TEST(retake.rounds_wall_s > first.rounds_wall_s);
    BOOST_TEST(retake.memory_calibration_before_ms == first.memory_calibration_before_ms);
    // The first measurement's wait for quiet rounds is part of the pooled record.
    BOOST_TEST(retake.waited_for_quiet);
}

// Without a history (the harness's own callers, a bench whose executable cannot be read) no spread is added.
BOOST_AUTO_TEST_CASE(a_run_without_a_history_reports_no_spread_between_runs) {
    const fb::RunResult result = quick_run(add_bench(), add_contract());
    BOOST_TEST(result.eval["performance"]["between_runs"].is_null());
    for (const json& w : result.eval["performance"]["workloads"]) BOOST_TEST(w["between_runs"].is_null());
}

// An empty call reads near zero: the cache flush (milliseconds) and the
// harness's bookkeeping stay outside the window. The goal is under 1 us on a quiet
// machine (run with --log_level=message to see the figures); the bound here is
// loose enough for a loaded CI machine and still far below one flush.
BOOST_AUTO_TEST_CASE(an_empty_call_reads_near_zero) {
    fb::Bench bench = add_bench();
    bench.reference([](fb::Io&) {});
    bench.student([](fb::Io&) {});
    const fb::RunResult result = quick_run(bench, add_contract());  // fails correctness: only the times matter
    for (const json& w : result.eval["performance"]["workloads"]) {
        for (const char* side : {"reference", "student"}) {
            const double median_ns = w["samples"][side]["median_ms"].get<double>() * 1e6;
            BOOST_TEST_MESSAGE("empty " << side << " call, " << w["name"] << ": median " << median_ns << " ns");
            BOOST_TEST(median_ns < 50'000.0);
        }
    }
}

namespace {

// c += a + b: a kernel that accumulates into its output, as many real ones do.
void add_into(fb::Io& io) {
    const auto a = io.in("a").span<const float>();
    const auto b = io.in("b").span<const float>();
    auto c = io.out("c").span<float>();
    for (std::size_t i = 0; i < c.size(); ++i) c[i] += a[i] + b[i];
}

}  // namespace

// Without a start the NaN poison makes every accumulating call fail; with one,
// every call of either side (timed, pipelined, profiled) starts from it.
BOOST_AUTO_TEST_CASE(an_accumulating_output_starts_every_call_from_its_start_value) {
    fb::Bench poisoned = add_bench();
    poisoned.reference(add_into);
    poisoned.student(add_into);
    const fb::RunResult nan = quick_run(poisoned, add_contract());
    BOOST_TEST(nan.exit_code == forge::exit_code::problems);

    fb::Bench from_zero = poisoned;
    from_zero.accumulates("c");
    const fb::RunResult zero = quick_run(from_zero, add_contract());
    BOOST_TEST(zero.exit_code == forge::exit_code::ok);
    BOOST_TEST(zero.eval["correctness"]["outputs"]["c"]["start"] == "accumulates from zero");

    // The student adds its own +1 start in its call; the reference starts from the bench's 1.
    fb::Bench from_one = add_bench();
    from_one.accumulates("c", [](const fb::Workload&, fb::Tensor& c) {
        for (float& x : c.span<float>()) x = 1.0f;
    });
    from_one.reference(add_into);
    from_one.student(add);  // overwrites: c = a + b, one short of the reference's 1 + a + b
    const fb::RunResult differs = quick_run(from_one, add_contract());
    BOOST_TEST(differs.exit_code == forge::exit_code::problems);
    from_one.student(add_into);
    BOOST_TEST(quick_run(from_one, add_contract()).exit_code == forge::exit_code::ok);
}

BOOST_AUTO_TEST_CASE(accumulating_an_undeclared_output_is_refused_by_name) {
    fb::Bench bench = add_bench();
    bench.accumulates("dx");
    const fb::RunResult result = quick_run(bench, add_contract());
    BOOST_TEST(result.exit_code == forge::exit_code::problems);
    BOOST_TEST(any_problem_has(result, {"Bench::accumulates", "'dx'"}));
}

BOOST_AUTO_TEST_CASE(the_side_a_call_runs_as_is_reachable_from_the_bench_namespace) {
    static_assert(std::is_same_v<fb::Side, forge::Side>);
    fb::Bench bench = add_bench();
    bool student_seen = false;
    bench.student([&student_seen](fb::Io& io) {
        student_seen = student_seen || io.side() == fb::Side::student;
        add(io);
    });
    BOOST_TEST(quick_run(bench, add_contract()).exit_code == forge::exit_code::ok);
    BOOST_TEST(student_seen);
}

namespace {

// A C library's handle, as a setup makes it: created by one call, destroyed by
// another that returns a status (which std::unique_ptr ignores).
struct Handle {
    std::string owner;                 // "<side> <workload>"
    std::vector<std::string>* events;  // where its teardown is noted
};

int destroy_handle(Handle* handle) {
    handle->events->push_back("teardown " + handle->owner);
    delete handle;
    return 0;
}

using HandleOwner = std::unique_ptr<Handle, decltype(&destroy_handle)>;

// A bench whose sides each make a Handle per workload and check, in every call,
// that the handle is theirs and this workload's. `events` notes each setup, each
// teardown and each side's calls (one entry per run of consecutive calls).
fb::Bench bench_with_handles(std::vector<std::string>& events) {
    fb::Bench bench = add_bench();
    for (fb::Side side : {fb::Side::reference, fb::Side::student}) {
        const std::string name(forge::to_string(side));
        bench.setup(side, [&events, name](const fb::Workload& w, fb::Stream stream) {
            events.push_back("setup " + name + " " + w.name + (stream == nullptr ? "" : " (a stream on HOST)"));
            return HandleOwner(new Handle{name + " " + w.name, &events}, &destroy_handle);
        });
        const auto call = [&events, name](fb::Io& io) {
            const std::string owner = io.state<HandleOwner>()->owner;
            const std::string event = "call " + name + " " + io.workload().name +
                                      (owner == name + " " + io.workload().name ? "" : " with the handle of " + owner);
            if (events.empty() || events.back() != event) events.push_back(event);
            add(io);
        };
        if (side == fb::Side::reference) {
            bench.reference(call);
        } else {
            bench.student(call);
        }
    }
    return bench;
}

std::ptrdiff_t first_index(const std::vector<std::string>& events, const std::string& prefix) {
    for (std::size_t i = 0; i < events.size(); ++i) {
        if (events[i].starts_with(prefix)) return static_cast<std::ptrdiff_t>(i);
    }
    return -1;
}

std::ptrdiff_t last_index(const std::vector<std::string>& events, const std::string& prefix) {
    for (std::size_t i = events.size(); i-- > 0;) {
        if (events[i].starts_with(prefix)) return static_cast<std::ptrdiff_t>(i);
    }
    return -1;
}

struct Plan {
    int value = 0;
};

}  // namespace

// Per workload and side: one setup before the workload's first call, its state in
// every call, one teardown after the last call and before the next workload's setup.
BOOST_AUTO_TEST_CASE(each_sides_setup_runs_once_per_workload_around_its_calls) {
    std::vector<std::string> events;
    const fb::RunResult result = quick_run(bench_with_handles(events), add_contract());
    BOOST_TEST_REQUIRE(result.exit_code == forge::exit_code::ok);
    const std::vector<std::string> workloads{"n256", "n512", "n1024"};
    std::ptrdiff_t previous_teardown = -1;
    for (const std::string& w : workloads) {
        for (const std::string side : {"reference", "student"}) {
            BOOST_TEST(std::count(events.begin(), events.end(), "setup " + side + " " + w) == 1, side << " " << w);
            BOOST_TEST(std::count(events.begin(), events.end(), "teardown " + side + " " + w) == 1, side << " " << w);
            const std::ptrdiff_t setup = first_index(events, "setup " + side + " " + w);
            const std::ptrdiff_t teardown = first_index(events, "teardown " + side + " " + w);
            BOOST_TEST(setup > previous_teardown);
            BOOST_TEST(setup < first_index(events, "call " + side + " " + w));
            BOOST_TEST(last_index(events, "call " + side + " " + w) < teardown);
            BOOST_TEST(first_index(events, "call " + side + " " + w + " with") == -1);  // always its own handle
        }
        previous_teardown = std::max(last_index(events, "teardown reference " + w),
                                     last_index(events, "teardown student " + w));
    }
    BOOST_TEST(std::count_if(events.begin(), events.end(), [](const std::string& e) { return e.starts_with("setup"); }) ==
               6);
    BOOST_TEST(first_index(events, "setup reference n256 (a stream") == -1);  // HOST hands a null stream
}

BOOST_AUTO_TEST_CASE(a_setups_time_stays_out_of_every_window) {
    fb::Bench bench = add_bench();
    int setups = 0;
    for (fb::Side side : {fb::Side::reference, fb::Side::student}) {
        bench.setup(side, [&setups](const fb::Workload&, fb::Stream) {
            ++setups;
            ::usleep(50'000);
            return Plan{1};
        });
    }
    const fb::RunResult result = quick_run(bench, add_contract());
    BOOST_TEST_REQUIRE(result.exit_code == forge::exit_code::ok);
    BOOST_TEST(setups == 6);
    for (const json& w : result.eval["performance"]["workloads"]) {
        for (const char* side : {"reference", "student"}) {
            // A call on 1024 floats or fewer takes microseconds: a window that held
            // the setup would read at least its 50 ms sleep.
            BOOST_TEST(w["samples"][side]["median_ms"].get<double>() < 10.0, side);
            BOOST_TEST(w["samples"][side]["max_ms"].get<double>() < 50.0, side);
            BOOST_TEST(w["pipelined"][side + std::string("_ms")].get<double>() < 10.0, side);
            BOOST_TEST(w["profiler"][side]["total_ns"].get<double>() < 50e6, side);
        }
    }
}

BOOST_AUTO_TEST_CASE(asking_for_the_state_as_another_type_names_the_side_and_the_type) {
    fb::Bench bench = add_bench();
    bench.setup(fb::Side::student, [](const fb::Workload&, fb::Stream) { return Plan{7}; });
    bench.student([](fb::Io& io) {
        (void)io.state<HandleOwner>();
        add(io);
    });
    const fb::RunResult result = quick_run(bench, add_contract());
    BOOST_TEST(result.exit_code == forge::exit_code::problems);
    BOOST_TEST(any_problem_has(result, {"student's call asked for its state", "Plan'", "io.state<"}));
}

BOOST_AUTO_TEST_CASE(the_state_of_a_side_without_setup_is_an_error_saying_what_to_do) {
    fb::Bench bench = add_bench();
    bench.setup(fb::Side::student, [](const fb::Workload&, fb::Stream) { return Plan{7}; });
    bench.reference([](fb::Io& io) {
        (void)io.state<Plan>();  // the student's state is not the reference's
        add(io);
    });
    const fb::RunResult result = quick_run(bench, add_contract());
    BOOST_TEST(result.exit_code == forge::exit_code::problems);
    BOOST_TEST(any_problem_has(result, {"reference's call", "no setup", "Bench::setup(fb::Side::reference"}));

    // A setup that returns nothing runs, and keeps no state to ask for.
    fb::Bench stateless = add_bench();
    int setups = 0;
    stateless.setup(fb::Side::reference, [&setups](const fb::Workload&, fb::Stream) { ++setups; });
    BOOST_TEST(quick_run(stateless, add_contract()).exit_code == forge::exit_code::ok);
    BOOST_TEST(setups == 3);
    stateless.reference([](fb::Io& io) {
        (void)io.state<Plan>();
        add(io);
    });
    BOOST_TEST(any_problem_has(quick_run(stateless, add_contract()), {"reference's setup returns nothing"}));
}

BOOST_AUTO_TEST_CASE(a_setup_that_throws_fails_the_run_naming_the_side_and_the_workload) {
    fb::Bench bench = add_bench();
    bench.setup(fb::Side::reference, [](const fb::Workload& w, fb::Stream) {
        if (w.name == "n512") throw std::runtime_error("no handle left");
        return Plan{1};
    });
    const fb::RunResult result = quick_run(bench, add_contract());
    BOOST_TEST(result.exit_code == forge::exit_code::problems);
    BOOST_TEST(any_problem_has(result, {"workload 'n512'", "reference's setup failed: no handle left"}));
}

// Every check that needs no device comes before the device is asked for: a CUDA
// bench that disagrees with window.toml fails with the run's own message, on any
// machine, instead of skipping where there is no GPU (its calls never run).
BOOST_AUTO_TEST_CASE(a_definition_that_disagrees_with_the_contract_fails_before_the_device_check) {
    fb::Bench cuda{fb::Backend::cuda};
    cuda.workload("n64", {{"n", 64}}, 1).workload("n128", {{"n", 128}}, 2).workload("n256", {{"n", 256}}, 3);
    add_tensors(cuda);
    cuda.reference(add);
    cuda.student(add);
    const auto fails_before_the_device = [](const fb::Bench& bench, const forge::WindowContract& contract,
                                            std::initializer_list<std::string> texts) {
        const fb::RunResult result = quick_run(bench, contract);
        BOOST_TEST(result.exit_code == forge::exit_code::problems);
        BOOST_TEST(result.eval["device"].is_null());  // no runtime was made
        BOOST_TEST(result.eval["correctness"]["passed"] == false);
        BOOST_TEST(any_problem_has(result, texts));
    };

    forge::WindowContract renamed = add_contract();
    renamed.reference_outputs = {"sum"};
    renamed.student_outputs = {"sum"};
    fails_before_the_device(cuda, renamed, {"workload 'n64'", "outputs() declares 'c'", "neither side"});

    forge::WindowContract unmade = add_contract();
    unmade.student_inputs.push_back("mean");
    fails_before_the_device(cuda, unmade, {"'mean' in [student].inputs", "did not make it", "made: a, b"});

    fb::Bench accumulating = cuda;
    accumulating.accumulates("dx");
    fails_before_the_device(accumulating, add_contract(), {"Bench::accumulates names 'dx'"});

    fails_before_the_device(cuda, add_contract(64), {"symmetrizes 's'", "no prep step"});
}

namespace {

// The HOST runtime, noting each synchronize in `events`.
class SynchronizeLog : public fb::Runtime {
public:
    SynchronizeLog(std::unique_ptr<fb::Runtime> runtime, std::vector<std::string>& events)
        : runtime_(std::move(runtime)), events_(events) {}

    void synchronize() override {
        events_.emplace_back("synchronize");
        runtime_->synchronize();
    }

    [[nodiscard]] json device_facts() const override { return runtime_->device_facts(); }
    [[nodiscard]] fb::Stream stream() const override { return runtime_->stream(); }
    [[nodiscard]] fb::Tensor allocate(const fb::TensorSpec& spec) override { return runtime_->allocate(spec); }
    [[nodiscard]] std::optional<std::string_view> damaged_guard(const fb::Tensor& tensor) const override {
        return runtime_->damaged_guard(tensor);
    }
    void copy(const fb::Tensor& from, fb::Tensor& to) override { runtime_->copy(from, to); }
    void fill_bytes(fb::Tensor& tensor, unsigned char value) override { runtime_->fill_bytes(tensor, value); }
    void flush_cache() override { runtime_->flush_cache(); }
    [[nodiscard]] double time_call(const std::function<void()>& call) override { return runtime_->time_call(call); }
    [[nodiscard]] double time_calls(const std::function<void()>& call, int count) override {
        return runtime_->time_calls(call, count);
    }
    [[nodiscard]] std::unique_ptr<fb::LaunchLog> log_launches() override { return runtime_->log_launches(); }
    [[nodiscard]] fb::Profile profile_call(const std::function<void()>& call, const std::string& label) override {
        return runtime_->profile_call(call, label);
    }

private:
    std::unique_ptr<fb::Runtime> runtime_;
    std::vector<std::string>& events_;
};

// A side's state that notes its teardown (its destructor).
struct NotedState {
    explicit NotedState(std::vector<std::string>& log) : events(&log) {}
    NotedState(const NotedState&) = delete;
    NotedState& operator=(const NotedState&) = delete;
    ~NotedState() { events->emplace_back("teardown"); }
    std::vector<std::string>* events;
};

}  // namespace

// A call that fails the run may leave work on the device: the device finishes
// it before the sides' states (a library handle, a workspace) are torn down,
// as after a workload's last call.
BOOST_AUTO_TEST_CASE(a_failed_call_leaves_the_device_synchronized_before_the_sides_teardown) {
    std::vector<std::string> events;
    fb::Bench bench = add_bench();
    bench.setup(fb::Side::student,
                [&events](const fb::Workload&, fb::Stream) { return std::make_shared<NotedState>(events); });
    bench.student([&events](fb::Io& io) {
        (void)io.state<std::shared_ptr<NotedState>>();
        events.emplace_back("student call");
        throw std::runtime_error("a kernel launch failed");
    });
    const fb::RunOptions options = quick_options();
    SynchronizeLog runtime(fb::make_host_runtime(options.host_flush_bytes), events);
    fb::RunRecord record;
    record.stopping = fb::StoppingParameters::quick();
    const auto names_the_failure = [](const fb::BenchError& e) {
        return std::string(e.what()).find("a kernel launch failed") != std::string::npos;
    };
    BOOST_CHECK_EXCEPTION(
        (void)fb::measure_workload(bench, add_contract(), runtime, options, fb::BenchDefinition(bench).workloads()[0],
                                   record, record.stopping),
        fb::BenchError, names_the_failure);
    const auto call = std::find(events.begin(), events.end(), "student call");
    BOOST_TEST_REQUIRE((call != events.end()));
    BOOST_TEST(std::vector<std::string>(call, events.end()) ==
                   (std::vector<std::string>{"student call", "synchronize", "teardown"}),
               boost::test_tools::per_element());
}

// A workload whose interval needs many rounds and whose pace fits them takes
// 16 layouts after its first pass over 8; one that needs few keeps its 8.
BOOST_AUTO_TEST_CASE(layouts_are_added_after_the_first_pass_where_the_rounds_need_them) {
    const fb::Bench bench = add_bench();
    const fb::RunOptions options = quick_options();
    const auto layouts_used = [&](double precision) {
        const std::unique_ptr<fb::Runtime> runtime = fb::make_host_runtime(options.host_flush_bytes);
        fb::RunRecord record;
        record.stopping = fb::StoppingParameters::quick();
        record.stopping.precision = precision;
        // A pace that fits 16 layouts' rounds in the cap under a sanitizer too
        // (each call then flushes the sanitizer's own memory as well), the round
        // cap (200) ending the rounds first.
        record.stopping.max_wall_s = 30.0;
        record.stopping.min_rounds = 40;  // past the first pass, whatever the interval
        const fb::WorkloadRecord workload =
            fb::measure_workload(bench, add_contract(), *runtime, options, fb::BenchDefinition(bench).workloads()[0],
                                 record, record.stopping);
        std::set<std::size_t> first_pass;
        std::set<std::size_t> all;
        for (std::size_t r = 0; r < workload.rounds.size(); ++r) {
            (r < 32 ? first_pass : all).insert(workload.rounds[r].layout);
            all.insert(workload.rounds[r].layout);
        }
        BOOST_TEST(first_pass.size() == 8u);
        return all.size();
    };
    BOOST_TEST(layouts_used(1e-6) == 16u);  // no interval reaches +/-0.0001%: every round it fits is needed
    BOOST_TEST(layouts_used(0.5) == 8u);    // +/-50%: reached within the first pass
}

namespace {

// The HOST runtime, noting each flush, each tensor it evicts and each side's
// threads released, in `events`.
class CacheLog : public SynchronizeLog {
public:
    CacheLog(std::unique_ptr<fb::Runtime> runtime, std::vector<std::string>& events)
        : SynchronizeLog(std::move(runtime), events), events_(events) {}

    void flush_cache() override {
        events_.emplace_back("flush");
        SynchronizeLog::flush_cache();
    }
    void evict(const fb::Tensor& tensor) override { events_.push_back("evict " + address_of(tensor.raw())); }
    [[nodiscard]] bool evicts_tensors() const override { return true; }
    void release_side_threads() override { events_.emplace_back("release"); }

    static std::string address_of(const void* data) { return std::to_string(reinterpret_cast<std::uintptr_t>(data)); }

private:
    std::vector<std::string>& events_;
};

}  // namespace

// A round shares one flush between its two calls where the runtime evicts each
// tensor itself, and every call from a flushed cache still starts cold for its
// side: a flush since that side's last call, its own tensors evicted after the
// other side's call. The warm-up and correctness calls before the first round
// are made without a flush.
BOOST_AUTO_TEST_CASE(a_round_flushes_once_and_each_call_evicts_its_own_tensors_after_the_other_side) {
    std::vector<std::string> events;
    fb::Bench bench = add_bench();
    for (const fb::Side side : {fb::Side::reference, fb::Side::student}) {
        const std::string name = side == fb::Side::reference ? "reference" : "student";
        auto noted = [&events, name](fb::Io& io) {
            std::string call = name + " call";
            for (const char* tensor : {"a", "b"}) call += " " + CacheLog::address_of(io.in(tensor).raw());
            call += " " + CacheLog::address_of(io.out("c").raw());
            events.push_back(call);
            add(io);
        };
        if (side == fb::Side::reference) {
            bench.reference(noted);
        } else {
            bench.student(noted);
        }
    }
    const fb::RunOptions options = quick_options();
    CacheLog runtime(fb::make_host_runtime(options.host_flush_bytes), events);
    fb::RunRecord record;
    record.stopping = fb::StoppingParameters::quick();
    const fb::WorkloadRecord workload = fb::measure_workload(
        bench, add_contract(), runtime, options, fb::BenchDefinition(bench).workloads()[0], record, record.stopping);
    const std::size_t rounds = workload.rounds.size();
    BOOST_TEST_REQUIRE(rounds >= 20u);

    std::size_t flushes = 0;
    std::size_t cold_calls = 0;
    std::map<std::string, bool> flushed_since_own_call;  // by side
    std::set<std::string> evicted;                       // since the last call of either side
    bool released = false;
    const auto first_flush = std::find(events.begin(), events.end(), "flush");
    for (const std::string& event : std::vector<std::string>(first_flush, events.end())) {
        if (event == "flush") {
            ++flushes;
            for (auto& [side, flushed] : flushed_since_own_call) flushed = true;
        } else if (event.starts_with("evict ")) {
            evicted.insert(event.substr(6));
        } else if (event == "release") {
            released = true;
        } else if (event.find(" call ") != std::string::npos) {
            std::istringstream words(event);
            std::string side;
            std::string call;
            words >> side >> call;
            // A call from a flushed cache (timed, warm-up, profiled, a pipelined
            // batch's first); the others (correctness calls, a batch's later ones)
            // run on what the call before them left.
            if (released) {
                ++cold_calls;
                const auto own = flushed_since_own_call.find(side);
                BOOST_TEST((own == flushed_since_own_call.end() || own->second),
                           event << ": no flush since its last call");
                for (std::string address; words >> address;) {
                    BOOST_TEST(evicted.contains(address), event << ": tensor " << address << " not evicted before it");
                }
            }
            flushed_since_own_call[side] = false;
            evicted.clear();
            released = false;
        }
    }
    // The rounds' calls (two per round) share a flush each; the profiled and
    // the pipelined calls at most two per flush.
    BOOST_TEST(cold_calls >= 2 * rounds);
    BOOST_TEST(flushes >= rounds);
    BOOST_TEST(flushes <= cold_calls - rounds);
}

// The warm-up's time is the run's first workload's: a later one follows the
// earlier workloads' calls with no pause, and its warm-up is one call a side on
// every layout. Counted as the reference's calls before the first round's
// flush, which follow its two correctness calls (one per input variant).
BOOST_AUTO_TEST_CASE(only_the_runs_first_workload_warms_up_for_the_warm_up_time) {
    std::vector<std::string> events;
    fb::Bench bench = add_bench();
    bench.reference([&events](fb::Io& io) {
        events.emplace_back("reference call");
        add(io);
    });
    const fb::RunOptions options = quick_options();
    CacheLog runtime(fb::make_host_runtime(options.host_flush_bytes), events);
    fb::RunRecord record;
    record.stopping = fb::StoppingParameters::quick();
    record.stopping.warmup_s = 0.2;
    const auto calls_before_the_rounds = [&events] {
        return std::count(events.begin(), std::find(events.begin(), events.end(), "flush"), "reference call");
    };
    const fb::BenchDefinition definition(bench);
    record.workloads.push_back(fb::measure_workload(bench, add_contract(), runtime, options, definition.workloads()[0],
                                                    record, record.stopping));
    const auto first_calls = calls_before_the_rounds();
    events.clear();
    const fb::WorkloadRecord second = fb::measure_workload(bench, add_contract(), runtime, options,
                                                           definition.workloads()[1], record, record.stopping);
    const auto initial_layouts = static_cast<std::ptrdiff_t>(fb::LayoutGrowth::initial);
    BOOST_TEST(record.workloads[0].wall.warm_up_s >= record.stopping.warmup_s);
    BOOST_TEST(first_calls > 2 + initial_layouts);
    BOOST_TEST(calls_before_the_rounds() == 2 + initial_layouts);
    BOOST_TEST(second.wall.warm_up_s < record.workloads[0].wall.warm_up_s);
}

namespace {

// The HOST runtime with a launch log that names none of a call's launches, as
// a graph's are, or a profiler's that gives no symbol names.
class NamelessLaunches : public SynchronizeLog {
public:
    using SynchronizeLog::SynchronizeLog;

    [[nodiscard]] std::unique_ptr<fb::LaunchLog> log_launches() override {
        struct Nameless : fb::LaunchLog {
            [[nodiscard]] fb::KernelNames names() const override { return {{}, false}; }
        };
        return std::make_unique<Nameless>();
    }
};

}  // namespace

// Every profiled kernel set includes the empty one, so a log that named nothing
// would pass any check: the kernel set is not checked, and the run says so.
BOOST_AUTO_TEST_CASE(timed_calls_whose_launches_had_no_names_leave_the_kernel_set_unchecked) {
    std::vector<std::string> events;
    const fb::Bench bench = add_bench();
    const fb::RunOptions options = quick_options();
    NamelessLaunches runtime(fb::make_host_runtime(options.host_flush_bytes), events);
    fb::RunRecord record;
    record.stopping = fb::StoppingParameters::quick();
    const fb::WorkloadRecord workload = fb::measure_workload(
        bench, add_contract(), runtime, options, fb::BenchDefinition(bench).workloads()[0], record, record.stopping);
    BOOST_TEST(any_has(record.notices, {"kernel sets of timed samples were not checked", "named none"}));
    BOOST_TEST(!workload.student.kernel_set_changed.has_value());
    BOOST_TEST(!workload.reference.kernel_set_changed.has_value());
}
