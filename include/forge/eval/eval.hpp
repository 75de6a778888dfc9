// The bench's report, `eval.json` (the harness writes it), read into what the checks
// use. Reading is lenient exactly where the Python oracle is (a kernel row's
// time_ns that is missing or not a number counts 0, a name is Python's str() of
// whatever is there, a profiler digest that is not an object is no digest) and
// strict where the file is structurally wrong (not JSON, not an object, a
// kernel row that is not an object, a time that is not a number): EvalError.
#pragma once

#include <cstddef>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "forge/contract/contract.hpp"
#include "forge/contract/finding.hpp"
#include "forge/eval/side_options.hpp"
#include "forge/table/kernel_table.hpp"

namespace forge {

inline constexpr std::int64_t eval_schema_version = 1;

// Deeper than this an eval.json is refused: the bench writes seven levels, and a
// bound keeps every later walk over the values (copies, printing) shallow.
inline constexpr std::size_t eval_max_depth = 512;

// An eval file that cannot be read or is malformed (the CLI exits 2). The
// message names the file, the line:column when known and the key path.
struct EvalError : std::runtime_error {
    EvalError(std::string message, std::string file, std::optional<SourceLocation> location, std::string key);

    std::string file;
    std::optional<SourceLocation> location;
    std::string key;  // e.g. "performance.workloads[0].kernels.student[2]"; "" for the whole file
};

// A 95% interval on a ratio, as the bench wrote it ("ratio_ci": [low, high]).
struct RatioCi {
    double low = 0.0;
    double high = 0.0;

    friend bool operator==(const RatioCi&, const RatioCi&) = default;
};

// "verdict": the interval against parity (faster: low > 1; slower: high < 1).
inline constexpr std::string_view verdict_faster = "faster";
inline constexpr std::string_view verdict_slower = "slower";
inline constexpr std::string_view verdict_indistinguishable = "indistinguishable";

// A side's achieved throughput ("throughput.<side>"): the declared work over its
// median time. A figure is absent where the bench declared no such count (no
// Bench::work, or no flops / bytes in it), where the device's peak bandwidth is
// unknown (HOST), and in files written before throughput.
struct Throughput {
    std::optional<double> gflops;  // "gflops": 1e9 floating-point operations per second
    std::optional<double> gbps;    // "gbps": 1e9 bytes per second
    // "peak_dram_bandwidth_fraction": gbps over the device's peak DRAM bandwidth
    std::optional<double> peak_dram_bandwidth_fraction;

    [[nodiscard]] bool declared() const noexcept { return gflops || gbps; }
};

// "between_runs": the interval with the spread between this run and the bench's
// kept earlier runs (their ratios stay in the run history beside eval.json);
// absent without a history and in files written before one was kept.
struct BetweenRuns {
    std::optional<std::int64_t> runs;      // "runs": the runs the spread came from, this one included
    std::optional<double> log_sd;          // "log_sd": the log-ratio's standard deviation between runs
    std::optional<RatioCi> within_run_ci;  // "within_run_ci": the interval from this run's rounds alone
    // "reaches_earlier_runs": the interval was widened to every kept run's ratio
    // (measured on a busier machine than theirs).
    std::optional<bool> reaches_earlier_runs;
};

// One side's readings in one workload.
struct SideReading {
    std::optional<double> ms;                // the timed reading
    Throughput throughput;                   // "throughput.<side>"
    std::optional<KernelTable> kernels;      // absent: no table on record; an empty table has no rows
    std::optional<ProfilerDigest> profiler;  // absent when the eval has none (or an empty one)
    // "kernel_set_changed.<side>": a timed sample ran other kernels than the
    // profiled call; absent when the bench could not observe it.
    std::optional<bool> kernel_set_changed;
};

struct WorkloadReading {
    std::string name;  // str() of "name", or the workload's index when it has none
    SideReading reference;
    SideReading student;
    // The bench's paired estimate and its uncertainty; absent in an eval.json
    // written before paired rounds.
    std::optional<double> ratio;       // "ratio"
    std::optional<RatioCi> ratio_ci;   // "ratio_ci"
    std::optional<std::string> verdict;  // "verdict": one of the verdict_* words
    std::optional<BetweenRuns> between_runs;  // "between_runs"
    nlohmann::json rounds;             // "rounds" as written (for recomputing); null when absent

    [[nodiscard]] const SideReading& side(Side s) const noexcept { return s == Side::student ? student : reference; }
};

// Where a run was measured (older files: absent).
struct RunMachine {
    std::optional<std::string> host;         // "launch.host": the node, as Slurm or the kernel names it
    std::optional<std::string> device;       // "device.name": the GPU's, or (HOST) the CPU's model
    std::optional<std::string> device_uuid;  // "device.uuid": the GPU's (CUDA)
    // "device.other_processes.cpus" where its "neighbour" is true: the CPUs other
    // processes kept busy on average during a run beside a neighbour (HOST).
    std::optional<double> neighbour_cpus;
};

// "performance.a_a": an A/A run's noise floor (the bench's --a-a: one side timed
// against itself), as the bench computed it.
struct NoiseFloorReading {
    std::string side;  // "reference" or "student"
    std::int64_t workloads = 0;
    std::int64_t workloads_called_apart = 0;  // whose interval leaves out 1
    bool run_called_apart = false;
    double resolves = 0.0;  // a fraction: the smallest change from 1 the card tells apart
};

struct EvalReport {
    std::string path;                          // the file it was read from
    std::optional<std::string> operator_name;  // "operator"
    std::optional<std::string> backend;        // "backend": "cuda" | "host"
    std::optional<std::string> contract;       // "contract": the window.toml the bench ran under
    std::optional<std::string> contract_digest;  // "contract_digest": its text's (forge/contract/digest.hpp)
    // "skipped.reason": the bench did not run (no device, ...); correctness and
    // performance are then null.
    std::optional<std::string> skipped;
    std::optional<bool> correctness_passed;    // "correctness.passed"
    std::vector<std::string> problems;         // "correctness.problems": what the bench caught
    std::vector<std::string> notices;          // "notices": what it flagged without failing
    nlohmann::json prep;                       // "performance.prep" as written; null when absent
    std::optional<double> reference_ms;        // "performance.reference_ms"
    std::optional<double> student_ms;          // "performance.student_ms"
    // "performance.throughput.<side>": geometric means over the workloads (a
    // figure only when every workload has it).
    Throughput reference_throughput;
    Throughput student_throughput;
    std::optional<double> ratio;               // "performance.ratio"
    std::optional<RatioCi> ratio_ci;           // "performance.ratio_ci" (older files: absent)
    std::optional<std::string> verdict;        // "performance.verdict"
    // "performance.precision_reached": false when the time cap came before the
    // interval reached the bench's precision target.
    std::optional<bool> precision_reached;
    // "performance.stopping.preset" is "quick": a --quick run, fewer rounds and a
    // looser precision target (older files: absent).
    bool quick = false;
    std::optional<BetweenRuns> between_runs;  // "performance.between_runs"
    // "performance.between_runs.machine.busier": the rounds of the run read the
    // machine busier than the bench's earlier runs did (older files: absent).
    std::optional<bool> busier_machine;
    RunMachine machine;
    // "build.optimized" and "build.build_type": how the bench was built (older files: absent).
    std::optional<bool> build_optimized;
    std::optional<std::string> build_type;
    // "build.reference_options" and "build.student_options": each side's compile
    // options by language (older files, benches built without forge_add_operator: absent).
    std::optional<OptionsByLanguage> reference_options;
    std::optional<OptionsByLanguage> student_options;
    std::optional<NoiseFloorReading> a_a;      // "performance.a_a": an A/A run; absent in a run of both sides
    bool measured = false;                     // a "performance" object is present
    std::vector<WorkloadReading> workloads;    // "performance.workloads"

    // The bench ran and failed: its correctness check failed, or it wrote no
    // performance block. Its ratios (if any) are no verdict.
    [[nodiscard]] bool failed() const noexcept { return !skipped && (correctness_passed == false || !measured); }
    // Why, in the bench's own words: its first problem, else what the file shows.
    [[nodiscard]] std::string failure() const;
    // Whether the bench ran under this contract's text: the digests agree, or
    // the eval records none (a bench from before they were recorded).
    [[nodiscard]] bool measured_under(const WindowContract& held_to) const noexcept;
    // When it did not: both files and both digests, for every command that refuses it.
    [[nodiscard]] std::string measured_under_another(const WindowContract& held_to) const;
};

// Reads an eval.json. nullopt when the file does not exist (the bench did not
// run: the checks skip, exit 77); EvalError when it is unreadable or malformed.
[[nodiscard]] std::optional<EvalReport> load_eval(const std::filesystem::path& file);

// Parses eval.json text; `path` labels messages and is stored in the report.
[[nodiscard]] EvalReport parse_eval(std::string_view text, std::string_view path);

// Whether a JSON value is an eval.json, read or not: an object holding any key a
// bench's eval.json holds (the run history beside it holds none).
[[nodiscard]] bool holds_eval_keys(const nlohmann::json& root);

}  // namespace forge
