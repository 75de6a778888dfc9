#define BOOST_TEST_MODULE ctest_integration
#include <boost/test/unit_test.hpp>

#include <cstdlib>
#include <filesystem>
#include <limits>

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
