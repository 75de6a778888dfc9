#define BOOST_TEST_MODULE bench_noise_floor
#include <boost/test/unit_test.hpp>

#include <atomic>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "forge/bench/bench.hpp"
#include "forge/bench/run.hpp"
#include "forge/contract/contract.hpp"
#include "forge/stats/ratio_interval.hpp"
#include "against_itself.hpp"
#include "bench_add_operator.hpp"
#include "rules/noise_floor.hpp"

namespace fb = forge::bench;
namespace tt = boost::test_tools;
using forge::stats::RatioInterval;

BOOST_AUTO_TEST_CASE(an_interval_that_leaves_out_one_calls_identical_code_apart) {
    const std::vector<RatioInterval> workloads = {{1.0, 0.98, 1.02}, {1.03, 1.01, 1.05}, {0.99, 0.96, 1.01}};
    const fb::NoiseFloor floor = fb::noise_floor(fb::Side::student, workloads, RatioInterval{1.01, 0.995, 1.02});
    BOOST_TEST((floor.side == fb::Side::student));
    BOOST_TEST(floor.workloads == 3U);
    BOOST_TEST(floor.workloads_called_apart == 1U);
    BOOST_TEST(!floor.run_called_apart);
    // The farthest end from 1: 1.05, from a workload called apart.
    BOOST_TEST(floor.resolves == 0.05, tt::tolerance(1e-12));
}

BOOST_AUTO_TEST_CASE(the_run_s_interval_counts_too) {
    const fb::NoiseFloor floor =
        fb::noise_floor(fb::Side::reference, {{1.0, 0.99, 1.01}}, RatioInterval{1.02, 1.005, 1.09});
    BOOST_TEST(floor.workloads_called_apart == 0U);
    BOOST_TEST(floor.run_called_apart);
    BOOST_TEST(floor.resolves == 0.09, tt::tolerance(1e-12));
}

BOOST_AUTO_TEST_CASE(against_itself_gives_both_windows_the_side_s_declarations_and_no_asymmetry) {
    forge::WindowContract contract = add_contract(256);
    contract.reference_inputs = {"a", "b", "s", "saved"};
    contract.reference_window = "backward from saved tensors";
    contract.student_window = "backward from raw inputs";
    contract.digest = "card";
    const fb::Bench bench{fb::Backend::host};
    const fb::AgainstItself student = fb::against_itself(bench, contract, fb::Side::student);
    BOOST_TEST(student.contract.reference_inputs == contract.student_inputs);
    BOOST_TEST(student.contract.student_inputs == contract.student_inputs);
    BOOST_TEST(student.contract.reference_window == "backward from raw inputs");
    BOOST_TEST(student.contract.asymmetries.empty());
    BOOST_TEST(student.contract.digest == "card");  // the card's window.toml it comes from
    const fb::AgainstItself reference = fb::against_itself(bench, contract, fb::Side::reference);
    BOOST_TEST(reference.contract.student_inputs == contract.reference_inputs);
    BOOST_TEST(reference.contract.student_window == "backward from saved tensors");
}

BOOST_AUTO_TEST_CASE(an_a_a_run_calls_only_the_chosen_side_and_reports_its_noise_floor) {
    // Counted from the calls themselves: the student's code never runs in an
    // A/A run of the reference, and the reference's runs on both sides.
    static std::atomic<int> reference_calls{0};
    static std::atomic<int> student_calls{0};
    fb::Bench bench{fb::Backend::host};
    for (std::int64_t n : {256, 512, 1024}) bench.workload("n" + std::to_string(n), {{"n", n}}, n);
    add_tensors(bench);
    bench.reference([](fb::Io& io) {
        ++reference_calls;
        add(io);
    });
    bench.student([](fb::Io& io) {
        ++student_calls;
        add(io);
    });
    const fb::AgainstItself a_a = fb::against_itself(bench, add_contract(), fb::Side::reference);
    fb::RunOptions options = quick_options();
    options.against_itself = fb::Side::reference;
    const fb::RunResult result = fb::run(a_a.bench, a_a.contract, options);
    BOOST_TEST(result.exit_code == 0);
    BOOST_TEST(reference_calls.load() > 0);
    BOOST_TEST(student_calls.load() == 0);
    const nlohmann::json& floor = result.eval["performance"]["a_a"];
    BOOST_TEST(floor["side"] == "reference");
    BOOST_TEST(floor["n_workloads"] == 3);
    const int apart = floor["workloads_called_apart"];
    BOOST_TEST((apart >= 0 && apart <= 3));
    BOOST_TEST(floor["resolves"].get<double>() > 0.0);

    // A run of the two sides says null.
    const fb::RunResult sides = fb::run(bench, add_contract(), quick_options());
    BOOST_TEST(sides.eval["performance"]["a_a"].is_null());
    BOOST_TEST(student_calls.load() > 0);
}

BOOST_AUTO_TEST_CASE(an_a_a_run_of_the_student_does_not_ask_to_declare_the_reference_s_own_inputs) {
    // The reference receives a tensor its forward saved; the student does not.
    fb::Bench bench{fb::Backend::host};
    for (std::int64_t n : {256, 512, 1024}) bench.workload("n" + std::to_string(n), {{"n", n}}, n);
    bench.inputs([](const fb::Workload& w, fb::Rng& rng, fb::Tensors& in) {
        rng.normal(in.add("a", {w["n"]}, fb::DType::fp32));
        rng.normal(in.add("b", {w["n"]}, fb::DType::fp32));
        rng.normal(in.add("saved", {w["n"]}, fb::DType::fp32));
    });
    bench.outputs([](const fb::Workload& w) { return std::vector<fb::TensorSpec>{{"c", {w["n"]}, fb::DType::fp32}}; });
    bench.reference(add);
    bench.student(add);
    forge::WindowContract contract = add_contract();
    contract.reference_inputs.push_back("saved");
    const fb::AgainstItself a_a = fb::against_itself(bench, contract, fb::Side::student);
    fb::RunOptions options = quick_options();
    options.against_itself = fb::Side::student;
    const fb::RunResult result = fb::run(a_a.bench, a_a.contract, options);
    BOOST_TEST(result.exit_code == 0);
    for (const std::string& notice : result.notices) {
        BOOST_TEST(notice.find("neither side's inputs") == std::string::npos, notice);
    }
}
