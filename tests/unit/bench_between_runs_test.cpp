// Which intervals of a finished run reach the bench's earlier runs' ratios: a
// workload whose ratio came from rounds that were not quiet measured a busier
// machine than its run's others did, and says where the ratio is no better than
// the earlier runs do; a workload from quiet rounds keeps its own interval.
#define BOOST_TEST_MODULE bench_between_runs
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "forge/bench/run.hpp"

#include "bench_add_operator.hpp"
#include "results/between_runs.hpp"
#include "results/record.hpp"
#include "results/run_history.hpp"

namespace fb = forge::bench;

namespace {

const std::vector<fb::Workload> workloads{{"calm", {}, 1}, {"stormy", {}, 2}};

// A finished run: both workloads read 2.0 +-1%, `stormy` from undisturbed rounds.
fb::RunRecord finished_run() {
    fb::RunRecord record;
    record.complete = true;
    for (const fb::Workload& workload : workloads) {
        fb::WorkloadRecord w;
        w.workload = &workload;
        w.ratio = {2.0, 1.98, 2.02};
        w.selection = workload.name == "stormy" ? fb::RoundSelection::undisturbed : fb::RoundSelection::quiet;
        w.rounds.resize(40);
        for (fb::Round& round : w.rounds) round.memory_calibration_ms = 0.35;
        record.workloads.push_back(std::move(w));
    }
    record.ratio = forge::stats::RatioInterval{2.0, 1.98, 2.02};
    return record;
}

fb::RunOptions history_options(const TempDir& dir) {
    fb::RunOptions options;
    options.history_path = dir.path / "op.runs.json";
    options.bench_identity = "build 1";
    return options;
}

const fb::WorkloadRecord& workload(const fb::RunRecord& record, const std::string& name) {
    for (const fb::WorkloadRecord& w : record.workloads) {
        if (w.workload->name == name) return w;
    }
    throw std::logic_error("no workload " + name);
}

}  // namespace

BOOST_AUTO_TEST_CASE(a_first_run_has_no_earlier_ratios_to_reach) {
    const TempDir dir("forge_between_runs_first");
    fb::RunRecord record = finished_run();
    fb::add_spread_between_runs(record, history_options(dir));
    for (const fb::WorkloadRecord& w : record.workloads) {
        BOOST_TEST(w.ratio.low == 1.98);
        BOOST_TEST(w.ratio.high == 2.02);
        BOOST_TEST(!w.between_runs.reaches_earlier_runs);
    }
    BOOST_TEST(!any_has(record.notices, {"not quiet"}));
}

BOOST_AUTO_TEST_CASE(a_workload_from_rounds_that_were_not_quiet_reaches_the_earlier_runs_ratios) {
    const TempDir dir("forge_between_runs_reach");
    const fb::RunOptions options = history_options(dir);
    // An earlier run on the same machine state as this one's (no busier run),
    // both workloads at 2.4, with errors so wide that the spread between the
    // runs reads as none: only the workload's own rounds can widen its interval.
    forge::KeptRun earlier{.run = {std::log(2.4), 10.0},
                           .workloads = {{"calm", {std::log(2.4), 10.0}}, {"stormy", {std::log(2.4), 10.0}}},
                           .memory_ms = 0.35};
    fb::write_history(options.history_path, "build 1", "", {earlier});

    fb::RunRecord record = finished_run();
    fb::add_spread_between_runs(record, options);
    BOOST_TEST_REQUIRE(record.machine_across_runs.has_value());
    BOOST_TEST(!record.machine_across_runs->busier());

    const fb::WorkloadRecord& calm = workload(record, "calm");
    BOOST_TEST(calm.between_runs.log_sd == 0.0);
    BOOST_TEST(calm.ratio.high == 2.02);
    BOOST_TEST(!calm.between_runs.reaches_earlier_runs);

    const fb::WorkloadRecord& stormy = workload(record, "stormy");
    BOOST_TEST(stormy.between_runs.reaches_earlier_runs);
    BOOST_TEST(stormy.ratio.low == 1.98);
    BOOST_TEST(stormy.ratio.high == 2.4, boost::test_tools::tolerance(1e-12));
    BOOST_TEST(stormy.between_runs.within.high == 2.02);  // what its own rounds said
    BOOST_TEST(stormy.ratio.ratio == 2.0);                // the estimate is this run's
    BOOST_TEST(any_has(record.notices, {"workload 'stormy'", "not quiet", "reaches the bench's earlier runs"}));
    BOOST_TEST(!any_has(record.notices, {"'calm'"}));
}

// A GPU's index is where CUDA_VISIBLE_DEVICES and CTest's resource groups put
// it; its UUID is which GPU it is. Runs share a history by the UUID.
BOOST_AUTO_TEST_CASE(cuda_runs_share_a_history_by_the_gpu_not_its_index) {
    const TempDir dir("forge_between_runs_gpu");
    fb::RunOptions options = history_options(dir);
    auto cuda_run = [](const std::string& uuid) {
        fb::RunRecord record = finished_run();
        record.backend = fb::Backend::cuda;
        record.device = {{"uuid", uuid}};
        return record;
    };
    options.cuda_device = 0;
    fb::RunRecord first = cuda_run("GPU-aaaa");
    fb::add_spread_between_runs(first, options);

    options.cuda_device = 1;  // the same GPU, renumbered
    fb::RunRecord renumbered = cuda_run("GPU-aaaa");
    fb::add_spread_between_runs(renumbered, options);
    BOOST_TEST(workload(renumbered, "calm").between_runs.runs == 2U);

    options.cuda_device = 0;  // another GPU at the first one's index
    fb::RunRecord other_gpu = cuda_run("GPU-bbbb");
    fb::add_spread_between_runs(other_gpu, options);
    BOOST_TEST(workload(other_gpu, "calm").between_runs.runs == 1U);
}

// A rebuilt bench's history starts afresh, so its first run had nothing to be
// busier than: other builds' runs on the same host still say how quiet the
// machine can be, and a first run on a busier machine is marked by them.
BOOST_AUTO_TEST_CASE(a_rebuilt_benchs_first_run_on_a_busier_machine_says_so) {
    const TempDir dir("forge_between_runs_rebuilt");
    fb::RunOptions options = history_options(dir);
    auto run_on = [](const std::string& host, double memory_ms) {
        fb::RunRecord record = finished_run();
        record.launch = {{"host", host}};
        for (fb::WorkloadRecord& w : record.workloads) {
            for (fb::Round& round : w.rounds) {
                round.memory_calibration_ms = memory_ms;
                round.used = true;
            }
        }
        return record;
    };
    fb::RunRecord old_build = run_on("node1", 0.20);
    fb::add_spread_between_runs(old_build, options);
    fb::RunRecord elsewhere = run_on("node2", 0.10);  // a quieter node: not this machine
    fb::add_spread_between_runs(elsewhere, options);

    options.bench_identity = "build 2";
    fb::RunRecord rebuilt = run_on("node1", 0.30);
    fb::add_spread_between_runs(rebuilt, options);
    BOOST_TEST(workload(rebuilt, "calm").between_runs.runs == 1U);  // its own history is new
    BOOST_TEST_REQUIRE(rebuilt.machine_across_runs.has_value());
    BOOST_TEST_REQUIRE(rebuilt.machine_across_runs->earlier_memory_ms.has_value());
    BOOST_TEST(*rebuilt.machine_across_runs->earlier_memory_ms == 0.20);
    BOOST_TEST(rebuilt.machine_across_runs->earlier_from_other_builds);
    BOOST_TEST(rebuilt.machine_across_runs->busier());
    BOOST_TEST(any_has(rebuilt.notices, {"busier than the bench's earlier runs", "another build of the bench"}));
    BOOST_TEST(!any_has(rebuilt.notices, {"reach the earlier runs' ratios"}));  // none of its own to reach

    // Its next run, as quiet as the old build's: its own first run was the busier one.
    fb::RunRecord again = run_on("node1", 0.21);
    fb::add_spread_between_runs(again, options);
    BOOST_TEST(!again.machine_across_runs->busier());
    BOOST_TEST(again.machine_across_runs->earlier_from_other_builds);  // 0.20 beats its own 0.30
}
