#define BOOST_TEST_MODULE bench_cli
#include <boost/test/unit_test.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench_add_operator.hpp"
#include "forge/bench/bench.hpp"
#include "forge/exit_code.hpp"
#include "forge/io/file.hpp"
#include "runtime/cuda/gpu_choice.hpp"

namespace fb = forge::bench;
namespace fs = std::filesystem;

namespace {

const fs::path data_dir = fs::path(FORGE_TEST_DATA_DIR) / "bench";

fb::Bench make_add(fb::Backend backend) {
    fb::Bench b{backend};
    b.workload("n64", {{"n", 64}}, 1).workload("n128", {{"n", 128}}, 2).workload("n256", {{"n", 256}}, 3);
    add_tensors(b);
    b.reference(add);
    b.student(add);
    return b;
}

fb::Bench make_host_add() { return make_add(fb::Backend::host); }

int bench_main(std::vector<std::string> args, fb::Bench (*make)() = &make_host_add,
               const std::optional<fb::BuildInfo>& build = std::nullopt) {
    args.insert(args.begin(), "forge_add_bench");
    std::vector<char*> argv;
    for (std::string& arg : args) argv.push_back(arg.data());
    return fb::bench_main(static_cast<int>(argv.size()), argv.data(), make, build);
}

}  // namespace

BOOST_AUTO_TEST_CASE(a_declared_contract_runs_and_writes_the_eval) {
    TempDir dir("forge_bench_cli");
    const fs::path eval = dir.path / "eval.json";
    const int code = bench_main({"--contract", (data_dir / "add_symmetric.toml").string(), "--eval", eval.string(),
                                 "--operator", "add", "--quick"});
    BOOST_TEST(code == forge::exit_code::ok);
    std::ifstream in(eval);
    const auto json = nlohmann::json::parse(in);
    BOOST_TEST(json["operator"] == "add");
    BOOST_TEST(json["performance"]["n_workloads"] == 3);
}

// Each side's options by language, and a notice naming those one side has alone.
BOOST_AUTO_TEST_CASE(options_one_side_was_compiled_with_alone_are_recorded_and_said) {
    TempDir dir("forge_bench_cli");
    const fs::path eval = dir.path / "eval.json";
    const auto run = [&](std::string_view reference_options, std::string_view student_options) {
        const fb::BuildInfo build{.build_type = "Release", .compiler = "GNU 12.2.0", .flags = "-O3",
                                  .cuda_compiler = "", .cuda_flags = "", .optimized = true,
                                  .cuda_architectures = "", .c_compiler = "GNU 12.2.0", .c_flags = "-O2",
                                  .reference_options = reference_options, .student_options = student_options};
        BOOST_TEST_REQUIRE(bench_main({"--contract", (data_dir / "add_symmetric.toml").string(), "--eval",
                                       eval.string(), "--operator", "add", "--quick"},
                                      &make_host_add, build) == forge::exit_code::ok);
        std::ifstream in(eval);
        return nlohmann::json::parse(in);
    };
    const auto said = [](const nlohmann::json& json) {
        std::string notice;
        for (const auto& n : json["notices"]) {
            if (n.get<std::string>().starts_with("the sides were compiled with different options")) notice = n;
        }
        return notice;
    };
    // The same options in another order: nothing said.
    const auto alike = run("CXX=-O3\t-fno-math-errno\nC=-fopenmp\n", "CXX=-fno-math-errno\t-O3\nC=-fopenmp\n");
    BOOST_TEST(alike["build"]["student_options"]["C"] == nlohmann::json::array({"-fopenmp"}));
    BOOST_TEST(said(alike).empty());
    const auto differ = run("CXX=-O3\nC=\n", "CXX=-O3\t-DNOTE=\"a b\"\nC=-fopenmp\n");
    BOOST_TEST(differ["build"]["student_options"]["CXX"] == nlohmann::json::array({"-O3", "-DNOTE=\"a b\""}));
    BOOST_TEST(said(differ).find("the student alone has -fopenmp (C), -DNOTE=\"a b\" (CXX)") != std::string::npos);
    BOOST_TEST(said(differ).find("the reference alone has") == std::string::npos);
}

BOOST_AUTO_TEST_CASE(a_refused_contract_is_a_usage_error_and_nothing_runs) {
    TempDir dir("forge_bench_cli");
    const fs::path eval = dir.path / "eval.json";
    const int code = bench_main({"--contract", (data_dir / "add_undeclared.toml").string(), "--eval", eval.string(),
                                 "--operator", "add"});
    BOOST_TEST(code == forge::exit_code::usage);
    BOOST_TEST(!fs::exists(eval));
}

// A run that stops before writing leaves no eval behind: the checks then skip
// instead of judging an earlier run's ratios.
BOOST_AUTO_TEST_CASE(a_run_that_does_not_write_removes_the_previous_eval) {
    TempDir dir("forge_bench_cli");
    const fs::path eval = dir.path / "eval.json";
    std::ofstream(eval) << "{\"schema_version\": 1}";
    const int code = bench_main({"--contract", (data_dir / "add_undeclared.toml").string(), "--eval", eval.string(),
                                 "--operator", "add"});
    BOOST_TEST(code == forge::exit_code::usage);
    BOOST_TEST(!fs::exists(eval));
}

// The directory the eval goes to is made; one that cannot be made fails the
// command before the bench is even made, and the file in its way is left as it was.
BOOST_AUTO_TEST_CASE(the_eval_directory_is_made_and_one_that_cannot_be_fails_before_the_run) {
    TempDir dir("forge_bench_cli");
    const fs::path eval = dir.path / "runs" / "today" / "eval.json";
    BOOST_TEST(bench_main({"--contract", (data_dir / "add_symmetric.toml").string(), "--eval", eval.string(),
                           "--operator", "add", "--quick"}) == forge::exit_code::ok);
    BOOST_TEST(fs::is_regular_file(eval));

    const fs::path in_the_way = dir.path / "blocked";
    std::ofstream(in_the_way) << "the user's";
    static bool made = false;
    const auto make = []() {
        made = true;
        return make_host_add();
    };
    BOOST_TEST(bench_main({"--contract", (data_dir / "add_symmetric.toml").string(), "--eval",
                           (in_the_way / "eval.json").string(), "--operator", "add", "--quick"},
                          make) == forge::exit_code::usage);
    BOOST_TEST(!made);
    std::ifstream in(in_the_way);
    const std::string kept((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    BOOST_TEST(kept == "the user's");
}

// The bench replaces an eval.json, never another file: swapped arguments
// (`--eval window.toml`) or a typo naming a source refuse and leave it as it was.
BOOST_AUTO_TEST_CASE(an_eval_path_naming_another_file_or_a_directory_is_refused_and_left_alone) {
    TempDir dir("forge_bench_cli");
    const fs::path contract = dir.path / "window.toml";
    fs::copy_file(data_dir / "add_symmetric.toml", contract);
    const std::string declared = forge::read_file(contract);
    BOOST_TEST(bench_main({"--contract", (data_dir / "add_symmetric.toml").string(), "--eval", contract.string(),
                           "--operator", "add", "--quick"}) == forge::exit_code::usage);
    BOOST_TEST(forge::read_file(contract) == declared);

    const fs::path source = dir.path / "student.json";
    std::ofstream(source) << "{\"runs\": []}";
    BOOST_TEST(bench_main({"--contract", (data_dir / "add_symmetric.toml").string(), "--eval", source.string(),
                           "--operator", "add", "--quick"}) == forge::exit_code::usage);
    BOOST_TEST(fs::exists(source));

    const fs::path directory = dir.path / "results";
    fs::create_directory(directory);
    BOOST_TEST(bench_main({"--contract", (data_dir / "add_symmetric.toml").string(), "--eval", directory.string(),
                           "--operator", "add", "--quick"}) == forge::exit_code::usage);
    BOOST_TEST(fs::is_directory(directory));

    const fs::path empty = dir.path / "empty.json";
    std::ofstream{empty};
    BOOST_TEST(bench_main({"--contract", (data_dir / "add_symmetric.toml").string(), "--eval", empty.string(),
                           "--operator", "add", "--quick"}) == forge::exit_code::ok);
    BOOST_TEST(forge::read_file(empty).find("\"schema_version\"") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(an_absent_contract_is_refused_too) {
    TempDir dir("forge_bench_cli");
    const int code = bench_main({"--contract", (dir.path / "window.toml").string(), "--eval",
                                 (dir.path / "eval.json").string(), "--operator", "add"});
    BOOST_TEST(code == forge::exit_code::usage);
}

BOOST_AUTO_TEST_CASE(missing_or_unknown_arguments_are_usage_errors) {
    BOOST_TEST(bench_main({"--eval", "e.json", "--operator", "add"}) == forge::exit_code::usage);
    BOOST_TEST(bench_main({"--contract"}) == forge::exit_code::usage);
    BOOST_TEST(bench_main({"--contract", "w.toml", "--eval", "e.json", "--operator", "add", "--fast"}) ==
               forge::exit_code::usage);
    BOOST_TEST(bench_main({"--help"}) == forge::exit_code::ok);
}

BOOST_AUTO_TEST_CASE(precision_is_a_fraction) {
    const std::string contract = (data_dir / "add_symmetric.toml").string();
    BOOST_TEST(bench_main({"--contract", contract, "--eval", "e.json", "--operator", "add", "--precision", "1.5"}) ==
               forge::exit_code::usage);
    BOOST_TEST(bench_main({"--contract", contract, "--eval", "e.json", "--operator", "add", "--precision", "1%"}) ==
               forge::exit_code::usage);
    BOOST_TEST(bench_main({"--contract", contract, "--eval", "e.json", "--operator", "add", "--precision"}) ==
               forge::exit_code::usage);
}

BOOST_AUTO_TEST_CASE(the_time_cap_is_seconds_and_reaches_the_stopping_rule) {
    const std::string contract = (data_dir / "add_symmetric.toml").string();
    for (const char* refused : {"0", "-1", "2s", "3601"}) {
        BOOST_TEST(bench_main({"--contract", contract, "--eval", "e.json", "--operator", "add", "--time-cap",
                               refused}) == forge::exit_code::usage,
                   refused);
    }
    BOOST_TEST(bench_main({"--contract", contract, "--eval", "e.json", "--operator", "add", "--time-cap"}) ==
               forge::exit_code::usage);
    TempDir dir("forge_bench_cli");
    const fs::path eval = dir.path / "eval.json";
    BOOST_TEST_REQUIRE(bench_main({"--contract", contract, "--eval", eval.string(), "--operator", "add", "--quick",
                                   "--time-cap", "0.2", "--precision", "0.03"}) == forge::exit_code::ok);
    const auto stopping = nlohmann::json::parse(forge::read_file(eval))["performance"]["stopping"];
    BOOST_TEST(stopping["max_wall_s"].get<double>() == 0.2);
    BOOST_TEST(stopping["precision"].get<double>() == 0.03);
}

BOOST_AUTO_TEST_CASE(an_a_a_run_times_the_side_named_against_itself_with_a_history_of_its_own) {
    const std::string contract = (data_dir / "add_symmetric.toml").string();
    for (const char* refused : {"sideways", "both"}) {
        BOOST_TEST(bench_main({"--contract", contract, "--eval", "e.json", "--operator", "add", "--a-a", refused}) ==
                       forge::exit_code::usage,
                   refused);
    }
    BOOST_TEST(bench_main({"--contract", contract, "--eval", "e.json", "--operator", "add", "--a-a"}) ==
               forge::exit_code::usage);
    TempDir dir("forge_bench_cli");
    const fs::path eval = dir.path / "eval.json";
    const fs::path a_a = dir.path / "eval.a_a.json";
    BOOST_TEST_REQUIRE(bench_main({"--contract", contract, "--eval", eval.string(), "--operator", "add", "--quick"}) ==
                       forge::exit_code::ok);
    BOOST_TEST_REQUIRE(bench_main({"--contract", contract, "--eval", a_a.string(), "--operator", "add", "--quick",
                                   "--a-a", "student"}) == forge::exit_code::ok);
    const auto performance = nlohmann::json::parse(forge::read_file(a_a))["performance"];
    BOOST_TEST(performance["a_a"]["side"] == "student");
    // Beside the card's run, in the same add.runs.json, yet not among its runs.
    BOOST_TEST(performance["between_runs"]["runs"] == 1);
    BOOST_TEST(nlohmann::json::parse(forge::read_file(eval))["performance"]["a_a"].is_null());
}

namespace {
fb::Bench make_cuda_add() { return make_add(fb::Backend::cuda); }
}  // namespace

#ifndef FORGE_BENCH_HAS_CUDA
// The skip is written down, so forge report can say the operator measured nothing and why.
BOOST_AUTO_TEST_CASE(a_cuda_bench_without_the_cuda_backend_skips_with_77_and_says_why_in_the_eval) {
    TempDir dir("forge_bench_cli");
    const fs::path eval = dir.path / "eval.json";
    const fb::BuildInfo build{.build_type = "Release", .compiler = "GNU 12.2.0", .flags = "-O3",
                              .cuda_compiler = "NVIDIA 13.0.48", .cuda_flags = "-O3", .optimized = true,
                              .cuda_architectures = "90-real", .c_compiler = "GNU 12.2.0", .c_flags = "-O2",
                              .reference_options = "CXX=-falign-functions=64\n",
                              .student_options = "CXX=-falign-functions=64\n"};
    const int code = bench_main({"--contract", (data_dir / "add_symmetric.toml").string(), "--eval", eval.string(),
                                 "--operator", "add"},
                                &make_cuda_add, build);
    BOOST_TEST(code == forge::exit_code::skipped);
    std::ifstream in(eval);
    const auto json = nlohmann::json::parse(in);
    BOOST_TEST(json["operator"] == "add");
    BOOST_TEST(json["backend"] == "cuda");
    BOOST_TEST(json["skipped"]["reason"].get<std::string>().find("CUDA") != std::string::npos);
    BOOST_TEST(json["performance"].is_null());
    // How it was built, though nothing ran: a CUDA card's architectures show on a GPU-less machine.
    BOOST_TEST(json["build"]["cuda_architectures"] == "90-real");
    BOOST_TEST(json["build"]["optimized"] == true);
    BOOST_TEST(json["build"]["c_flags"] == "-O2");  // a card with C sources
}
#endif

// The checks that need no device come before the device check: a CUDA bench whose
// output disagrees with window.toml fails on a machine without a GPU (or against a
// forge::bench without CUDA) instead of skipping, and says why.
BOOST_AUTO_TEST_CASE(a_cuda_bench_that_disagrees_with_its_contract_fails_without_a_device) {
    TempDir dir("forge_bench_cli");
    const fs::path eval = dir.path / "eval.json";
    const int code = bench_main({"--contract", (data_dir / "add_output_renamed.toml").string(), "--eval",
                                 eval.string(), "--operator", "add"},
                                &make_cuda_add);
    BOOST_TEST(code == forge::exit_code::problems);
    std::ifstream in(eval);
    const auto json = nlohmann::json::parse(in);
    BOOST_TEST(json["backend"] == "cuda");
    BOOST_TEST(!json.contains("skipped"));
    BOOST_TEST(json["correctness"]["passed"] == false);
    BOOST_TEST(any_has(json["correctness"]["problems"].get<std::vector<std::string>>(),
                       {"workload 'n64'", "outputs() declares 'c'", "neither side"}));
}

BOOST_AUTO_TEST_CASE(the_gpu_comes_from_ctest_resource_allocation) {
    BOOST_TEST(fb::parse_gpu_allocation("id:1,slots:1") == 1);
    BOOST_TEST(fb::parse_gpu_allocation("slots:2,id:3") == 3);
    BOOST_TEST(fb::parse_gpu_allocation("id:0,slots:1;id:2,slots:1") == 0);
    BOOST_CHECK_THROW((void)fb::parse_gpu_allocation("slots:1"), std::invalid_argument);
    BOOST_CHECK_THROW((void)fb::parse_gpu_allocation("id:x,slots:1"), std::invalid_argument);

    ::unsetenv("CTEST_RESOURCE_GROUP_COUNT");
    BOOST_TEST(fb::ctest_gpu_device() == 0);
    ::setenv("CTEST_RESOURCE_GROUP_COUNT", "1", 1);
    ::setenv("CTEST_RESOURCE_GROUP_0_GPUS", "id:1,slots:1", 1);
    BOOST_TEST(fb::ctest_gpu_device() == 1);
    ::unsetenv("CTEST_RESOURCE_GROUP_0_GPUS");
    BOOST_CHECK_THROW((void)fb::ctest_gpu_device(), std::invalid_argument);
    ::unsetenv("CTEST_RESOURCE_GROUP_COUNT");
}
