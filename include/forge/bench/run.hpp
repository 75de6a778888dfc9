// Running a bench definition against its contract: what the bench executable's
// main does (and what tests call directly).
#pragma once

#include <cstddef>
#include <filesystem>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "forge/bench/bench.hpp"
#include "forge/contract/contract.hpp"
#include "forge/exit_code.hpp"

namespace forge::bench {

struct RunOptions {
    std::string operator_name;
    std::filesystem::path eval_path;  // empty: write nothing
    bool quick = false;               // fewer samples, shorter time budget (tests)
    std::ostream* log = nullptr;      // progress and problems for people; null: silent
    int cuda_device = 0;              // the CUDA device a CUDA bench runs on
    std::optional<double> precision;  // --precision: wins over Bench::precision and the default
    std::optional<double> time_cap_s;  // --time-cap: each workload's rounds' wall time, past the preset's
    nlohmann::json build;             // how the bench was built: eval.json "build"
    nlohmann::json launch;            // where it runs (host, Slurm job): eval.json "launch"
    std::vector<std::string> notices;  // found before the run (how the sides were built): eval.json's first notices
    // The CUDA architectures the bench was built for (CMake's syntax): a notice when
    // the GPU has no native code among them. Empty: not known, not checked.
    std::string cuda_architectures;
    // HOST: bytes the cache flush sweeps before each call; 0, the default, is
    // twice the largest last-level cache, which a cold sample needs. A smaller
    // flush is for the harness's own tests, which check what the harness does
    // rather than how cold a cache is: eval.json records the size, and a notice
    // says it is under twice the last-level cache.
    std::size_t host_flush_bytes = 0;
    // The bench's earlier runs on this machine (the bench's command line keeps
    // them beside eval.json): each run's intervals include how far its ratios
    // moved between the runs there of the same bench_identity (a digest of the
    // bench executable). Either empty: no history, each run stands alone.
    std::filesystem::path history_path;
    std::string bench_identity;
    // The A/A run (--a-a): the bench and contract given are this side's against
    // itself (against_itself.hpp), and eval.json's performance.a_a says how far
    // identical code read apart. Unset: a run of the two sides.
    std::optional<Side> against_itself;
};

// exit_code: forge::exit_code::ok; problems (correctness failed, or the harness
// caught a violation); skipped (the backend cannot run here: CUDA without a device).
struct RunResult {
    int exit_code = exit_code::ok;
    nlohmann::json eval;                 // the eval.json document (schema version 1)
    std::vector<std::string> problems;   // why exit_code is not 0, for people
    std::vector<std::string> notices;    // flagged for people, not failures (eval.json "notices")
};

// Runs `bench` under `contract` (which the caller has checked: a refused contract
// never reaches here). Writes options.eval_path atomically when given.
[[nodiscard]] RunResult run(const Bench& bench, const WindowContract& contract, const RunOptions& options);

}  // namespace forge::bench
