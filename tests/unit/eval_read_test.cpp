#define BOOST_TEST_MODULE eval_read
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

#include "forge/eval/eval.hpp"
#include "forge/eval/run_history.hpp"
#include "forge/eval/table_file.hpp"

namespace fs = std::filesystem;
namespace tt = boost::test_tools;

namespace {

const fs::path data_dir = fs::path(FORGE_TEST_DATA_DIR) / "eval";

forge::EvalError parse_error(const std::string& text) {
    try {
        (void)forge::parse_eval(text, "eval.json");
    } catch (const forge::EvalError& e) {
        return e;
    }
    BOOST_FAIL("no EvalError for: " << text.substr(0, 80));
    throw;  // unreachable
}

// A scratch file removed at the end of the test.
struct TempFile {
    fs::path path;
    explicit TempFile(const std::string& name)
        : path(fs::temp_directory_path() / (name + "." + std::to_string(::getpid()))) {}
    ~TempFile() { fs::remove(path); }
    void write(const std::string& text) const { std::ofstream(path, std::ios::binary) << text; }
};

}  // namespace

BOOST_AUTO_TEST_CASE(a_full_eval_reads_into_the_model) {
    const auto eval = forge::load_eval(data_dir / "layernorm_bwd.json");
    BOOST_REQUIRE(eval.has_value());
    BOOST_TEST(eval->operator_name.value() == "layernorm_bwd");
    BOOST_TEST(eval->correctness_passed.value());
    BOOST_TEST(eval->ratio.value() == 0.82);
    BOOST_TEST(eval->reference_ms.value() == 0.41);
    BOOST_TEST(eval->prep["workloads"].size() == 2u);
    BOOST_REQUIRE(eval->workloads.size() == 2u);

    const auto& w0 = eval->workloads[0];
    BOOST_TEST(w0.name == "m4096_n4096");
    BOOST_TEST(w0.reference.ms.value() == 0.4);
    BOOST_TEST(w0.student.ms.value() == 0.49);
    BOOST_REQUIRE(w0.student.kernels.has_value());
    BOOST_REQUIRE(w0.student.kernels->kernels.size() == 2u);
    BOOST_TEST(w0.student.kernels->kernels[1].name == "k2_dx");
    BOOST_TEST(w0.student.kernels->kernels[1].launches == 2);
    BOOST_TEST(w0.student.kernels->kernels[1].time_ns == 390000.0);
    BOOST_TEST(w0.student.kernels->kernels[1].pct == 81.25);
    BOOST_TEST(w0.student.profiler->total_ns == 960000.0);
    BOOST_TEST(w0.student.profiler->calls == 2);
    BOOST_TEST(&w0.side(forge::Side::reference) == &w0.reference);

    // null and {} mean "not reported"; an empty table is a table without rows.
    const auto& w1 = eval->workloads[1];
    BOOST_TEST(!w1.student.ms.has_value());
    BOOST_TEST(w1.reference.kernels.has_value());
    BOOST_TEST(w1.reference.kernels->kernels.empty());
    BOOST_TEST(!w1.student.kernels.has_value());
    BOOST_TEST(!w1.reference.profiler.has_value());
    BOOST_TEST(!w1.student.profiler.has_value());
}

BOOST_AUTO_TEST_CASE(a_missing_file_is_no_eval_not_an_error) {
    BOOST_TEST(!forge::load_eval(data_dir / "no-such-eval.json").has_value());
}

BOOST_AUTO_TEST_CASE(a_directory_is_an_error_naming_it) {
    try {
        (void)forge::load_eval(data_dir);
        BOOST_FAIL("a directory was read");
    } catch (const forge::EvalError& e) {
        BOOST_TEST(std::string(e.what()).find("is a directory") != std::string::npos);
    }
}

BOOST_AUTO_TEST_CASE(a_minimal_eval_has_nothing_to_report) {
    const auto eval = forge::parse_eval(R"({"schema_version": 1})", "eval.json");
    BOOST_TEST(eval.path == "eval.json");
    BOOST_TEST(eval.prep.is_null());
    BOOST_TEST(eval.workloads.empty());
    BOOST_TEST(!eval.correctness_passed.has_value());
    BOOST_TEST(!eval.ratio.has_value());
}

BOOST_AUTO_TEST_CASE(an_eval_is_judged_only_under_the_contract_text_its_bench_ran_under) {
    forge::WindowContract contract;
    contract.digest = "crc32:1c291ca3";
    const auto same = forge::parse_eval(R"({"schema_version": 1, "contract_digest": "crc32:1c291ca3"})", "eval.json");
    BOOST_TEST(same.contract_digest.value() == "crc32:1c291ca3");
    BOOST_TEST(same.measured_under(contract));
    const auto edited = forge::parse_eval(R"({"schema_version": 1, "contract_digest": "crc32:00000000"})", "e.json");
    BOOST_TEST(!edited.measured_under(contract));
    // A bench from before digests, or a contract built in code: nothing to hold.
    BOOST_TEST(forge::parse_eval(R"({"schema_version": 1})", "eval.json").measured_under(contract));
    BOOST_TEST(edited.measured_under(forge::WindowContract{}));
}

BOOST_AUTO_TEST_CASE(kernel_rows_are_read_as_leniently_as_the_python_oracle_reads_them) {
    // float(row.get("time_ns") or 0.0), 0 where float() raises; str(row.get("name", "")).
    const auto eval = forge::parse_eval(R"({"performance": {"workloads": [{"kernels": {"student": [
        {"name": "a", "time_ns": "abc"},
        {"name": "b", "time_ns": null},
        {"name": "c"},
        {"name": "d", "time_ns": " 1_000 "},
        {"name": "e", "time_ns": true},
        {"name": "f", "time_ns": [5]},
        {"time_ns": 7},
        {"name": 5, "time_ns": 1e3, "launches": "x", "pct": "n/a"},
        {"name": null, "time_ns": 2.5},
        {"name": 1.5}
    ]}}]}})",
                                        "eval.json");
    const auto& rows = eval.workloads.at(0).student.kernels->kernels;
    BOOST_REQUIRE(rows.size() == 10u);
    const double times[] = {0, 0, 0, 1000, 1, 0, 7, 1000, 2.5, 0};
    const char* names[] = {"a", "b", "c", "d", "e", "f", "", "5", "None", "1.5"};
    for (std::size_t i = 0; i < rows.size(); ++i) {
        BOOST_TEST(rows[i].time_ns == times[i], "row " << i);
        BOOST_TEST(rows[i].name == names[i], "row " << i);
    }
    BOOST_TEST(rows[7].launches == 0);
    BOOST_TEST(rows[7].pct == 0.0);
    BOOST_TEST(eval.workloads[0].name == "0");  // no name: its index, as the Python oracle tags it
}

BOOST_AUTO_TEST_CASE(profiler_digests_keep_the_oracles_none_cases) {
    const auto eval = forge::parse_eval(R"({"performance": {"workloads": [
        {"name": null, "profiler": {"reference": {"total_ns": "x"}, "student": {"total_ns": 5, "calls": "abc"}}},
        {"profiler": {"reference": {"total_ns": 5, "calls": -2}, "student": [1, 2]}},
        {"profiler": {"reference": {"total_ns": "5e5", "calls": "3"}, "student": {"calls": 2}}}
    ]}})",
                                        "eval.json");
    const auto& w = eval.workloads;
    BOOST_TEST(w[0].name == "None");
    BOOST_TEST(std::isnan(w[0].reference.profiler->total_ns));  // not a number: no coverage
    BOOST_TEST(w[0].student.profiler->calls == 0);              // not a number: no coverage
    BOOST_TEST(w[1].reference.profiler->calls == 0);
    BOOST_TEST(!w[1].student.profiler.has_value());  // not an object: no digest, as the oracle
    BOOST_TEST(w[2].reference.profiler->total_ns == 5e5);
    BOOST_TEST(w[2].reference.profiler->calls == 3);
    BOOST_TEST(w[2].student.profiler->calls == 2);
    BOOST_TEST(std::isnan(w[2].student.profiler->total_ns));
}

BOOST_AUTO_TEST_CASE(a_kernel_row_that_is_not_an_object_names_file_line_and_key) {
    try {
        (void)forge::load_eval(data_dir / "kernel_row_not_object.json");
        BOOST_FAIL("read a kernel row that is a string");
    } catch (const forge::EvalError& e) {
        BOOST_TEST(e.key == "performance.workloads[0].kernels.student[1]");
        BOOST_REQUIRE(e.location.has_value());
        BOOST_TEST(e.location->line == 8);
        const std::string what = e.what();
        BOOST_TEST(what.find("kernel_row_not_object.json:8:") != std::string::npos, what);
        BOOST_TEST(what.find("performance.workloads[0].kernels.student[1]") != std::string::npos, what);
        BOOST_TEST(what.find("expected a kernel row") != std::string::npos, what);
    }
}

BOOST_AUTO_TEST_CASE(a_truncated_file_is_an_error_at_its_end) {
    try {
        (void)forge::load_eval(data_dir / "truncated.json");
        BOOST_FAIL("read a truncated file");
    } catch (const forge::EvalError& e) {
        BOOST_REQUIRE(e.location.has_value());
        BOOST_TEST(e.location->line == 6);
        BOOST_TEST(std::string(e.what()).find("truncated.json:6:") != std::string::npos, e.what());
        BOOST_TEST(std::string(e.what()).find("not valid JSON") != std::string::npos);
    }
}

BOOST_AUTO_TEST_CASE(syntax_errors_carry_line_and_column) {
    const auto e = parse_error("{\n  \"performance\": {\n    \"ratio\": tru\n  }\n}\n");
    BOOST_REQUIRE(e.location.has_value());
    BOOST_TEST(e.location->line == 3);
    BOOST_TEST(std::string(e.what()).find("eval.json:3:") == 0u, e.what());
    BOOST_TEST(std::string(e.what()).find("[json.exception") == std::string::npos, e.what());
}

BOOST_AUTO_TEST_CASE(structural_errors_name_the_key_and_its_line) {
    struct Case {
        const char* text;
        const char* key;
        int line;
    } const cases[] = {
        {"[\n  {\"performance\": {}}\n]\n", "", 1},
        {"{\n \"performance\": {\"workloads\": [\n  {\"student_ms\": \"fast\"}]}}",
         "performance.workloads[0].student_ms", 3},
        {"{\"performance\": {\n\"ratio\": \"0.8\"}}", "performance.ratio", 2},
        {"{\"performance\": 3}", "performance", 1},
        {"{\"performance\": {\"workloads\": {}}}", "performance.workloads", 1},
        {"{\"performance\": {\"workloads\": [1]}}", "performance.workloads[0]", 1},
        {"{\"performance\": {\"workloads\": [{}, {\"kernels\": []}]}}", "performance.workloads[1].kernels", 1},
        {"{\"performance\": {\"workloads\": [{\"kernels\": {\"reference\": {\"a\": 1}}}]}}",
         "performance.workloads[0].kernels.reference", 1},
        {"{\"performance\": {\"workloads\": [{\"profiler\": [1]}]}}", "performance.workloads[0].profiler", 1},
        {"{\"performance\": {\"workloads\": [{\"profiler\": {\"student\": {\"total_ns\": 1,\n\"calls\": 1.5}}}]}}",
         "performance.workloads[0].profiler.student.calls", 2},
        {"{\"correctness\": {\"passed\": \"yes\"}}", "correctness.passed", 1},
        {"{\"schema_version\": 2}", "schema_version", 1},
    };
    for (const Case& c : cases) {
        const auto e = parse_error(c.text);
        BOOST_TEST(e.key == c.key, c.text);
        BOOST_REQUIRE(e.location.has_value());
        BOOST_TEST(e.location->line == c.line, c.text);
        BOOST_TEST(e.file == "eval.json");
    }
}

BOOST_AUTO_TEST_CASE(a_number_past_double_range_is_an_error_not_a_crash) {
    const auto e = parse_error("{\"performance\": {\n\"ratio\": 1e400}}");
    BOOST_REQUIRE(e.location.has_value());
    BOOST_TEST(e.location->line == 2);
    BOOST_TEST(std::string(e.what()).find("number overflow") != std::string::npos, e.what());
}

BOOST_AUTO_TEST_CASE(binary_content_is_an_error) {
    const char elf[] =
        "\x7f"
        "ELF\x02\x01\x01\x00\x00\x00\xff\xfe";
    const std::string binary(elf, sizeof elf - 1);
    const auto e = parse_error(binary);
    BOOST_TEST(std::string(e.what()).find("not valid JSON") != std::string::npos);
    // Invalid UTF-8 inside a string is refused too.
    (void)parse_error("{\"operator\": \"\xff\xfe\"}");
}

BOOST_AUTO_TEST_CASE(deep_nesting_is_refused_not_a_stack_overflow) {
    const std::string deep(300000, '[');
    const auto e = parse_error(deep);
    BOOST_TEST(std::string(e.what()).find("nested deeper than 512") != std::string::npos, e.what());
    BOOST_TEST(e.location->line == 1);
    BOOST_TEST(e.location->column == 513);

    // Deep inside an otherwise valid report, in the free-form prep block.
    const std::string nested = "{\"performance\": {\"prep\": " + std::string(600, '[') + std::string(600, ']') + "}}";
    (void)parse_error(nested);

    // At the bound itself it reads.
    const std::string at_bound = "{\"performance\": {\"prep\": " + std::string(510, '[') + std::string(510, ']') + "}}";
    BOOST_TEST(forge::parse_eval(at_bound, "eval.json").prep.is_array());
}

BOOST_AUTO_TEST_CASE(a_30_megabyte_eval_reads) {
    // One workload with a long kernel table, as a profiler of a large model writes.
    std::string text =
        R"({"schema_version": 1, "performance": {"workloads": [{"name": "big", "kernels": {"student": [)";
    const std::string row =
        R"x({"name": "void cutlass::Kernel<cutlass_80_tensorop_bf16_s16816gemm_relu_bf16_64x64_32x6_tn_align8>(Params)", "launches": 1, "time_ns": 1234.5, "pct": 0.001},)x";
    std::size_t rows = 0;
    while (text.size() < 30u * 1024u * 1024u) {
        text += row;
        ++rows;
    }
    text.back() = ']';
    text += "}}]}}";
    const TempFile file("forge_eval_big.json");
    file.write(text);
    const std::clock_t start = std::clock();
    const auto eval = forge::load_eval(file.path);
    const double cpu_seconds = static_cast<double>(std::clock() - start) / CLOCKS_PER_SEC;
    BOOST_REQUIRE(eval.has_value());
    BOOST_TEST(eval->workloads.at(0).student.kernels->kernels.size() == rows);
    // Linear: about 2 s in a release build, 20 s under the sanitizers; a parse
    // that rescans containers as they close takes minutes.
    BOOST_TEST(cpu_seconds < 60.0);
}

BOOST_AUTO_TEST_CASE(what_the_bench_caught_and_flagged_is_read) {
    const forge::EvalReport eval = forge::parse_eval(R"({
        "correctness": {"passed": false, "problems": ["late work", 7]},
        "notices": ["kernel set changed"],
        "performance": {"workloads": [
            {"name": "w0", "kernel_set_changed": {"reference": false, "student": true}},
            {"name": "w1", "kernel_set_changed": {"reference": null}},
            {"name": "w2"}]}})",
                                                     "eval.json");
    BOOST_TEST((eval.problems == std::vector<std::string>{"late work", "7"}));
    BOOST_TEST((eval.notices == std::vector<std::string>{"kernel set changed"}));
    BOOST_REQUIRE(eval.workloads.size() == 3u);
    BOOST_TEST(eval.workloads[0].reference.kernel_set_changed.value() == false);
    BOOST_TEST(eval.workloads[0].student.kernel_set_changed.value() == true);
    // null or absent: the bench could not observe it.
    BOOST_TEST(!eval.workloads[1].reference.kernel_set_changed.has_value());
    BOOST_TEST(!eval.workloads[1].student.kernel_set_changed.has_value());
    BOOST_TEST(!eval.workloads[2].student.kernel_set_changed.has_value());
}

BOOST_AUTO_TEST_CASE(a_kernel_set_flag_that_is_not_a_boolean_names_its_key) {
    const forge::EvalError error = parse_error(
        R"({"performance": {"workloads": [{"name": "w0", "kernel_set_changed": {"student": "yes"}}]}})");
    BOOST_TEST(error.key == "performance.workloads[0].kernel_set_changed.student");
    BOOST_TEST(std::string(error.what()).find("expected true, false or null") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(a_run_on_a_busier_machine_than_the_earlier_ones_is_read) {
    const auto busier = [](const char* between_runs) {
        return forge::parse_eval(std::string(R"({"performance": {"between_runs": )") + between_runs + "}}", "eval.json")
            .busier_machine;
    };
    BOOST_TEST(busier(R"({"runs": 2, "machine": {"busier": true}})").value() == true);
    BOOST_TEST(busier(R"({"runs": 2, "machine": {"busier": false}})").value() == false);
    // No history (null), or a file from before the machine was kept: unknown.
    BOOST_TEST(!busier("null").has_value());
    BOOST_TEST(!busier(R"({"runs": 2, "log_sd": 0.01})").has_value());
    const forge::EvalError error = parse_error(R"({"performance": {"between_runs": {"machine": {"busier": 1}}}})");
    BOOST_TEST(error.key == "performance.between_runs.machine.busier");
}

BOOST_AUTO_TEST_CASE(a_run_beside_a_neighbour_is_read) {
    const auto neighbour_cpus = [](const char* device) {
        return forge::parse_eval(std::string(R"({"schema_version": 1, "device": )") + device + "}", "eval.json")
            .machine.neighbour_cpus;
    };
    BOOST_TEST(neighbour_cpus(R"({"other_processes": {"cpus": 0.97, "neighbour": true}})").value() == 0.97);
    // A quiet machine, a CUDA run (null), a file from before it was read: no neighbour said.
    BOOST_TEST(!neighbour_cpus(R"({"other_processes": {"cpus": 0.02, "neighbour": false}})").has_value());
    BOOST_TEST(!neighbour_cpus(R"({"other_processes": null})").has_value());
    BOOST_TEST(!neighbour_cpus(R"({"name": "AMD EPYC"})").has_value());
}

BOOST_AUTO_TEST_CASE(each_sides_compile_options_are_read_by_language) {
    const forge::EvalReport eval = forge::parse_eval(
        R"({"schema_version": 1, "build": {"optimized": true, "reference_options": {"CXX": ["-O3"], "C": []},
                      "student_options": {"CXX": ["-O3", "-DNOTE=\"a b\""]}}})",
        "eval.json");
    BOOST_TEST_REQUIRE(eval.reference_options.has_value());
    BOOST_TEST(eval.reference_options->at("CXX") == std::vector<std::string>{"-O3"});
    BOOST_TEST(eval.reference_options->at("C").empty());
    BOOST_TEST(eval.student_options->at("CXX").back() == "-DNOTE=\"a b\"");
    BOOST_TEST(forge::options_one_side_has_alone(*eval.reference_options, *eval.student_options) ==
               "the student alone has -DNOTE=\"a b\" (CXX)");
    // An option a side has in each of its languages is named once, with them.
    const forge::OptionsByLanguage student{{"C", {"-msse3", "-fopenmp"}}, {"CXX", {"-msse3", "-msse3"}}};
    BOOST_TEST(forge::options_one_side_has_alone({{"C", {}}}, student) ==
               "the student alone has -msse3 (C, CXX), -fopenmp (C)");
    // Older files have none; a language's options that are not a list name their key.
    const auto older = forge::parse_eval(R"({"schema_version": 1, "build": {"optimized": true}})", "eval.json");
    BOOST_TEST(!older.student_options.has_value());
    const forge::EvalError error =
        parse_error(R"({"schema_version": 1, "build": {"student_options": {"C": "-fopenmp"}}})");
    BOOST_TEST(error.key == "build.student_options.C");
}

BOOST_AUTO_TEST_CASE(a_quick_run_is_read_as_one) {
    const auto quick = [](const char* stopping) {
        return forge::parse_eval(std::string(R"({"performance": {"stopping": )") + stopping + "}}", "eval.json").quick;
    };
    BOOST_TEST(quick(R"({"criterion": "paired-ratio-precision", "preset": "quick"})"));
    BOOST_TEST(!quick(R"({"criterion": "paired-ratio-precision", "preset": "standard"})"));
    // A file from before the preset was written, or with no rule: not known to be quick.
    BOOST_TEST(!quick(R"({"criterion": "paired-ratio-precision"})"));
    BOOST_TEST(!quick("null"));
    const forge::EvalError error = parse_error(R"({"performance": {"stopping": "quick"}})");
    BOOST_TEST(error.key == "performance.stopping");
}

BOOST_AUTO_TEST_CASE(a_workload_whose_interval_reaches_the_earlier_runs_is_read) {
    const auto reaches = [](const char* between_runs) {
        return forge::parse_eval(std::string(R"({"performance": {"workloads": [{"name": "w0", "between_runs": )") +
                                     between_runs + "}]}}",
                                 "eval.json")
            .workloads.at(0)
            .between_runs.value_or(forge::BetweenRuns{})
            .reaches_earlier_runs;
    };
    BOOST_TEST(reaches(R"({"runs": 3, "reaches_earlier_runs": true})").value() == true);
    BOOST_TEST(reaches(R"({"runs": 3, "reaches_earlier_runs": false})").value() == false);
    // No history, or a file from before the mark was written: unknown.
    BOOST_TEST(!reaches("null").has_value());
    BOOST_TEST(!reaches(R"({"runs": 3, "log_sd": 0.01})").has_value());
    const forge::EvalError error = parse_error(
        R"({"performance": {"workloads": [{"name": "w0", "between_runs": {"reaches_earlier_runs": "yes"}}]}})");
    BOOST_TEST(error.key == "performance.workloads[0].between_runs.reaches_earlier_runs");
}

BOOST_AUTO_TEST_CASE(the_spread_between_runs_is_read_for_the_run_and_each_workload) {
    const forge::EvalReport eval = forge::parse_eval(
        R"({"performance": {"between_runs": {"runs": 4, "log_sd": 0.02, "within_run_ci": [0.79, 0.81],
                                             "reaches_earlier_runs": false, "machine": {"busier": false}},
                            "workloads": [{"name": "w0", "between_runs": {"runs": 3, "within_run_ci": [0.7, 0.9]}},
                                          {"name": "w1", "between_runs": null}]}})",
        "eval.json");
    BOOST_TEST_REQUIRE(eval.between_runs.has_value());
    BOOST_TEST(eval.between_runs->runs.value() == 4);
    BOOST_TEST(eval.between_runs->log_sd.value() == 0.02);
    BOOST_TEST((eval.between_runs->within_run_ci.value() == forge::RatioCi{0.79, 0.81}));
    BOOST_TEST(eval.between_runs->reaches_earlier_runs.value() == false);
    BOOST_TEST_REQUIRE(eval.workloads.at(0).between_runs.has_value());
    BOOST_TEST(eval.workloads[0].between_runs->runs.value() == 3);
    BOOST_TEST(!eval.workloads[0].between_runs->log_sd.has_value());
    BOOST_TEST((eval.workloads[0].between_runs->within_run_ci.value() == forge::RatioCi{0.7, 0.9}));
    BOOST_TEST(!eval.workloads.at(1).between_runs.has_value());
    // A count that is not a whole number of runs, or an interval upside down, names its key.
    BOOST_TEST(parse_error(R"({"performance": {"between_runs": {"runs": 2.5}}})").key ==
               "performance.between_runs.runs");
    BOOST_TEST(parse_error(R"({"performance": {"workloads": [{"between_runs": {"within_run_ci": [2, 1]}}]}})").key ==
               "performance.workloads[0].between_runs.within_run_ci");
}

BOOST_AUTO_TEST_CASE(problems_that_are_not_an_array_name_their_key) {
    const forge::EvalError error = parse_error(R"({"correctness": {"passed": false, "problems": "late work"}})");
    BOOST_TEST(error.key == "correctness.problems");
}

BOOST_AUTO_TEST_CASE(the_ratios_uncertainty_is_read_where_the_bench_wrote_it) {
    const forge::EvalReport eval = forge::parse_eval(R"({
        "correctness": {"passed": true},
        "performance": {"ratio": 0.8, "ratio_ci": [0.78, 0.83], "verdict": "slower", "precision_reached": false,
            "workloads": [
                {"name": "w0", "ratio": 0.81, "ratio_ci": [0.8, 0.82], "verdict": "slower",
                 "rounds": [{"order": ["reference", "student"], "reference_ms": 1.0, "student_ms": 1.2}]},
                {"name": "w1", "ratio_ci": null}]}})",
                                                     "eval.json");
    BOOST_TEST(eval.measured);
    BOOST_TEST((eval.ratio_ci.value() == forge::RatioCi{0.78, 0.83}));
    BOOST_TEST(eval.verdict.value() == "slower");
    BOOST_TEST(eval.precision_reached.value() == false);
    BOOST_REQUIRE(eval.workloads.size() == 2u);
    BOOST_TEST(eval.workloads[0].ratio.value() == 0.81);
    BOOST_TEST((eval.workloads[0].ratio_ci.value() == forge::RatioCi{0.8, 0.82}));
    BOOST_TEST(eval.workloads[0].verdict.value() == "slower");
    BOOST_TEST(eval.workloads[0].rounds.size() == 1u);
    BOOST_TEST(eval.workloads[0].rounds[0]["student_ms"] == 1.2);
    BOOST_TEST(!eval.workloads[1].ratio.has_value());
    BOOST_TEST(!eval.workloads[1].ratio_ci.has_value());
    BOOST_TEST(eval.workloads[1].rounds.is_null());
}

BOOST_AUTO_TEST_CASE(an_eval_from_before_paired_rounds_reads_without_an_interval) {
    const auto eval = forge::load_eval(data_dir / "layernorm_bwd.json");
    BOOST_REQUIRE(eval.has_value());
    BOOST_TEST(eval->measured);
    BOOST_TEST(!eval->ratio_ci.has_value());
    BOOST_TEST(!eval->verdict.has_value());
    BOOST_TEST(!eval->precision_reached.has_value());
    BOOST_TEST(!eval->workloads.at(0).ratio_ci.has_value());
    BOOST_TEST(!eval->failed());
}

BOOST_AUTO_TEST_CASE(throughput_is_read_per_workload_and_for_the_run) {
    const forge::EvalReport eval = forge::parse_eval(R"({
        "correctness": {"passed": true},
        "performance": {"ratio": 0.8,
            "throughput": {"reference": {"gflops": 900.0, "gbps": 3000.0, "peak_dram_bandwidth_fraction": 0.6},
                           "student": {"gflops": 720.0, "gbps": null}},
            "workloads": [
                {"name": "w0", "work": {"flops": 2e9, "bytes": 1e7},
                 "throughput": {"reference": {"gflops": 1000.0, "gbps": 5.0, "peak_dram_bandwidth_fraction": null},
                                "student": {"gflops": 800.0, "gbps": 4.0}}},
                {"name": "w1", "throughput": null}]}})",
                                                     "eval.json");
    BOOST_TEST(eval.reference_throughput.gflops.value() == 900.0);
    BOOST_TEST(eval.reference_throughput.gbps.value() == 3000.0);
    BOOST_TEST(eval.reference_throughput.peak_dram_bandwidth_fraction.value() == 0.6);
    BOOST_TEST(eval.student_throughput.gflops.value() == 720.0);
    BOOST_TEST(!eval.student_throughput.gbps.has_value());
    BOOST_REQUIRE(eval.workloads.size() == 2u);
    BOOST_TEST(eval.workloads[0].reference.throughput.gflops.value() == 1000.0);
    BOOST_TEST(!eval.workloads[0].reference.throughput.peak_dram_bandwidth_fraction.has_value());
    BOOST_TEST(eval.workloads[0].student.throughput.gbps.value() == 4.0);
    BOOST_TEST(!eval.workloads[1].student.throughput.declared());
}

BOOST_AUTO_TEST_CASE(an_eval_from_before_throughput_reads_without_it) {
    const auto eval = forge::load_eval(data_dir / "layernorm_bwd.json");
    BOOST_REQUIRE(eval.has_value());
    BOOST_TEST(!eval->reference_throughput.declared());
    BOOST_TEST(!eval->student_throughput.declared());
    BOOST_TEST(!eval->workloads.at(0).student.throughput.declared());
}

BOOST_AUTO_TEST_CASE(a_throughput_that_is_not_a_number_names_its_key) {
    BOOST_TEST(parse_error(R"({"performance": {"throughput": {"student": {"gflops": "fast"}}}})").key ==
               "performance.throughput.student.gflops");
    BOOST_TEST(parse_error(R"({"performance": {"throughput": [1]}})").key == "performance.throughput");
    BOOST_TEST(parse_error(R"({"performance": {"workloads": [{"throughput": {"reference": 3}}]}})").key ==
               "performance.workloads[0].throughput.reference");
}

BOOST_AUTO_TEST_CASE(an_interval_that_is_not_two_ordered_numbers_names_its_key) {
    for (const char* ci : {R"("0.8")", "[0.8]", "[0.8, 0.9, 1.0]", R"([0.8, "0.9"])"}) {
        const forge::EvalError error =
            parse_error(std::string(R"({"performance": {"ratio_ci": )") + ci + "}}");
        BOOST_TEST(error.key == "performance.ratio_ci");
        BOOST_TEST(std::string(error.what()).find("expected [low, high]") != std::string::npos);
    }
    const forge::EvalError reversed =
        parse_error(R"({"performance": {"workloads": [{"name": "w0", "ratio_ci": [0.9, 0.8]}]}})");
    BOOST_TEST(reversed.key == "performance.workloads[0].ratio_ci");
    BOOST_TEST(std::string(reversed.what()).find("low end is above its high end") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(a_verdict_other_than_the_three_words_names_its_key_and_the_words) {
    const forge::EvalError error = parse_error(R"({"performance": {"verdict": "better"}})");
    BOOST_TEST(error.key == "performance.verdict");
    BOOST_TEST(std::string(error.what()).find(R"("faster", "slower" or "indistinguishable")") != std::string::npos);
    BOOST_TEST(parse_error(R"({"performance": {"precision_reached": "yes"}})").key ==
               "performance.precision_reached");
}

BOOST_AUTO_TEST_CASE(a_skipped_bench_is_neither_measured_nor_failed) {
    const forge::EvalReport eval = forge::parse_eval(
        R"({"schema_version": 1, "operator": "x", "backend": "cuda",
            "skipped": {"reason": "no CUDA device: cudaGetDeviceCount returned 100"},
            "correctness": null, "performance": null})",
        "eval.json");
    BOOST_TEST(eval.skipped.value() == "no CUDA device: cudaGetDeviceCount returned 100");
    BOOST_TEST(!eval.measured);
    BOOST_TEST(!eval.failed());
    BOOST_TEST(parse_error(R"({"skipped": "no device"})").key == "skipped");
}

BOOST_AUTO_TEST_CASE(a_failed_bench_says_why_in_its_own_words) {
    const auto failed = [](const char* text) { return forge::parse_eval(text, "eval.json"); };
    const auto caught = failed(R"({"correctness": {"passed": false, "problems": ["dx differs", "dw differs"]},
                                   "performance": {"workloads": []}})");
    BOOST_TEST(caught.failed());
    BOOST_TEST(caught.failure() == "dx differs (and 1 more problem(s))");
    const auto silent = failed(R"({"correctness": {"passed": false}, "performance": {}})");
    BOOST_TEST(silent.failed());
    BOOST_TEST(silent.failure().find("correctness.passed is false") != std::string::npos);
    const auto unmeasured = failed(R"({"correctness": {"passed": true}, "performance": null})");
    BOOST_TEST(unmeasured.failed());
    BOOST_TEST(unmeasured.failure().find("performance is null") != std::string::npos);
    BOOST_TEST(!failed(R"({"correctness": {"passed": true}, "performance": {}})").failed());
}

BOOST_AUTO_TEST_CASE(a_table_file_from_forge_table_import_reads_as_one_sides_readings) {
    const forge::SideReading side = forge::parse_table_file(
        R"({"kernels": [{"name": "k1", "launches": 2, "time_ns": 300.0, "pct": 75.0},
                        {"name": "k2", "launches": 1, "time_ns": "n/a", "pct": 25.0}],
            "profiler": {"total_ns": 1200.0, "calls": 3}})",
        "t.json");
    BOOST_REQUIRE(side.kernels.has_value());
    BOOST_REQUIRE(side.kernels->kernels.size() == 2u);
    BOOST_TEST(side.kernels->kernels[0].launches == 2);
    BOOST_TEST(side.kernels->kernels[1].time_ns == 0.0);  // as leniently as eval.json's rows
    BOOST_TEST(side.profiler->total_ns == 1200.0);
    BOOST_TEST(side.profiler->calls == 3);
    BOOST_TEST(!side.ms.has_value());
    BOOST_TEST(!forge::parse_table_file(R"({"kernels": [], "profiler": null})", "t.json").profiler.has_value());
}

BOOST_AUTO_TEST_CASE(a_table_file_that_is_not_a_table_names_file_line_and_key) {
    const auto error_of = [](const std::string& text) -> forge::EvalError {
        try {
            (void)forge::parse_table_file(text, "t.json");
        } catch (const forge::EvalError& e) {
            return e;
        }
        BOOST_FAIL("no EvalError for: " << text);
        throw;
    };
    BOOST_TEST(error_of(R"({"profiler": null})").key == "kernels");
    BOOST_TEST(error_of(R"({"kernels": [1]})").key == "kernels[0]");
    BOOST_TEST(std::string(error_of("[]").what()).find("forge table import") != std::string::npos);
    BOOST_TEST(error_of("{\"kernels\": [").location.has_value());
    try {
        (void)forge::load_table_file(data_dir / "no-such.table.json");
        BOOST_FAIL("a missing table file was read");
    } catch (const forge::EvalError& e) {
        BOOST_TEST(std::string(e.what()).find("no such table file") != std::string::npos);
    }
}

namespace {

// A kept run of ratio `ratio` with a standard error of 0.01, as the history file writes it.
std::string kept(double ratio) {
    std::ostringstream text;
    text.precision(17);
    text << R"({"run": {"log_ratio": )" << std::log(ratio) << R"(, "standard_error": 0.01}, "workloads": {}})";
    return text.str();
}

forge::EvalError history_error(const std::string& text) {
    try {
        (void)forge::parse_run_history(text, "rope.runs.json", 1.0);
    } catch (const forge::EvalError& e) {
        return e;
    }
    BOOST_FAIL("no EvalError for: " << text.substr(0, 80));
    throw;  // unreachable
}

}  // namespace

BOOST_AUTO_TEST_CASE(the_run_history_read_is_the_bench_s_that_ends_in_this_run) {
    // Two benches' histories (another build, another GPU): the one whose last
    // run is this eval's ratio, 0.8, is this run's, whichever was written last.
    const std::string text = std::string(R"({"schema": 2, "benches": [{"bench": "a", "runs": [)") + kept(0.7) + "," +
                             kept(0.8) + R"(]}, {"bench": "b", "runs": [)" + kept(1.1) + "," + kept(0.9) + "]}]}";
    const forge::RunHistory history = forge::parse_run_history(text, "rope.runs.json", 0.8);
    BOOST_TEST(history.histories == 2U);
    BOOST_REQUIRE(history.runs.size() == 2U);
    BOOST_TEST(history.runs[0].log_ratio == std::log(0.7), tt::tolerance(1e-12));
    BOOST_TEST(history.runs[1].log_ratio == std::log(0.8), tt::tolerance(1e-12));
    BOOST_TEST(history.runs[1].standard_error == 0.01);
    // None ends in 1.0: no runs, and how many histories the file held.
    const forge::RunHistory none = forge::parse_run_history(text, "rope.runs.json", 1.0);
    BOOST_TEST(none.runs.empty());
    BOOST_TEST(none.histories == 2U);
    // Schema 1: one bench's runs alone.
    const forge::RunHistory one = forge::parse_run_history(
        std::string(R"({"schema": 1, "bench": "a", "runs": [)") + kept(0.9) + "," + kept(1.2) + "]}", "rope.runs.json",
        1.2);
    BOOST_TEST(one.runs.size() == 2U);
}

BOOST_AUTO_TEST_CASE(a_malformed_run_history_is_an_eval_error_naming_the_file_line_and_key) {
    const forge::EvalError syntax = history_error(R"({"schema": 2, "benches": [)");
    BOOST_TEST(std::string(syntax.what()).starts_with("rope.runs.json:1:"), syntax.what());
    BOOST_TEST(syntax.file == "rope.runs.json");
    const forge::EvalError schema = history_error(R"({"schema": 7, "runs": []})");
    BOOST_TEST(schema.key == "schema");
    BOOST_TEST(std::string(schema.what()).find("expected 1 or 2") != std::string::npos, schema.what());
    const forge::EvalError negative = history_error(
        R"({"schema": 2, "benches": [{"bench": "a", "runs": [{"run": {"log_ratio": 0.1, "standard_error": -1}}]}]})");
    BOOST_TEST(negative.key == "benches[0].runs[0].run.standard_error");
    BOOST_TEST(negative.location.has_value());
    const forge::EvalError text_ratio = history_error(
        R"({"schema": 2, "benches": [{"bench": "a", "runs": [{"run": {"log_ratio": "fast", "standard_error": 0}}]}]})");
    BOOST_TEST(text_ratio.key == "benches[0].runs[0].run.log_ratio");
    BOOST_TEST(history_error("[1, 2]").key.empty());
}

BOOST_AUTO_TEST_CASE(a_run_history_reads_back_every_figure_the_bench_writes) {
    forge::KeptRun quiet{.run = {std::log(0.8), 0.01}, .workloads = {{"w0", {std::log(0.7), 0.02}}}, .memory_ms = {}};
    forge::KeptRun busy = quiet;
    busy.memory_ms = 0.26;
    const std::vector<forge::BenchHistory> written = {
        {.bench = "build a", .machine = {}, .runs = {quiet}},
        {.bench = "build b host n1", .machine = "host n1", .runs = {quiet, busy}}};
    const std::vector<forge::BenchHistory> read =
        forge::parse_run_histories(forge::run_histories_text(written), "rope.runs.json");
    BOOST_REQUIRE(read.size() == 2U);
    BOOST_TEST(read[0].bench == "build a");
    BOOST_TEST(read[0].machine.empty());  // not written: a file from before the machine was kept reads the same
    BOOST_TEST(read[1].machine == "host n1");
    BOOST_REQUIRE(read[1].runs.size() == 2U);
    BOOST_TEST(read[1].runs[1].run.log_ratio == std::log(0.8));
    BOOST_TEST(read[1].runs[1].workloads.at("w0").standard_error == 0.02);
    BOOST_TEST(!read[1].runs[0].memory_ms.has_value());
    BOOST_TEST(read[1].runs[1].memory_ms.value() == 0.26);
    // What the bench would not write is refused at its key, with the fix.
    const forge::EvalError idle = history_error(
        R"({"schema": 1, "bench": "a", "runs": [{"run": {"log_ratio": 0.1, "standard_error": 0}, "memory_ms": 0}]})");
    BOOST_TEST(idle.key == "runs[0].memory_ms");
    BOOST_TEST(std::string(idle.what()).find("delete the file") != std::string::npos, idle.what());
    const forge::EvalError workload = history_error(
        R"({"schema": 1, "bench": "a", "runs": [{"run": {"log_ratio": 0.1, "standard_error": 0},
            "workloads": {"w0": {"log_ratio": null, "standard_error": 0}}}]})");
    BOOST_TEST(workload.key == "runs[0].workloads.w0.log_ratio");
    BOOST_TEST(history_error(R"({"schema": 2, "benches": [{"bench": 3, "runs": []}]})").key == "benches[0].bench");
}

BOOST_AUTO_TEST_CASE(the_run_history_is_read_beside_the_eval_and_absent_without_a_file) {
    const fs::path dir = fs::temp_directory_path() / (std::string("forge_run_history.") + std::to_string(::getpid()));
    fs::create_directories(dir);
    const forge::EvalReport eval = forge::parse_eval(
        R"({"operator": "rope", "correctness": {"passed": true}, "performance": {"ratio": 0.8, "workloads": []}})",
        (dir / "eval.json").string());
    BOOST_TEST(forge::run_history_path(eval).value() == dir / "rope.runs.json");
    BOOST_TEST(!forge::read_run_history(eval).has_value());
    std::ofstream(dir / "rope.runs.json") << std::string(R"({"schema": 1, "bench": "a", "runs": [)") + kept(0.8) + "]}";
    const std::optional<forge::RunHistory> history = forge::read_run_history(eval);
    BOOST_REQUIRE(history.has_value());
    BOOST_TEST(history->path == (dir / "rope.runs.json").string());
    BOOST_TEST(history->runs.size() == 1U);
    // A skipped bench has no ratio, and joins no history.
    const forge::EvalReport skipped =
        forge::parse_eval(R"({"operator": "rope", "skipped": {"reason": "no GPU"}})", (dir / "eval.json").string());
    BOOST_TEST(!forge::read_run_history(skipped).has_value());
    fs::remove_all(dir);
}
