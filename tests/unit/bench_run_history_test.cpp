#define BOOST_TEST_MODULE bench_run_history
#include <boost/test/unit_test.hpp>

#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include "bench_add_operator.hpp"
#include "results/run_history.hpp"

namespace fb = forge::bench;

namespace {

forge::KeptRun entry(double log_ratio) {
    return {.run = {log_ratio, 0.01},
            .workloads = {{"w0", {log_ratio + 0.1, 0.02}}, {"w1", {log_ratio - 0.1, 0.03}}},
            .memory_ms = {}};
}

}  // namespace

BOOST_AUTO_TEST_CASE(a_history_reads_back_what_was_written_for_the_same_bench) {
    const TempDir dir("forge_run_history");
    const auto file = dir.path / "op.runs.json";
    BOOST_TEST(fb::read_history(file, "abc").empty());  // no file yet: no earlier runs
    fb::write_history(file, "abc", "", {entry(0.5), entry(0.6)});
    const std::vector<forge::KeptRun> read = fb::read_history(file, "abc");
    BOOST_TEST_REQUIRE(read.size() == 2u);
    BOOST_TEST(read[1].run.log_ratio == 0.6);
    BOOST_TEST(read[1].run.standard_error == 0.01);
    BOOST_TEST(read[0].workloads.at("w1").log_ratio == 0.4);
    BOOST_TEST(read[0].workloads.at("w1").standard_error == 0.03);
}

BOOST_AUTO_TEST_CASE(a_history_keeps_how_busy_the_machine_was_and_reads_files_without_it) {
    const TempDir dir("forge_run_history");
    const auto file = dir.path / "op.runs.json";
    forge::KeptRun measured = entry(0.5);
    measured.memory_ms = 0.29;
    fb::write_history(file, "abc", "", {entry(0.4), measured});
    const std::vector<forge::KeptRun> read = fb::read_history(file, "abc");
    BOOST_TEST_REQUIRE(read.size() == 2u);
    BOOST_TEST(!read[0].memory_ms.has_value());  // as a file from before it was kept
    BOOST_TEST_REQUIRE(read[1].memory_ms.has_value());
    BOOST_TEST(*read[1].memory_ms == 0.29);
}

BOOST_AUTO_TEST_CASE(a_rebuilt_bench_starts_a_new_history) {
    const TempDir dir("forge_run_history");
    const auto file = dir.path / "op.runs.json";
    fb::write_history(file, "old build", "", {entry(0.5)});
    BOOST_TEST(fb::read_history(file, "new build").empty());
}

BOOST_AUTO_TEST_CASE(a_history_keeps_the_last_runs_only) {
    const TempDir dir("forge_run_history");
    const auto file = dir.path / "op.runs.json";
    std::vector<forge::KeptRun> entries;
    for (std::size_t i = 0; i < fb::kept_runs + 3; ++i) entries.push_back(entry(static_cast<double>(i)));
    fb::write_history(file, "abc", "", entries);
    const std::vector<forge::KeptRun> read = fb::read_history(file, "abc");
    BOOST_TEST_REQUIRE(read.size() == fb::kept_runs);
    BOOST_TEST(read.front().run.log_ratio == 3.0);
    BOOST_TEST(read.back().run.log_ratio == static_cast<double>(fb::kept_runs + 2));
}

BOOST_AUTO_TEST_CASE(a_file_that_is_not_a_history_is_an_error_naming_it_and_the_fix) {
    const TempDir dir("forge_run_history");
    const auto file = dir.path / "op.runs.json";
    for (const std::string& text : {std::string("not json"), std::string(R"({"schema": 1, "bench": "abc"})"),
                                    std::string(R"({"schema": 7, "bench": "abc", "runs": []})"),
                                    std::string(R"({"schema": 2, "benches": [{"bench": "abc"}]})"),
                                    std::string(R"({"schema": 1, "bench": "abc", "runs": [{"run": {"log_ratio": 0.1,
                                       "standard_error": -1}, "workloads": {}}]})"),
                                    std::string(R"({"schema": 1, "bench": "abc", "runs": [{"run": {"log_ratio": 0.1,
                                       "standard_error": 0.01}, "workloads": {}, "memory_ms": 0}]})")}) {
        std::ofstream(file) << text;
        try {
            (void)fb::read_history(file, "abc");
            BOOST_ERROR("read: " << text);
        } catch (const fb::HistoryError& e) {
            const std::string message = e.what();
            BOOST_TEST(message.find(file.string()) != std::string::npos);
            BOOST_TEST(message.find("delete the file") != std::string::npos);
        }
    }
}

// A build directory on a cluster's shared filesystem is run from several
// nodes: each node's (and GPU's) runs stay its own, whichever ran last.
BOOST_AUTO_TEST_CASE(benches_that_ran_on_other_machines_keep_their_histories_apart) {
    const TempDir dir("forge_run_history");
    const auto file = dir.path / "op.runs.json";
    fb::write_history(file, "build host node1", "host node1", {entry(0.5)});
    fb::write_history(file, "build host node2", "host node2", {entry(0.9), entry(0.8)});
    fb::write_history(file, "build host node1", "host node1", {entry(0.5), entry(0.6)});
    const std::vector<forge::KeptRun> node1 = fb::read_history(file, "build host node1");
    const std::vector<forge::KeptRun> node2 = fb::read_history(file, "build host node2");
    BOOST_TEST_REQUIRE(node1.size() == 2u);
    BOOST_TEST(node1[1].run.log_ratio == 0.6);
    BOOST_TEST_REQUIRE(node2.size() == 2u);
    BOOST_TEST(node2[0].run.log_ratio == 0.9);
}

BOOST_AUTO_TEST_CASE(a_file_keeps_the_histories_written_last) {
    const TempDir dir("forge_run_history");
    const auto file = dir.path / "op.runs.json";
    for (std::size_t i = 0; i <= fb::kept_histories; ++i) {
        fb::write_history(file, "node" + std::to_string(i), "", {entry(static_cast<double>(i))});
    }
    BOOST_TEST(fb::read_history(file, "node0").empty());  // the least recently written
    BOOST_TEST(fb::read_history(file, "node1").size() == 1u);
    BOOST_TEST(fb::read_history(file, "node" + std::to_string(fb::kept_histories)).size() == 1u);
}

// Histories written before several were kept (schema 1) still read.
BOOST_AUTO_TEST_CASE(a_history_of_one_bench_from_schema_1_reads_and_is_kept) {
    const TempDir dir("forge_run_history");
    const auto file = dir.path / "op.runs.json";
    std::ofstream(file) << R"({"schema": 1, "bench": "abc", "runs": [{"run": {"log_ratio": 0.1,
        "standard_error": 0.01}, "workloads": {"w0": {"log_ratio": 0.2, "standard_error": 0.02}}}]})";
    BOOST_TEST_REQUIRE(fb::read_history(file, "abc").size() == 1u);
    fb::write_history(file, "other", "", {entry(0.5)});
    BOOST_TEST_REQUIRE(fb::read_history(file, "abc").size() == 1u);
    BOOST_TEST(fb::read_history(file, "abc")[0].workloads.at("w0").log_ratio == 0.2);
}

// A rebuilt bench's history starts afresh, but the machine's quiet state is
// kept: the lowest memory calibration of other builds' runs on the same machine.
BOOST_AUTO_TEST_CASE(other_builds_on_the_same_machine_tell_how_quiet_it_has_been) {
    const TempDir dir("forge_run_history");
    const auto file = dir.path / "op.runs.json";
    BOOST_TEST(
        !fb::read_earlier_runs(file, "new build host node1", "host node1").quietest_elsewhere.has_value());  // no file
    auto measured = [](double memory_ms) {
        forge::KeptRun run = entry(0.5);
        run.memory_ms = memory_ms;
        return run;
    };
    fb::write_history(file, "old build host node1", "host node1", {measured(0.31), measured(0.27), entry(0.5)});
    fb::write_history(file, "older build host node1", "host node1", {measured(0.29)});
    fb::write_history(file, "old build host node2", "host node2", {measured(0.11)});
    fb::write_history(file, "new build host node1", "host node1", {measured(0.05)});
    const fb::EarlierRuns earlier = fb::read_earlier_runs(file, "new build host node1", "host node1");
    BOOST_TEST_REQUIRE(earlier.quietest_elsewhere.has_value());
    BOOST_TEST(*earlier.quietest_elsewhere == 0.27);  // not node2's, and not the bench's own history
    BOOST_TEST_REQUIRE(earlier.own.size() == 1u);     // read in the same pass
    BOOST_TEST(*earlier.own[0].memory_ms == 0.05);
    BOOST_TEST(!fb::read_earlier_runs(file, "new build", "")
                    .quietest_elsewhere.has_value());  // a machine unknown: nothing to compare
}

// Histories written before the machine was kept read, and are no machine's.
BOOST_AUTO_TEST_CASE(histories_from_before_the_machine_was_kept_are_no_machines) {
    const TempDir dir("forge_run_history");
    const auto file = dir.path / "op.runs.json";
    std::ofstream(file) << R"({"schema": 2, "benches": [{"bench": "old build host node1", "runs": [{"run":
        {"log_ratio": 0.1, "standard_error": 0.01}, "workloads": {}, "memory_ms": 0.2}]}]})";
    BOOST_TEST(fb::read_history(file, "old build host node1").size() == 1u);
    BOOST_TEST(!fb::read_earlier_runs(file, "new build host node1", "host node1").quietest_elsewhere.has_value());
    std::ofstream(file) << R"({"schema": 2, "benches": [{"bench": "b", "machine": 7, "runs": []}]})";
    try {
        (void)fb::read_history(file, "b");
        BOOST_ERROR("a machine that is not a string read");
    } catch (const fb::HistoryError& e) {
        BOOST_TEST(std::string(e.what()).find("machine") != std::string::npos);
    }
}
