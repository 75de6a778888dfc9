#define BOOST_TEST_MODULE credit_window
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <filesystem>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "forge/contract/parse.hpp"
#include "forge/credit/credit.hpp"

// Expected figures are the Python oracle's (run_oracle.py, op "credit") for the
// same inputs, unless a case says otherwise.

namespace {

using Strings = std::vector<std::string>;

forge::WindowContract contract() {
    auto parsed = forge::load_window_contract(std::filesystem::path(FORGE_TEST_DATA_DIR) / "credit" / "window.toml");
    BOOST_REQUIRE(parsed.contract.has_value());
    return *parsed.contract;
}

forge::KernelTable table(std::vector<std::pair<std::string, double>> rows) {
    forge::KernelTable out;
    for (auto& [name, time_ns] : rows) out.kernels.push_back({std::move(name), 1, time_ns, 0.0});
    return out;
}

forge::SideReading side(std::optional<forge::KernelTable> kernels, std::optional<double> ms = 1.0,
                        std::optional<forge::ProfilerDigest> profiler = std::nullopt) {
    forge::SideReading reading;
    reading.ms = ms;
    reading.kernels = std::move(kernels);
    reading.profiler = profiler;
    return reading;
}

forge::ProfilerDigest digest(double total_ns, std::int64_t calls = 1) { return {total_ns, calls}; }

Strings codes(const forge::Credit& credit) {
    Strings out;
    for (const auto& reason : credit.why) out.push_back(reason.code);
    return out;
}

}  // namespace

BOOST_AUTO_TEST_CASE(shares_of_each_side_are_priced_off_its_own_table) {
    const auto c = contract();
    const auto credit = forge::window_credit(c, side(table({{"main", 700}, {"solve_k", 300}}), 1.0, digest(1.0e6)),
                                             side(table({{"ref_main", 800}, {"cumsum", 200}}), 1.0, digest(1.2e6)));
    BOOST_REQUIRE(credit.has_value());
    BOOST_TEST(credit->student.priced == Strings{"A"}, boost::test_tools::per_element());
    BOOST_TEST(credit->student.fraction == 0.3);
    BOOST_TEST(credit->student.matched == Strings{"solve_k"}, boost::test_tools::per_element());
    BOOST_TEST(credit->student.matched_ns == 300.0);
    BOOST_TEST(credit->student.total_ns == 1000.0);
    BOOST_TEST(credit->student.unmatched.empty());
    BOOST_TEST(credit->student.table);
    BOOST_TEST(credit->reference.priced == Strings{"g"}, boost::test_tools::per_element());
    BOOST_TEST(credit->reference.fraction == 0.2);
    BOOST_TEST(credit->usable);
    BOOST_TEST(credit->why.empty());
    BOOST_TEST(credit->unpriced == Strings{"lse"}, boost::test_tools::per_element());
    BOOST_TEST(credit->reconciliation.student.value() == 1.0);
    BOOST_TEST(credit->reconciliation.reference.value() == 1.2);

    const auto ratio = forge::credited_ratio(credit, 1.0, 1.0);
    BOOST_REQUIRE(ratio.has_value());
    BOOST_TEST(ratio->credited_student_ms == 0.7);
    BOOST_TEST(ratio->credited_ref_ms == 0.8);
    BOOST_TEST(ratio->credited_ratio == 1.142857142857143);
    BOOST_TEST(ratio->raw_ratio == 1.0);
    BOOST_TEST(ratio->student_fraction == 0.3);
    BOOST_TEST(ratio->reference_fraction == 0.2);
}

BOOST_AUTO_TEST_CASE(no_credit_when_nothing_is_priced) {
    forge::WindowContract undeclared = contract();
    undeclared.reference_outputs.clear();
    BOOST_TEST(!forge::window_credit(undeclared, side(table({{"solve", 1}})), side(table({{"cumsum", 1}}))));

    forge::WindowContract unpriced = contract();
    for (auto& a : unpriced.asymmetries) a.student_kernel_regex = a.ref_kernel_regex = "";
    BOOST_TEST(!forge::window_credit(unpriced, side(table({{"solve", 1}})), side(table({{"cumsum", 1}}))));
    BOOST_TEST(!forge::credited_ratio(std::nullopt, 1.0, 1.0));
}

BOOST_AUTO_TEST_CASE(a_missing_or_empty_table_is_table_missing) {
    const auto credit = forge::window_credit(contract(), side(std::nullopt), side(table({})));
    BOOST_REQUIRE(credit.has_value());
    BOOST_TEST(!credit->usable);
    BOOST_TEST(codes(*credit) == (Strings{"table-missing", "table-missing"}), boost::test_tools::per_element());
    BOOST_TEST(!credit->student.table);
    BOOST_TEST(!credit->reference.table);
    BOOST_TEST(credit->student.unmatched == Strings{"A"}, boost::test_tools::per_element());
    BOOST_TEST(credit->student.total_ns == 0.0);
    BOOST_TEST(credit->reconciliation.empty());
    BOOST_TEST(!forge::credited_ratio(credit, 1.0, 1.0));
}

BOOST_AUTO_TEST_CASE(a_regex_matching_nothing_is_not_a_credit_of_zero) {
    const auto credit = forge::window_credit(contract(), side(table({{"main", 700}}), 1.0, digest(0.8e6)),
                                             side(table({{"prefix_x", 100}, {"z", 0}}), 2.0, digest(2.4e6)));
    BOOST_REQUIRE(credit.has_value());
    BOOST_TEST(codes(*credit) == Strings{"regex-unmatched"}, boost::test_tools::per_element());
    BOOST_TEST(credit->why[0].message.find("student") != std::string::npos);
    BOOST_TEST(credit->student.unmatched == Strings{"A"}, boost::test_tools::per_element());
    BOOST_TEST(credit->student.total_ns == 700.0);
    BOOST_TEST(credit->student.fraction == 0.0);
    BOOST_TEST(credit->reference.fraction == 1.0);
    BOOST_TEST(credit->reconciliation.student.value() == 0.8);
    BOOST_TEST(credit->reconciliation.reference.value() == 1.2);
    BOOST_TEST(!forge::credited_ratio(credit, 1.0, 2.0));
}

BOOST_AUTO_TEST_CASE(coverage_band_is_inclusive_at_exactly_1_20_and_0_80) {
    // 6e5 ns over 1 call against 0.5 ms is 1.2 exactly; 8e5 over 2 calls against 0.5 ms is 0.8.
    const auto credit = forge::window_credit(contract(), side(table({{"solve", 1}, {"m", 1}}), 0.5, digest(6e5)),
                                             side(table({{"cumsum", 1}, {"m", 1}}), 0.5, digest(8e5, 2)));
    BOOST_REQUIRE(credit.has_value());
    BOOST_TEST(credit->usable);
    BOOST_TEST(credit->reconciliation.student.value() == 1.2);
    BOOST_TEST(credit->reconciliation.reference.value() == 0.8);
    BOOST_TEST(forge::credited_ratio(credit, 0.5, 0.5)->credited_ratio == 1.0);
}

BOOST_AUTO_TEST_CASE(coverage_band_follows_the_floating_point_python_computes) {
    // Nominally 1.2 and 0.8, but (t / calls) / 1e6 / ms lands just outside in
    // doubles (1.2000000000000002, 0.7999999999999999), and so outside in Python.
    BOOST_TEST(*forge::coverage(digest(204000.00000000003), 0.17) == 1.2000000000000002);
    BOOST_TEST(*forge::coverage(digest(72000.0), 0.09) == 0.7999999999999999);
    const auto credit = forge::window_credit(contract(), side(table({{"solve", 1}}), 0.17, digest(204000.00000000003)),
                                             side(table({{"cumsum", 1}}), 0.09, digest(72000.0)));
    BOOST_REQUIRE(credit.has_value());
    BOOST_TEST(codes(*credit) == (Strings{"coverage-out-of-band", "coverage-out-of-band"}),
               boost::test_tools::per_element());
    BOOST_TEST(credit->reconciliation.student.value() == 1.2);  // rounded to 3 decimals, as the oracle
    BOOST_TEST(credit->reconciliation.reference.value() == 0.8);
    BOOST_TEST(credit->why[0].message.find("1.20x") != std::string::npos, credit->why[0].message);
}

BOOST_AUTO_TEST_CASE(past_the_band_on_either_side) {
    const auto credit = forge::window_credit(contract(), side(table({{"solve", 100}}), 1.0, digest(1.2000001e6)),
                                             side(table({{"cumsum", 50}}), 1.0, digest(0.7999999e6)));
    BOOST_TEST(codes(*credit) == (Strings{"coverage-out-of-band", "coverage-out-of-band"}),
               boost::test_tools::per_element());
    BOOST_TEST(!forge::credited_ratio(credit, 1.0, 1.0));
}

BOOST_AUTO_TEST_CASE(coverage_has_no_figure_where_timing_audit_has_none) {
    BOOST_TEST(!forge::coverage(std::nullopt, 1.0));
    BOOST_TEST(!forge::coverage(digest(1e6), std::nullopt));
    BOOST_TEST(!forge::coverage(digest(1e6), 0.0));
    BOOST_TEST(!forge::coverage(digest(1e6), -1.0));
    BOOST_TEST(!forge::coverage(digest(1e6), std::numeric_limits<double>::quiet_NaN()));
    BOOST_TEST(!forge::coverage(digest(std::numeric_limits<double>::quiet_NaN()), 1.0));  // total not a number
    BOOST_TEST(!forge::coverage(digest(1e6, 0), 1.0));                                    // calls=0
    BOOST_TEST(!forge::coverage(digest(1e6, -3), 1.0));
    BOOST_TEST(*forge::coverage(digest(3e6, 3), 1.0) == 1.0);
    BOOST_TEST(std::isinf(*forge::coverage(digest(std::numeric_limits<double>::infinity()), 1.0)));
}

BOOST_AUTO_TEST_CASE(no_profiler_or_calls_zero_leaves_the_credit_usable_without_reconciliation) {
    const auto credit = forge::window_credit(contract(), side(table({{"solve", 1}}), 1.0, digest(5e5, 0)),
                                             side(table({{"cumsum", 1}}), 1.0, std::nullopt));
    BOOST_REQUIRE(credit.has_value());
    BOOST_TEST(credit->usable);
    BOOST_TEST(credit->reconciliation.empty());
    BOOST_TEST(!forge::to_json(*credit).contains("reconciliation"));
    // Both fractions are 1: nothing is left of either reading, so no ratio.
    BOOST_TEST(!forge::credited_ratio(credit, 1.0, 1.0));
}

BOOST_AUTO_TEST_CASE(zero_times_give_a_zero_share) {
    const auto credit =
        forge::window_credit(contract(), side(table({{"solve", 0}, {"m", 0}})), side(table({{"cumsum", 0}})));
    BOOST_REQUIRE(credit.has_value());
    BOOST_TEST(credit->usable);
    BOOST_TEST(credit->student.matched == Strings{"solve"}, boost::test_tools::per_element());
    BOOST_TEST(credit->student.total_ns == 0.0);
    BOOST_TEST(credit->student.fraction == 0.0);
    BOOST_TEST(forge::credited_ratio(credit, 1.0, 1.0)->credited_ratio == 1.0);
}

BOOST_AUTO_TEST_CASE(every_matching_row_counts_also_two_of_one_name) {
    // Difference 1 in the Python oracle's README: the oracle counts only the last "solve" row (0.05).
    const auto credit = forge::window_credit(contract(), side(table({{"solve", 100}, {"solve", 50}, {"m", 850}})),
                                             side(table({{"cumsum", 1}})));
    BOOST_TEST(credit->student.matched_ns == 150.0);
    BOOST_TEST(credit->student.fraction == 0.15);
    BOOST_TEST(credit->student.matched == Strings{"solve"}, boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(a_row_matched_by_two_entries_counts_once) {
    forge::WindowContract c = contract();
    c.student_inputs.push_back("h");
    c.asymmetries.push_back({});
    forge::Asymmetry& h = c.asymmetries.back();
    h.kind = forge::Kind::student_input;
    h.name = "h";
    h.cls = "price";
    h.ref_kernel_regex = "sum";
    const auto credit = forge::window_credit(c, side(table({{"solve", 1}})),
                                             side(table({{"cumsum", 30}, {"gemm", 70}, {"sum_h", 10}})));
    BOOST_TEST(credit->reference.priced == (Strings{"g", "h"}), boost::test_tools::per_element());
    BOOST_TEST(credit->reference.matched == (Strings{"cumsum", "sum_h"}), boost::test_tools::per_element());
    BOOST_TEST(credit->reference.matched_ns == 40.0);
    BOOST_TEST(credit->reference.total_ns == 110.0);
}

BOOST_AUTO_TEST_CASE(readings_missing_zero_or_negative_give_no_ratio) {
    const auto credit =
        forge::window_credit(contract(), side(table({{"solve", 1}, {"x", 1}})), side(table({{"cumsum", 1}, {"y", 3}})));
    BOOST_REQUIRE(credit && credit->usable);
    BOOST_TEST(!forge::credited_ratio(credit, std::nullopt, 1.0));
    BOOST_TEST(!forge::credited_ratio(credit, 1.0, std::nullopt));
    BOOST_TEST(!forge::credited_ratio(credit, 0.0, 1.0));
    BOOST_TEST(!forge::credited_ratio(credit, -1.0, 1.0));
    const auto ratio = forge::credited_ratio(credit, 2.0, 1.0);
    BOOST_TEST(ratio->credited_student_ms == 1.0);
    BOOST_TEST(ratio->credited_ref_ms == 0.75);
    BOOST_TEST(ratio->raw_ratio == 0.5);
}

BOOST_AUTO_TEST_CASE(json_form_has_exactly_the_oracles_keys) {
    const auto credit =
        forge::window_credit(contract(), side(table({{"main", 700}, {"solve_k", 300}}), 1.0, digest(1.0e6)),
                             side(std::nullopt, 1.0, digest(1.2e6)));
    const nlohmann::json out = forge::to_json(*credit);
    const nlohmann::json expected_student = nlohmann::json::parse(
        R"({"priced": ["A"], "fraction": 0.3, "matched": ["solve_k"], "matched_ns": 300.0, "total_ns": 1000.0,
            "unmatched": [], "table": true})");
    BOOST_TEST(out["student"] == expected_student);
    BOOST_TEST(out["usable"] == false);
    BOOST_TEST(out["unpriced"] == nlohmann::json::array({"lse"}));
    BOOST_TEST(out["why"].size() == 1u);
    BOOST_TEST(out["why"][0]["code"] == "table-missing");
    BOOST_TEST(out["why"][0].size() == 2u);  // code and message
    BOOST_TEST(out["reconciliation"] == nlohmann::json::parse(R"({"student": 1.0, "reference": 1.2})"));
    BOOST_TEST(out.size() == 6u);

    const auto usable =
        forge::window_credit(contract(), side(table({{"solve", 1}, {"x", 1}})), side(table({{"cumsum", 1}, {"y", 3}})));
    const nlohmann::json ratio = forge::to_json(*forge::credited_ratio(usable, 1.0, 1.0));
    BOOST_TEST(ratio == nlohmann::json::parse(
                            R"({"credited_student_ms": 0.5, "credited_ref_ms": 0.75, "student_ms": 1.0, "ref_ms": 1.0,
                                "credited_ratio": 1.5, "raw_ratio": 1.0, "student_fraction": 0.5, "reference_fraction": 0.25})"));
}

namespace {

bool has(const std::string& text, const std::string& part) {
    if (text.find(part) != std::string::npos) return true;
    BOOST_TEST_MESSAGE("'" << part << "' not in: " << text);
    return false;
}

}  // namespace

BOOST_AUTO_TEST_CASE(an_unmatched_regex_is_quoted_with_its_line_the_payers_kernels_and_a_did_you_mean) {
    const auto credit = forge::window_credit(contract(), side(table({{"main", 700}, {"trsolv_kernel", 300}})),
                                             side(table({{"ref_main", 800}, {"cumsum", 200}})));
    BOOST_REQUIRE(credit.has_value());
    BOOST_REQUIRE(codes(*credit) == Strings{"regex-unmatched"});
    const std::string& message = credit->why[0].message;
    BOOST_TEST(has(message, "credit/window.toml:17: [[asymmetry]] ref_input=A student_kernel_regex 'solve' matches "
                            "none of the student's kernels (did you mean 'trsolv_kernel'?)"));
    BOOST_TEST(has(message, "Kernels of the student's call: main, trsolv_kernel."));
    BOOST_TEST(has(message, "launches doing this work"));
    BOOST_TEST(!has(message, "region"));
}

BOOST_AUTO_TEST_CASE(nothing_close_gets_no_did_you_mean) {
    const auto credit = forge::window_credit(contract(), side(table({{"main", 700}, {"gemm", 300}})),
                                             side(table({{"cumsum", 200}})));
    BOOST_REQUIRE(credit.has_value());
    BOOST_TEST(!has(credit->why.at(0).message, "did you mean"));
    BOOST_TEST(has(credit->why.at(0).message, "main, gemm"));
}

BOOST_AUTO_TEST_CASE(on_host_the_messages_speak_of_regions_not_launches) {
    const auto credit =
        forge::window_credit(contract(), side(table({{"main", 700}, {"(unmarked)", 300}}), 1.0, digest(1.0e6)),
                             side(table({{"ref_main", 800}, {"cumsum", 200}}), 1.0, digest(1.35e6)),
                             forge::TableRows::regions);
    BOOST_REQUIRE(credit.has_value());
    BOOST_REQUIRE(codes(*credit) == (Strings{"regex-unmatched", "coverage-out-of-band"}));
    BOOST_TEST(has(credit->why[0].message, "matches none of the student's regions"));
    BOOST_TEST(has(credit->why[0].message, "Regions of the student's call: main, (unmarked)."));
    BOOST_TEST(has(credit->why[0].message, "forge::bench::region"));
    BOOST_TEST(!has(credit->why[0].message, "launch"));
    BOOST_TEST(!has(credit->why[0].message, "fused"));
    BOOST_TEST(has(credit->why[1].message, "reference's regions do not reconcile"));
    BOOST_TEST(has(credit->why[1].message, "the profiled calls took 1.35x the timed median"));
    BOOST_TEST(!has(credit->why[1].message, "launch"));
}

BOOST_AUTO_TEST_CASE(a_long_table_is_listed_in_part) {
    forge::KernelTable rows;
    for (int i = 0; i < 20; ++i) rows.kernels.push_back({"k" + std::to_string(i), 1, 1.0, 0.0});
    const auto credit = forge::window_credit(contract(), side(rows), side(table({{"cumsum", 1}})));
    BOOST_TEST(has(credit->why.at(0).message, "k10, k11, ... (8 more)."));
}

BOOST_AUTO_TEST_CASE(regexes_matching_every_row_or_nearly_all_the_time_are_a_warning_naming_the_match) {
    const auto every = forge::window_credit(contract(), side(table({{"solve_a", 10}, {"solve_b", 10}})),
                                            side(table({{"ref_main", 800}, {"cumsum", 200}})));
    BOOST_REQUIRE(every.has_value());
    BOOST_TEST(every->usable);  // a warning, not a reason: the credit stands
    BOOST_REQUIRE(every->warnings.size() == 1u);
    BOOST_TEST(every->warnings[0].code == "match-implausible");
    BOOST_TEST(has(every->warnings[0].message, "the student's priced regexes (ref_input=A student_kernel_regex "
                                               "'solve') match every one of its 2 kernels (solve_a, solve_b)"));

    const auto most = forge::window_credit(contract(), side(table({{"main", 100}, {"solve", 900}})),
                                           side(table({{"ref_main", 101}, {"cumsum", 899}})));
    BOOST_REQUIRE(most.has_value());
    BOOST_REQUIRE(most->warnings.size() == 1u);  // 90.0% on the student; 89.9% on the reference is not
    BOOST_TEST(has(most->warnings[0].message, "match 90.00% of its kernels' time (solve)"));

    const auto plausible = forge::window_credit(contract(), side(table({{"main", 700}, {"solve", 300}})),
                                                side(table({{"ref_main", 800}, {"cumsum", 200}})));
    BOOST_TEST(plausible->warnings.empty());
}

BOOST_AUTO_TEST_CASE(table_rows_follow_the_evals_backend) {
    forge::EvalReport eval;
    BOOST_TEST((forge::table_rows(eval) == forge::TableRows::kernels));
    eval.backend = "host";
    BOOST_TEST((forge::table_rows(eval) == forge::TableRows::regions));
    eval.backend = "cuda";
    BOOST_TEST((forge::table_rows(eval) == forge::TableRows::kernels));
}

BOOST_AUTO_TEST_CASE(on_host_regexes_matching_every_marked_region_are_a_warning_whatever_the_unmarked_rest) {
    // Every region the student marks, 56% of its time; the harness's
    // "(unmarked)" row is the rest of the call, not a region anyone named.
    const auto credit = forge::window_credit(
        contract(), side(table({{"solve_rows", 300}, {"solve_cols", 260}, {"(unmarked)", 440}})),
        side(table({{"ref_main", 800}, {"cumsum", 200}})), forge::TableRows::regions);
    BOOST_REQUIRE(credit.has_value());
    BOOST_REQUIRE(credit->warnings.size() == 1u);
    BOOST_TEST(has(credit->warnings[0].message, "match every one of the 2 regions it marks, 56.00% of its time "
                                                "(solve_cols, solve_rows)"));
    BOOST_TEST(credit->student.fraction == 0.56);

    // A marked region left unmatched: no warning below 90%.
    const auto partial = forge::window_credit(
        contract(), side(table({{"solve_rows", 300}, {"main", 260}, {"(unmarked)", 440}})),
        side(table({{"ref_main", 800}, {"cumsum", 200}})), forge::TableRows::regions);
    BOOST_TEST(partial->warnings.empty());
}
