#define BOOST_TEST_MODULE credit_run
#include <boost/test/unit_test.hpp>

#include <filesystem>

#include "forge/contract/parse.hpp"
#include "forge/credit/credit.hpp"
#include "forge/eval/eval.hpp"

// Per-workload figures are the Python oracle's (run_oracle.py, op "credit") for each
// workload of tests/data/credit/eval.json; the run's ratios are geometric means.

namespace {

namespace tt = boost::test_tools;

const std::filesystem::path data_dir = std::filesystem::path(FORGE_TEST_DATA_DIR) / "credit";

forge::WindowContract contract() {
    auto parsed = forge::load_window_contract(data_dir / "window.toml");
    BOOST_REQUIRE(parsed.contract.has_value());
    return *parsed.contract;
}

forge::EvalReport eval() {
    auto report = forge::load_eval(data_dir / "eval.json");
    BOOST_REQUIRE(report.has_value());
    return *report;
}

}  // namespace

BOOST_AUTO_TEST_CASE(each_workload_is_priced_and_the_run_is_their_geometric_mean) {
    const auto run = forge::credit_run(contract(), eval());
    BOOST_REQUIRE(run.workloads.size() == 3u);
    BOOST_TEST(run.workloads[0].name == "t1024");
    BOOST_TEST(run.workloads[0].ratio->credited_ratio == 1.142857142857143);
    BOOST_TEST(run.workloads[0].credit->reconciliation.reference.value() == 1.2);
    BOOST_TEST(run.workloads[1].ratio->credited_ratio == 1.1250000000000002);
    BOOST_TEST(run.workloads[1].ratio->raw_ratio == 0.75);
    BOOST_TEST(run.workloads[2].ratio->credited_ratio == 0.75);
    BOOST_TEST(run.workloads[2].ratio->student_fraction == 0.5);
    BOOST_TEST(run.raw_ratio.value() == 0.72);  // the bench's own verdict
    BOOST_TEST(run.credited_ratio.value() == 0.9879506340125244, tt::tolerance(1e-12));
}

BOOST_AUTO_TEST_CASE(without_the_benchs_ratio_the_raw_ratio_is_the_workloads_geometric_mean) {
    auto report = eval();
    report.ratio.reset();
    BOOST_TEST(forge::credit_run(contract(), report).raw_ratio.value() == 0.7211247851537042, tt::tolerance(1e-12));
    report.workloads[1].student.ms.reset();
    BOOST_TEST(!forge::credit_run(contract(), report).raw_ratio.has_value());
}

BOOST_AUTO_TEST_CASE(one_unusable_workload_leaves_the_run_without_a_credited_ratio) {
    auto report = eval();
    report.workloads[2].student.kernels.reset();
    const auto run = forge::credit_run(contract(), report);
    BOOST_TEST(run.workloads[2].credit->why.at(0).code == "table-missing");
    BOOST_TEST(!run.workloads[2].ratio.has_value());
    BOOST_TEST(run.workloads[0].ratio.has_value());
    BOOST_TEST(!run.credited_ratio.has_value());
    BOOST_TEST(run.raw_ratio.value() == 0.72);
}

BOOST_AUTO_TEST_CASE(nothing_priced_means_no_credit_anywhere) {
    auto c = contract();
    for (auto& a : c.asymmetries) a.student_kernel_regex = a.ref_kernel_regex = "";
    const auto run = forge::credit_run(c, eval());
    BOOST_TEST(run.workloads.size() == 3u);
    for (const auto& w : run.workloads) BOOST_TEST((!w.credit && !w.ratio));
    BOOST_TEST(!run.credited_ratio.has_value());
    BOOST_TEST(forge::credit_run(contract(), forge::EvalReport{}).workloads.empty());
    BOOST_TEST(!forge::credit_run(contract(), forge::EvalReport{}).credited_ratio.has_value());
}

BOOST_AUTO_TEST_CASE(json_form_is_what_forge_credit_prints) {
    auto report = eval();
    report.workloads[2].student.kernels.reset();
    const nlohmann::json out = forge::to_json(forge::credit_run(contract(), report));
    BOOST_TEST(out.size() == 3u);
    BOOST_TEST(out["raw_ratio"] == 0.72);
    BOOST_TEST(out["credited_ratio"].is_null());
    BOOST_REQUIRE(out["workloads"].size() == 3u);
    const auto& w0 = out["workloads"][0];
    BOOST_TEST(w0.size() == 4u);
    BOOST_TEST(w0["name"] == "t1024");
    BOOST_TEST(w0["warnings"] == nlohmann::json::array());
    BOOST_TEST(w0["credit"]["student"]["fraction"] == 0.3);
    BOOST_TEST(w0["ratio"]["credited_ratio"] == 1.142857142857143);
    BOOST_TEST(out["workloads"][2]["credit"]["usable"] == false);
    BOOST_TEST(out["workloads"][2]["ratio"].is_null());

    auto c = contract();
    for (auto& a : c.asymmetries) a.student_kernel_regex = a.ref_kernel_regex = "";
    BOOST_TEST(forge::to_json(forge::credit_run(c, report))["workloads"][0]["credit"].is_null());
    BOOST_TEST(forge::to_json(forge::credit_run(c, report))["workloads"][0]["warnings"] == nlohmann::json::array());
}

BOOST_AUTO_TEST_CASE(a_workloads_warnings_are_beside_its_credit_in_json) {
    auto report = eval();
    report.workloads[0].student.kernels = forge::KernelTable{{{"solve_all", 1, 1000.0, 100.0}}, std::nullopt};
    const nlohmann::json w0 = forge::to_json(forge::credit_run(contract(), report))["workloads"][0];
    BOOST_REQUIRE(w0["warnings"].size() == 1u);
    BOOST_TEST(w0["warnings"][0]["code"] == "match-implausible");
    BOOST_TEST(!w0["credit"].contains("warnings"));  // the credit keeps the oracle's keys
}

BOOST_AUTO_TEST_CASE(the_credited_interval_is_the_raw_interval_carried_onto_the_credited_ratio) {
    const auto run = forge::credit_run(contract(), eval());
    const double scale = *run.credited_ratio / 0.72;  // the bench's raw ratio
    const auto ci = forge::credited_ratio_ci(run, forge::RatioCi{0.70, 0.74});
    BOOST_REQUIRE(ci.has_value());
    BOOST_TEST(ci->low == 0.70 * scale, tt::tolerance(1e-12));
    BOOST_TEST(ci->high == 0.74 * scale, tt::tolerance(1e-12));

    // A paired estimate (0.9) far from the ratio of the sides' medians (0.721)
    // the credit starts from: the interval still holds the credited ratio.
    auto paired = eval();
    paired.ratio = 0.9;
    const auto far = forge::credit_run(contract(), paired);
    const auto far_ci = forge::credited_ratio_ci(far, forge::RatioCi{0.88, 0.92});
    BOOST_REQUIRE(far_ci.has_value());
    BOOST_TEST(far_ci->low < *far.credited_ratio);
    BOOST_TEST(far_ci->high > *far.credited_ratio);

    auto unusable = eval();
    unusable.workloads[2].student.kernels.reset();
    BOOST_TEST(!forge::credited_ratio_ci(forge::credit_run(contract(), unusable), forge::RatioCi{0.7, 0.74}));
}
