#define BOOST_TEST_MODULE prep_check
#include <boost/test/unit_test.hpp>

#include <filesystem>
#include <string>
#include <vector>

#include "forge/contract/parse.hpp"
#include "forge/prep/dtype.hpp"
#include "forge/prep/prep_check.hpp"

// Expected problems are the Python oracle's (run_oracle.py, op "prep"), as codes,
// subjects and workloads; messages are ours.

using nlohmann::json;

namespace {

forge::WindowContract layernorm_contract() {
    auto parsed = forge::load_window_contract(std::filesystem::path(FORGE_TEST_DATA_DIR) / "prep" / "window.toml");
    BOOST_REQUIRE(parsed.contract.has_value());
    return *parsed.contract;
}

const json held_outputs = json::parse(R"({"rstd": {"shape": [4096], "dtype": "float32"},
                                           "mean": {"shape": [4096, 2], "dtype": "bf16"}})");

struct Expected {
    std::string code;
    std::optional<std::string> subject;
    std::vector<std::string> workloads = {};
};

void require_problems(const std::vector<forge::PrepProblem>& got, const std::vector<Expected>& expected) {
    BOOST_TEST_REQUIRE(got.size() == expected.size());
    for (std::size_t i = 0; i < got.size(); ++i) {
        BOOST_TEST_CONTEXT("problem " << i << ": " << got[i].message) {
            BOOST_TEST(got[i].code == expected[i].code);
            BOOST_TEST((got[i].subject == expected[i].subject));
            BOOST_TEST(got[i].workloads == expected[i].workloads, boost::test_tools::per_element());
            BOOST_TEST(!got[i].message.empty());
        }
    }
}

std::vector<forge::PrepProblem> check(const json& report) {
    return forge::check_prep_report(layernorm_contract(), report);
}

}  // namespace

BOOST_AUTO_TEST_CASE(no_prep_block_is_unreported) {
    for (const json& report : {json(), json::object(), json::parse(R"({"outputs": null})"),
                               json::parse(R"({"outputs": [1]})"), json("prep")}) {
        BOOST_TEST_CONTEXT(report.dump()) { require_problems(check(report), {{"prep-unreported", std::nullopt}}); }
    }
    const auto problems = check(json());
    BOOST_TEST(problems[0].message.find("rstd, mean") != std::string::npos);  // names what must be produced
}

BOOST_AUTO_TEST_CASE(a_held_block_has_no_problems_dtype_spellings_aside) {
    // float32 vs declared fp32, bf16 vs declared torch.bfloat16, a shape of 4096.0
    BOOST_TEST(check({{"outputs", held_outputs}, {"mutated", json::array()}}).empty());
    json outputs = held_outputs;
    outputs["rstd"] = {{"shape", {4096.0}}, {"dtype", " torch.float32 "}};
    BOOST_TEST(check({{"outputs", outputs}}).empty());
}

BOOST_AUTO_TEST_CASE(mutated_tensors_are_one_problem_naming_them_as_reported) {
    const auto problems = check({{"outputs", held_outputs}, {"mutated", {"rstd", 3}}});
    require_problems(problems, {{"prep-mutated", "rstd, 3"}});
}

BOOST_AUTO_TEST_CASE(a_missing_tensor_names_what_was_produced) {
    const auto problems = check(json::parse(R"({"outputs": {"rstd": {"shape": [4096], "dtype": "FP32"}}})"));
    require_problems(problems, {{"prep-missing", "mean"}});
    BOOST_TEST(problems[0].message.find("it produced rstd") != std::string::npos, problems[0].message);

    const auto nothing = check(json::parse(R"({"outputs": {}, "workloads": []})"));
    require_problems(nothing, {{"prep-missing", "rstd"}, {"prep-missing", "mean"}});
    BOOST_TEST(nothing[0].message.find("nothing") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(wrong_shape_wrong_dtype_and_undeclared_tensors) {
    const auto problems = check(json::parse(R"({"outputs": {
        "rstd": {"shape": [4096.0], "dtype": " torch.float32 "},
        "mean": {"shape": [2, 4096], "dtype": "half"},
        "extra": {"shape": [1], "dtype": "i8"},
        "aaa": 5}})"));
    // The oracle lists undeclared tensors in report order (extra, aaa); we in name order.
    require_problems(
        problems,
        {{"prep-shape", "mean"}, {"prep-dtype", "mean"}, {"prep-undeclared", "aaa"}, {"prep-undeclared", "extra"}});
    BOOST_TEST(problems[0].message.find("[2, 4096]") != std::string::npos);
    BOOST_TEST(problems[0].message.find("[4096, 2]") != std::string::npos);
    BOOST_TEST(problems[1].message.find("'half'") != std::string::npos);
    BOOST_TEST(problems[3].message.find("shape [1], dtype i8") != std::string::npos, problems[3].message);
}

BOOST_AUTO_TEST_CASE(a_declared_dtype_that_is_no_dtype_is_named_with_the_ones_there_are) {
    forge::WindowContract misspelt = layernorm_contract();
    for (forge::Asymmetry& entry : misspelt.asymmetries) {
        if (entry.name == "rstd") entry.dtype = "flaot32";
    }
    const auto problems = forge::check_prep_report(misspelt, {{"outputs", held_outputs}});
    require_problems(problems, {{"prep-dtype", "rstd"}});
    BOOST_TEST(problems[0].message.find("declared 'flaot32', which is no dtype forge knows") != std::string::npos);
    BOOST_TEST(problems[0].message.find("bf16, fp16, fp32, fp64") != std::string::npos);
    // A known one keeps the message that asks the prep step to match it.
    const auto mismatched = check({{"outputs", {{"rstd", {{"shape", {4096}}, {"dtype", "fp16"}}},
                                                {"mean", held_outputs["mean"]}}}});
    require_problems(mismatched, {{"prep-dtype", "rstd"}});
    BOOST_TEST(mismatched[0].message.find("make the prep step produce the declared dtype") != std::string::npos);
    BOOST_TEST(forge::known_dtype("torch.bfloat16"));
    BOOST_TEST(!forge::known_dtype("flaot32"));
}

BOOST_AUTO_TEST_CASE(reported_shapes_are_read_as_python_int_reads_them) {
    // "42" iterates as "4", "2"; a missing dtype is None.
    require_problems(check(json::parse(R"({"outputs": {"rstd": [], "mean": {"shape": "42"}}})")),
                     {{"prep-missing", "rstd"}, {"prep-shape", "mean"}, {"prep-dtype", "mean"}});
    // "4096" and true are ints to Python: [4096] holds, [1, 2] does not.
    require_problems(check(json::parse(R"({"outputs": {"rstd": {"shape": ["4096"], "dtype": "float"},
                                                         "mean": {"shape": [true, "2"], "dtype": "bfloat16"}}})")),
                     {{"prep-shape", "mean"}});
    // null and [] shapes are empty, null and 0 dtypes are "".
    require_problems(check(json::parse(R"({"outputs": {"rstd": {"shape": null, "dtype": null},
                                                         "mean": {"shape": [], "dtype": 0}}})")),
                     {{"prep-shape", "rstd"}, {"prep-dtype", "rstd"}, {"prep-shape", "mean"}, {"prep-dtype", "mean"}});
}

BOOST_AUTO_TEST_CASE(a_shape_python_cannot_read_is_a_shape_problem) {
    // The oracle raises (int("x")); we report the tensor's shape as wrong.
    for (const char* shape : {R"(["x"])", R"("4096x2")", "4096", R"([null])", R"([1e30])", R"({"a": 1})"}) {
        json outputs = held_outputs;
        outputs["rstd"]["shape"] = json::parse(shape);
        BOOST_TEST_CONTEXT(shape) { require_problems(check({{"outputs", outputs}}), {{"prep-shape", "rstd"}}); }
    }
}

BOOST_AUTO_TEST_CASE(per_workload_blocks_say_each_problem_once_naming_the_workloads) {
    json report = {{"outputs", held_outputs}};
    report["workloads"] = json::array({
        {{"name", "w1"}, {"outputs", held_outputs}},
        {{"name", "w2"}, {"outputs", {{"rstd", held_outputs["rstd"]}}}},
        {{"outputs", {{"rstd", held_outputs["rstd"]}}}, {"mutated", {"mean"}}},  // no name: its index
        7,                                                                       // not a block: skipped
        {{"name", nullptr}, {"outputs", nullptr}},
    });
    require_problems(check(report), {{"prep-missing", "mean", {"w2", "2"}},
                                     {"prep-mutated", "mean", {"2"}},
                                     {"prep-unreported", std::nullopt, {"None"}}});
}

BOOST_AUTO_TEST_CASE(different_mutations_on_different_workloads_stay_apart) {
    json report;
    report["workloads"] = json::array({
        {{"name", "a"}, {"outputs", held_outputs}, {"mutated", {"rstd"}}},
        {{"name", "b"}, {"outputs", held_outputs}, {"mutated", {"rstd", "mean"}}},
        {{"name", "c"}, {"outputs", held_outputs}, {"mutated", {"rstd"}}},
    });
    require_problems(check(report), {{"prep-mutated", "rstd", {"a", "c"}}, {"prep-mutated", "rstd, mean", {"b"}}});
}

BOOST_AUTO_TEST_CASE(a_workloads_list_without_a_block_is_unreported) {
    // Difference 5 in the Python oracle's README: the oracle says nothing here.
    require_problems(check({{"outputs", held_outputs}, {"workloads", {1, 2}}}), {{"prep-unreported", std::nullopt}});
}

BOOST_AUTO_TEST_CASE(nothing_to_hold_without_prep_entries_or_a_declaration) {
    forge::WindowContract undeclared = layernorm_contract();
    undeclared.student_outputs.clear();
    BOOST_TEST(forge::check_prep_report(undeclared, json()).empty());

    forge::WindowContract cached = layernorm_contract();
    for (auto& a : cached.asymmetries) a.produced_by = "cache";  // a warm cache is not a tensor
    BOOST_TEST(forge::check_prep_report(cached, json::parse(R"({"outputs": {"x": {}}})")).empty());
}

BOOST_AUTO_TEST_CASE(a_failed_correctness_check_comes_first) {
    forge::EvalReport eval;
    eval.correctness_passed = false;
    require_problems(forge::check_prep(layernorm_contract(), eval),
                     {{"eval-incorrect", std::nullopt}, {"prep-unreported", std::nullopt}});
    BOOST_TEST(forge::check_prep(layernorm_contract(), eval)[0].message.find("outputs differ") != std::string::npos);
    BOOST_TEST(forge::check_prep(layernorm_contract(), eval)[1].message.find("its failure is above") !=
               std::string::npos);
    // A run the harness failed for another reason: that reason, not a guess.
    eval.problems = {"workload 'w0': the student's call asked for input 'row_max', which window.toml does not declare",
                     "workload 'w1': ..."};
    const std::string refused = forge::check_prep(layernorm_contract(), eval)[0].message;
    BOOST_TEST(refused.find("the bench reported: workload 'w0': the student's call asked for input 'row_max'") !=
               std::string::npos);
    BOOST_TEST(refused.find("(and 1 more)") != std::string::npos);
    BOOST_TEST(refused.find("outputs differ") == std::string::npos);
    eval.problems.clear();
    eval.correctness_passed = true;
    eval.prep = {{"outputs", held_outputs}};
    BOOST_TEST(forge::check_prep(layernorm_contract(), eval).empty());
    eval.correctness_passed.reset();
    BOOST_TEST(forge::check_prep(layernorm_contract(), eval).empty());
}

BOOST_AUTO_TEST_CASE(json_form_is_what_forge_prep_prints) {
    const std::vector<forge::PrepProblem> problems = {
        {"prep-unreported", std::nullopt, "no block", {}},
        {"prep-missing", "mean", "not produced", {"w2", "2"}},
    };
    const json out = forge::problems_json(problems);
    BOOST_TEST(out == json::parse(R"({"problems": [
        {"code": "prep-unreported", "subject": null, "message": "no block", "workloads": []},
        {"code": "prep-missing", "subject": "mean", "message": "not produced", "workloads": ["w2", "2"]}]})"));
}
