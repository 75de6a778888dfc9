#define BOOST_TEST_MODULE ctest_integration
#include <boost/test/unit_test.hpp>

#include <cstdlib>
#include <filesystem>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "forge/credit/credit.hpp"
#include "forge/ctest/credit_measurements.hpp"
#include "forge/ctest/measurement.hpp"
#include "forge/ctest/resource_spec.hpp"

namespace fs = std::filesystem;

BOOST_AUTO_TEST_CASE(measurement_line_as_ctest_parses_it) {
    BOOST_TEST(*forge::ctest_measurement("raw_ratio", 0.82) ==
               "<CTestMeasurement type=\"numeric/double\" name=\"raw_ratio\">0.82</CTestMeasurement>");
}

BOOST_AUTO_TEST_CASE(measurements_are_finite_numbers_only) {
    BOOST_TEST(!forge::ctest_measurement("x", std::numeric_limits<double>::infinity()).has_value());
    BOOST_TEST(!forge::ctest_measurement("x", std::numeric_limits<double>::quiet_NaN()).has_value());
    BOOST_TEST(forge::ctest_measurement("x", 1e-300)->find('<', 1) != std::string::npos);  // only the tags
}

BOOST_AUTO_TEST_CASE(text_measurements_are_escaped_and_names_made_plain) {
    BOOST_TEST(forge::ctest_text_measurement("verdict", "a<b & c>d") ==
               "<CTestMeasurement type=\"text/string\" name=\"verdict\">a&lt;b &amp; c&gt;d</CTestMeasurement>");
    BOOST_TEST(forge::ctest_measurement_name("n=4096 <fp16>\"x\"") == "n_4096__fp16__x_");
    BOOST_TEST(forge::ctest_measurement_name(std::string(100, 'w')).size() == forge::ctest_measurement_name_limit);
}

namespace {

// Each measurement line's name and value, in order.
std::vector<std::pair<std::string, std::string>> named(const std::vector<std::string>& lines) {
    std::vector<std::pair<std::string, std::string>> out;
    for (const std::string& line : lines) {
        const auto name = line.find("name=\"") + 6;
        const auto value = line.find('>') + 1;
        out.emplace_back(line.substr(name, line.find('"', name) - name),
                         line.substr(value, line.find('<', value) - value));
    }
    return out;
}

std::string value_of(const std::vector<std::pair<std::string, std::string>>& figures, const std::string& name) {
    for (const auto& [n, v] : figures) {
        if (n == name) return v;
    }
    return "(absent)";
}

}  // namespace

BOOST_AUTO_TEST_CASE(a_credit_test_shows_the_run_and_each_workload) {
    const forge::EvalReport eval = forge::parse_eval(R"({"performance": {
        "ratio": 2.0, "ratio_ci": [1.9, 2.1], "verdict": "faster", "precision_reached": false,
        "reference_ms": 4.0, "student_ms": 2.0,
        "throughput": {"student": {"gflops": 12.5}},
        "workloads": [
          {"name": "n=4096 fp16", "reference_ms": 4.0, "student_ms": 2.0, "ratio": 2.0,
           "ratio_ci": [1.9, 2.1], "verdict": "faster"},
          {"name": "n=4096 fp16?", "reference_ms": 1.0, "student_ms": 2.0}]}})",
                                                     "eval.json");
    forge::RunCredit run;
    run.raw_ratio = 2.0;
    const auto figures = named(forge::credit_measurements(eval, run));
    BOOST_TEST(value_of(figures, "raw_ratio") == "2");
    BOOST_TEST(value_of(figures, "raw_ratio_ci_low") == "1.9");
    BOOST_TEST(value_of(figures, "raw_ratio_ci_high") == "2.1");
    BOOST_TEST(value_of(figures, "verdict") == "faster");
    BOOST_TEST(value_of(figures, "raw_ratio_precision") == "0.05");
    BOOST_TEST(value_of(figures, "precision_reached") == "false");
    BOOST_TEST(value_of(figures, "student_gflops") == "12.5");
    BOOST_TEST(value_of(figures, "reference_gflops") == "(absent)");  // no such figure in the eval
    BOOST_TEST(value_of(figures, "credited_ratio") == "(absent)");
    BOOST_TEST(value_of(figures, "workload.n_4096_fp16.raw_ratio_ci_low") == "1.9");
    BOOST_TEST(value_of(figures, "workload.n_4096_fp16.verdict") == "faster");
    // A second name that reads the same once made plain keeps a figure of its own.
    BOOST_TEST(value_of(figures, "workload.n_4096_fp16_.student_ms") == "2");
    for (const auto& [name, value] : figures) BOOST_TEST(name.size() <= forge::ctest_measurement_name_limit, name);
}

BOOST_AUTO_TEST_CASE(workload_names_that_collide_once_made_plain_stay_apart) {
    const forge::EvalReport eval = forge::parse_eval(
        R"({"performance": {"workloads": [{"name": "a b", "student_ms": 1.0}, {"name": "a+b", "student_ms": 3.0}]}})",
        "eval.json");
    const auto figures = named(forge::credit_measurements(eval, forge::RunCredit{}));
    BOOST_TEST(value_of(figures, "workload.a_b.student_ms") == "1");
    BOOST_TEST(value_of(figures, "workload.a_b-1.student_ms") == "3");
}

BOOST_AUTO_TEST_CASE(resource_spec_lists_each_gpu) {
    const nlohmann::json spec = forge::gpu_resource_spec(2, 3);
    BOOST_TEST(spec["version"]["major"] == 1);
    BOOST_TEST(spec["local"][0]["gpus"].size() == 2u);
    BOOST_TEST(spec["local"][0]["gpus"][1]["id"] == "1");
    BOOST_TEST(spec["local"][0]["gpus"][1]["slots"] == 3);
}

BOOST_AUTO_TEST_CASE(visible_gpus_follow_cuda_visible_devices) {
    const fs::path driver = fs::temp_directory_path() / "forge-test-no-driver";
    ::setenv("CUDA_VISIBLE_DEVICES", "0,2,GPU-8f6c", 1);
    BOOST_TEST(forge::count_visible_gpus(driver) == 3u);
    ::setenv("CUDA_VISIBLE_DEVICES", "1,-1,2", 1);  // the runtime stops at an invalid entry
    BOOST_TEST(forge::count_visible_gpus(driver) == 1u);
    ::setenv("CUDA_VISIBLE_DEVICES", "", 1);
    BOOST_TEST(forge::count_visible_gpus(driver) == 0u);
    ::unsetenv("CUDA_VISIBLE_DEVICES");
}

BOOST_AUTO_TEST_CASE(visible_gpus_from_the_driver_directory) {
    ::unsetenv("CUDA_VISIBLE_DEVICES");
    const fs::path driver = fs::temp_directory_path() / "forge-test-driver";
    fs::create_directories(driver / "0000:3b:00.0");
    fs::create_directories(driver / "0000:5e:00.0");
    BOOST_TEST(forge::count_visible_gpus(driver) == 2u);
    fs::remove_all(driver);
    BOOST_TEST(forge::count_visible_gpus(driver) == 0u);
}
