#define BOOST_TEST_MODULE bench_eval_writer
#include <boost/test/unit_test.hpp>

#include <sys/resource.h>
#include <unistd.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "forge/io/file.hpp"
#include "results/eval_writer.hpp"

namespace fs = std::filesystem;
namespace fb = forge::bench;

namespace {

struct TempDir {
    fs::path path = fs::temp_directory_path() / ("forge_bench_eval_" + std::to_string(::getpid()));
    TempDir() {
        fs::remove_all(path);
        fs::create_directories(path);
    }
    ~TempDir() { fs::remove_all(path); }
};

std::string slurp(const fs::path& file) {
    std::ifstream in(file);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

std::size_t entries(const fs::path& dir) {
    std::size_t n = 0;
    for ([[maybe_unused]] const auto& entry : fs::directory_iterator(dir)) ++n;
    return n;
}

}  // namespace

BOOST_AUTO_TEST_CASE(a_written_eval_reads_back) {
    TempDir dir;
    const fs::path file = dir.path / "eval.json";
    fb::write_eval(file, {{"schema_version", 1}, {"operator", "op"}});
    const auto read = nlohmann::json::parse(slurp(file));
    BOOST_TEST(read["operator"] == "op");
    fb::write_eval(file, {{"schema_version", 1}, {"operator", "op2"}});  // replaces
    BOOST_TEST(nlohmann::json::parse(slurp(file))["operator"] == "op2");
    BOOST_TEST(entries(dir.path) == 1u);  // no temporary file left behind
}

BOOST_AUTO_TEST_CASE(a_document_that_cannot_be_serialised_leaves_the_old_file) {
    TempDir dir;
    const fs::path file = dir.path / "eval.json";
    fb::write_eval(file, {{"operator", "old"}});
    const std::string before = slurp(file);
    BOOST_CHECK_THROW(fb::write_eval(file, {{"operator", std::string("bad \xff utf-8")}}), forge::FileError);
    BOOST_TEST(slurp(file) == before);
    BOOST_TEST(entries(dir.path) == 1u);
}

BOOST_AUTO_TEST_CASE(a_write_that_fails_midway_leaves_the_old_file) {
    TempDir dir;
    const fs::path file = dir.path / "eval.json";
    fb::write_eval(file, {{"operator", "old"}});
    const std::string before = slurp(file);

    // Files may grow to 64 bytes: the new document's write fails partway (EFBIG).
    const auto previous_handler = std::signal(SIGXFSZ, SIG_IGN);
    rlimit previous{};
    ::getrlimit(RLIMIT_FSIZE, &previous);
    rlimit small = previous;
    small.rlim_cur = 64;
    ::setrlimit(RLIMIT_FSIZE, &small);
    bool threw = false;
    try {
        fb::write_eval(file, {{"operator", std::string(10000, 'x')}});
    } catch (const forge::FileError&) {
        threw = true;
    }
    ::setrlimit(RLIMIT_FSIZE, &previous);
    std::signal(SIGXFSZ, previous_handler);

    BOOST_TEST(threw);
    BOOST_TEST(slurp(file) == before);
    BOOST_TEST(entries(dir.path) == 1u);
}

BOOST_AUTO_TEST_CASE(the_stopping_half_width_is_the_runs_own_before_the_spread_between_runs) {
    const fb::Workload workload{"w", {}, 1};
    fb::RunRecord record;
    record.complete = true;
    fb::WorkloadRecord w;
    w.workload = &workload;
    w.rounds.resize(40);
    w.ratio = {2.0, 1.9, 2.1};  // widened by the spread between runs
    w.between_runs.runs = 3;
    w.between_runs.within = {2.0, 1.99, 2.01};
    record.workloads.push_back(std::move(w));
    record.ratio = forge::stats::RatioInterval{2.0, 1.9, 2.1};
    const nlohmann::json eval = fb::to_eval_json(record);
    const nlohmann::json& stopping = eval["performance"]["workloads"][0]["stopping"];
    BOOST_TEST(stopping["half_width"].get<double>() == 0.005, boost::test_tools::tolerance(1e-9));
}

