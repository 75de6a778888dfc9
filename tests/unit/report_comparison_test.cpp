#define BOOST_TEST_MODULE report_comparison
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "forge/report/comparison.hpp"
#include "forge/report/html_page.hpp"

namespace tt = boost::test_tools;

namespace {

// An eval of `name` that measured `ratio` in [low, high]; `extra` adds keys to "performance".
forge::EvalReport measured(const std::string& name, double ratio, double low, double high,
                           const std::string& extra = "") {
    const std::string text = R"({"operator": ")" + name + R"(", "correctness": {"passed": true}, "performance": {)" +
                             R"("ratio": )" + std::to_string(ratio) + R"(, "ratio_ci": [)" + std::to_string(low) +
                             ", " + std::to_string(high) + "]" + extra + R"(, "workloads": []}})";
    return forge::parse_eval(text, "/runs/" + name + ".eval.json");
}

forge::EvalReport skipped(const std::string& name) {
    return forge::parse_eval(R"({"operator": ")" + name + R"(", "skipped": {"reason": "no CUDA device"}})",
                             "/runs/" + name + ".eval.json");
}

const forge::CardComparison& card(const forge::Comparison& comparison, const std::string& name) {
    for (const forge::CardComparison& c : comparison.cards) {
        if (c.name == name) return c;
    }
    throw std::logic_error("no card " + name);
}

}  // namespace

BOOST_AUTO_TEST_CASE(cards_are_matched_by_operator_name_and_one_sided_ones_listed) {
    const std::vector<forge::EvalReport> before{measured("rope", 2.0, 1.9, 2.1), measured("gone", 1.0, 0.9, 1.1)};
    const std::vector<forge::EvalReport> after{measured("new_card", 1.0, 0.9, 1.1), measured("rope", 2.0, 1.9, 2.1)};
    const forge::Comparison c = forge::compare_runs(before, after, 1.0);
    BOOST_TEST(c.cards.size() == 3U);
    BOOST_TEST((card(c, "rope").status == forge::CardStatus::compared));
    BOOST_TEST(card(c, "rope").change->change == 1.0, tt::tolerance(1e-12));
    BOOST_TEST((card(c, "gone").status == forge::CardStatus::removed));
    BOOST_TEST(!card(c, "gone").change.has_value());
    BOOST_TEST(card(c, "gone").new_eval.empty());
    BOOST_TEST((card(c, "new_card").status == forge::CardStatus::added));
    BOOST_TEST(card(c, "new_card").old_eval.empty());
    BOOST_TEST(c.any_compared());
    BOOST_TEST(c.regressions() == 0U);
}

BOOST_AUTO_TEST_CASE(a_skipped_or_failed_bench_or_one_without_an_interval_has_no_verdict) {
    const std::vector<forge::EvalReport> before{skipped("a"), measured("b", 1.0, 0.9, 1.1),
                                                measured("c", 1.0, 0.9, 1.1)};
    forge::EvalReport failed = measured("b", 1.0, 0.9, 1.1);
    failed.correctness_passed = false;
    forge::EvalReport no_interval = measured("c", 1.0, 0.9, 1.1);
    no_interval.ratio_ci.reset();
    const std::vector<forge::EvalReport> after{measured("a", 1.0, 0.9, 1.1), failed, no_interval};
    const forge::Comparison c = forge::compare_runs(before, after, 1.0);
    for (const std::string name : {"a", "b", "c"}) {
        BOOST_TEST((card(c, name).status == forge::CardStatus::no_verdict));
        BOOST_TEST(!card(c, name).change.has_value());
    }
    BOOST_TEST(card(c, "a").note == "OLD: the bench was skipped: no CUDA device");
    BOOST_TEST(card(c, "b").note.starts_with("NEW: the bench failed"));
    BOOST_TEST(card(c, "c").note.starts_with("NEW: no ratio interval"));
    BOOST_TEST(!c.any_compared());
}

BOOST_AUTO_TEST_CASE(a_run_with_a_history_is_read_by_its_within_run_interval_plus_its_spread) {
    // ratio_ci holds the spread between runs already; the comparison takes the
    // interval of the rounds alone and adds the spread once, for both runs.
    const std::string history =
        R"(, "between_runs": {"runs": 5, "log_sd": 0.04, "within_run_ci": [0.98, 1.02], "reaches_earlier_runs": false})";
    const std::vector<forge::EvalReport> before{measured("a", 1.0, 0.5, 2.0, history)};
    const std::vector<forge::EvalReport> after{measured("a", 1.0, 0.98, 1.02)};
    const forge::Comparison c = forge::compare_runs(before, after, 1.0);
    const forge::stats::RatioChange& change = *card(c, "a").change;
    BOOST_TEST(change.between_runs_log_sd == std::max(0.04, forge::stats::between_runs_log_sd_floor));
    const double se = std::log(1.02 / 0.98) / (2.0 * 1.959963984540054);
    const double tau = change.between_runs_log_sd;
    BOOST_TEST(change.high == std::exp(1.959963984540054 * std::sqrt(2.0 * se * se + 2.0 * tau * tau)),
               tt::tolerance(1e-9));
}

BOOST_AUTO_TEST_CASE(only_a_regression_below_the_threshold_counts) {
    // 1.0 to 0.8 with narrow intervals: regressed by 20%, the interval's high
    // end (with the floor's spread between runs) below 0.9.
    const std::vector<forge::EvalReport> before{measured("a", 1.0, 0.999, 1.001)};
    const std::vector<forge::EvalReport> after{measured("a", 0.8, 0.799, 0.801)};
    BOOST_TEST(forge::compare_runs(before, after, 1.0).regressions() == 1U);
    BOOST_TEST(forge::compare_runs(before, after, 0.95).regressions() == 1U);
    BOOST_TEST(forge::compare_runs(before, after, 0.5).regressions() == 0U);
    BOOST_TEST(forge::compare_runs(after, before, 1.0).regressions() == 0U);  // the other way: improved
}

BOOST_AUTO_TEST_CASE(two_evals_of_one_card_in_one_run_are_refused_naming_both) {
    forge::EvalReport copy = measured("a", 1.0, 0.9, 1.1);
    copy.path = "/elsewhere/a.eval.json";
    const std::vector<forge::EvalReport> twice{measured("a", 1.0, 0.9, 1.1), copy};
    try {
        (void)forge::compare_runs(twice, twice, 1.0);
        BOOST_FAIL("expected an error");
    } catch (const std::runtime_error& e) {
        BOOST_TEST(std::string(e.what()).find("/runs/a.eval.json and /elsewhere/a.eval.json") != std::string::npos);
    }
}

BOOST_AUTO_TEST_CASE(a_directory_gives_the_eval_files_below_it) {
    namespace stdfs = std::filesystem;
    const stdfs::path root = stdfs::temp_directory_path() / "forge_report_comparison_test";
    stdfs::remove_all(root);
    stdfs::create_directories(root / "card" / "deeper");
    for (const char* name :
         {"card/eval.json", "card/deeper/b.eval.json", "card/b.runs.json", "card/notes.json", "card/.eval.json"}) {
        std::ofstream(root / name) << "{}";
    }
    const std::vector<stdfs::path> files = forge::eval_files(root);
    BOOST_TEST(files.size() == 2U);
    BOOST_TEST(files.at(0) == root / "card" / "deeper" / "b.eval.json");
    BOOST_TEST(files.at(1) == root / "card" / "eval.json");
    // A file is itself, whatever its name.
    BOOST_TEST(forge::eval_files(root / "card" / "notes.json").size() == 1U);
    stdfs::create_directories(root / "empty");
    BOOST_CHECK_THROW((void)forge::eval_files(root / "empty"), std::runtime_error);
    BOOST_CHECK_THROW((void)forge::eval_files(root / "absent"), std::runtime_error);
    stdfs::remove_all(root);
}

namespace {

// An eval of "rope" measured on `host` and `device`; `busier` sets between_runs.machine.busier.
forge::EvalReport measured_on(const std::string& host, const std::string& device, bool busier = false) {
    const std::string text =
        R"({"operator": "rope", "correctness": {"passed": true}, "launch": {"host": ")" + host +
        R"(", "slurm": null}, "device": {"name": ")" + device +
        R"("}, "performance": {"ratio": 2.0, "ratio_ci": [1.9, 2.1], "between_runs": {"runs": 3, "log_sd": 0.01, )" +
        R"("within_run_ci": [1.9, 2.1], "machine": {"busier": )" + (busier ? "true" : "false") +
        R"(}}, "workloads": []}})";
    return forge::parse_eval(text, "/runs/" + host + "/rope.eval.json");
}

}  // namespace

BOOST_AUTO_TEST_CASE(runs_on_one_machine_carry_no_machine_note) {
    const forge::Comparison c = forge::compare_runs({measured_on("n1", "Xeon")}, {measured_on("n1", "Xeon")});
    BOOST_TEST(card(c, "rope").machine_notes.empty());
    // Files from before launch and device were recorded say nothing either.
    BOOST_TEST(forge::machine_changes(measured("rope", 2.0, 1.9, 2.1), measured_on("n2", "EPYC")).empty());
}

BOOST_AUTO_TEST_CASE(another_host_or_device_is_named_and_the_verdict_kept) {
    const forge::Comparison c = forge::compare_runs({measured_on("n1", "Xeon")}, {measured_on("n2", "EPYC")});
    const std::vector<std::string>& notes = card(c, "rope").machine_notes;
    BOOST_REQUIRE(notes.size() == 3U);
    BOOST_TEST(notes[0] == "OLD ran on host 'n1', NEW on 'n2'");
    BOOST_TEST(notes[1] == "OLD ran on device 'Xeon', NEW on 'EPYC'");
    BOOST_TEST(notes[2].find("compare runs from one machine") != std::string::npos);
    BOOST_TEST((card(c, "rope").status == forge::CardStatus::compared));
    BOOST_TEST(card(c, "rope").change.has_value());
}

BOOST_AUTO_TEST_CASE(a_run_that_read_its_machine_busier_is_noted) {
    const forge::Comparison c =
        forge::compare_runs({measured_on("n1", "Xeon")}, {measured_on("n1", "Xeon", /*busier=*/true)});
    const std::vector<std::string>& notes = card(c, "rope").machine_notes;
    BOOST_REQUIRE(notes.size() == 1U);
    BOOST_TEST(notes[0].starts_with("NEW read its machine busier"));
    std::ostringstream text;
    forge::render_comparison_text(text, c, false);
    BOOST_TEST(text.str().find("  rope: NEW read its machine busier") != std::string::npos, text.str());
    BOOST_TEST(forge::comparison_json(c)["cards"][0]["machine_notes"][0] == notes[0]);
    std::ostringstream page;
    forge::render_comparison_html(page, c);
    BOOST_TEST(page.str().find("<p class=\"machine-note\">NEW read its machine busier") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(a_run_beside_a_neighbour_is_noted) {
    forge::EvalReport beside = measured_on("n1", "Xeon");
    beside.machine.neighbour_cpus = 0.97;
    const forge::Comparison c = forge::compare_runs({beside}, {measured_on("n1", "Xeon")});
    const std::vector<std::string>& notes = card(c, "rope").machine_notes;
    BOOST_REQUIRE(notes.size() == 1U);
    BOOST_TEST(notes[0].starts_with("OLD ran beside other processes (device.other_processes)"));
}

namespace {

// An eval of "rope" whose workloads are `workloads` (JSON objects, comma-separated).
forge::EvalReport with_workloads(const std::string& workloads) {
    return forge::parse_eval(R"({"operator": "rope", "correctness": {"passed": true}, "performance": {"ratio": 2.0, )"
                             R"("ratio_ci": [1.9, 2.1], "workloads": [)" +
                                 workloads + "]}}",
                             "/runs/rope.eval.json");
}

const forge::WorkloadComparison& workload(const forge::CardComparison& c, const std::string& name) {
    for (const forge::WorkloadComparison& w : c.workloads) {
        if (w.name == name) return w;
    }
    throw std::logic_error("no workload " + name);
}

}  // namespace

BOOST_AUTO_TEST_CASE(each_workload_in_both_runs_gets_the_change_a_card_would) {
    const forge::EvalReport before = with_workloads(
        R"({"name": "small", "ratio": 1.0, "ratio_ci": [0.99, 1.01]},)"
        R"({"name": "big", "ratio": 2.0, "ratio_ci": [1.5, 2.5], "between_runs": {"runs": 4, "log_sd": 0.05, "within_run_ci": [1.9, 2.1]}},)"
        R"({"name": "gone", "ratio": 1.0, "ratio_ci": [0.9, 1.1]},)"
        R"({"name": "old_file", "ratio": 1.0})");
    const forge::EvalReport after = with_workloads(R"({"name": "fresh", "ratio": 1.0, "ratio_ci": [0.9, 1.1]},)"
                                                   R"({"name": "big", "ratio": 1.6, "ratio_ci": [1.58, 1.62]},)"
                                                   R"({"name": "small", "ratio": 1.5, "ratio_ci": [1.49, 1.51]},)"
                                                   R"({"name": "old_file", "ratio": 1.0, "ratio_ci": [0.9, 1.1]})");
    const forge::Comparison c = forge::compare_runs({before}, {after});
    const forge::CardComparison& rope = card(c, "rope");
    // OLD's workloads in its order, then NEW's alone.
    BOOST_REQUIRE(rope.workloads.size() == 5U);
    BOOST_TEST(rope.workloads[0].name == "small");
    BOOST_TEST(rope.workloads[4].name == "fresh");

    // The same interval the card's change gets from the same figures: the
    // workload's within-run interval (between_runs.within_run_ci over ratio_ci)
    // and its between-runs spread.
    const forge::stats::RatioChange expected_big = forge::stats::ratio_change(
        {.within_run = {.ratio = 2.0, .low = 1.9, .high = 2.1}, .between_runs_log_sd = 0.05},
        {.within_run = {.ratio = 1.6, .low = 1.58, .high = 1.62}, .between_runs_log_sd = std::nullopt});
    const forge::WorkloadComparison& big = workload(rope, "big");
    BOOST_TEST((big.status == forge::CardStatus::compared));
    BOOST_TEST(big.change->change == 0.8, tt::tolerance(1e-12));
    BOOST_TEST(big.change->low == expected_big.low, tt::tolerance(1e-12));
    BOOST_TEST(big.change->high == expected_big.high, tt::tolerance(1e-12));
    BOOST_TEST(big.change->between_runs_log_sd == 0.05);
    BOOST_TEST((big.change->verdict() == forge::stats::Change::regressed));
    BOOST_TEST((workload(rope, "small").change->verdict() == forge::stats::Change::improved));
    BOOST_TEST(*workload(rope, "small").old_ratio == 1.0);
    BOOST_TEST(*workload(rope, "small").new_ratio == 1.5);

    BOOST_TEST((workload(rope, "gone").status == forge::CardStatus::removed));
    BOOST_TEST((workload(rope, "fresh").status == forge::CardStatus::added));
    BOOST_TEST((workload(rope, "old_file").status == forge::CardStatus::no_verdict));
    BOOST_TEST(workload(rope, "old_file").note.starts_with("OLD: no ratio interval"));
    // A workload's regression is shown, and the gate reads the card's change alone.
    BOOST_TEST(c.regressions() == 0U);

    std::ostringstream text;
    forge::render_comparison_text(text, c, false);
    BOOST_TEST(text.str().find("rope  big ") != std::string::npos, text.str());
    BOOST_TEST(text.str().find("rope  gone ") != std::string::npos);
    BOOST_TEST(text.str().find("only in OLD") != std::string::npos);
    BOOST_TEST(text.str().find("only in NEW") != std::string::npos);
    BOOST_TEST(text.str().find("rope / old_file: OLD: no ratio interval") != std::string::npos);
    std::ostringstream markdown;
    forge::render_comparison_markdown(markdown, c);
    BOOST_TEST(markdown.str().find("| workload |") != std::string::npos, markdown.str());

    const nlohmann::json json = forge::comparison_json(c)["cards"][0]["workloads"];
    BOOST_REQUIRE(json.size() == 5U);
    BOOST_TEST(json[1]["name"] == "big");
    BOOST_TEST(json[1]["verdict"] == "regressed");
    BOOST_TEST(json[1]["change_ci"][0].get<double>() == expected_big.low, tt::tolerance(1e-12));
    BOOST_TEST(json[2]["status"] == "removed");
    BOOST_TEST(json[2]["change"].is_null());
    BOOST_TEST(json[4]["status"] == "added");

    std::ostringstream page;
    forge::render_comparison_html(page, c);
    BOOST_TEST(
        page.str().find(R"(<tr class="workload-change" data-card="rope" data-name="big" data-verdict="regressed" )"
                        R"(data-old-ratio="2.0" data-new-ratio="1.6")") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(a_skipped_run_compares_no_workloads) {
    const forge::EvalReport before = with_workloads(R"({"name": "small", "ratio": 1.0, "ratio_ci": [0.99, 1.01]})");
    const forge::Comparison c = forge::compare_runs({before}, {skipped("rope")});
    BOOST_TEST(card(c, "rope").workloads.empty());
}

BOOST_AUTO_TEST_CASE(the_section_of_another_page_is_the_compare_page_s_body) {
    const forge::Comparison c = forge::compare_runs({measured("a", 1.0, 0.99, 1.01)}, {measured("a", 1.2, 1.19, 1.21)});
    std::ostringstream page;
    forge::render_comparison_html(page, c);
    std::ostringstream section;
    forge::render_comparison_section(section, c, "Change since <old>");
    BOOST_TEST(section.str().starts_with(
        R"(<section class="comparison" id="change-since"><h2>Change since &lt;old&gt;</h2>)"));
    // The chart and the table, drawn by the same code.
    const std::string table = section.str().substr(section.str().find("<section class=\"card\">"));
    BOOST_TEST(page.str().find(table.substr(0, table.size() - std::string("</section>\n").size())) !=
               std::string::npos);
}

BOOST_AUTO_TEST_CASE(the_report_page_opens_with_the_comparison_section_only_when_given_one) {
    const forge::Comparison c = forge::compare_runs({measured("a", 1.0, 0.99, 1.01)}, {measured("a", 1.2, 1.19, 1.21)});
    std::ostringstream section;
    forge::render_comparison_section(section, c, "Change since runs/main");
    std::ostringstream with;
    forge::render_report_html(with, {}, {.comparison = &c, .old_run = "runs/main"});
    BOOST_TEST(with.str().find("<main>\n" + section.str()) != std::string::npos, with.str());
    std::ostringstream without;
    forge::render_report_html(without, {});
    BOOST_TEST(without.str().find("class=\"comparison\"") == std::string::npos);
}
