// The eval.json keys forge reads, spelled once for the bench that writes them
// and the readers (eval.hpp, the prep check), so a key cannot be renamed on one
// side only. The writer spells these keys through the constants wherever they
// appear; keys no reader reads (for people, and for recomputing the figures)
// stay spelled in the writer. docs/reference/eval-json.md lists every key.
#pragma once

#include <string_view>

namespace forge::eval_key {

// The top level.
inline constexpr std::string_view schema_version = "schema_version";
inline constexpr std::string_view operator_name = "operator";
inline constexpr std::string_view backend = "backend";
inline constexpr std::string_view contract = "contract";
inline constexpr std::string_view contract_digest = "contract_digest";
inline constexpr std::string_view skipped = "skipped";  // {"reason"}: the bench did not run
inline constexpr std::string_view reason = "reason";
inline constexpr std::string_view correctness = "correctness";  // {"passed", "problems", ...}
inline constexpr std::string_view passed = "passed";
inline constexpr std::string_view problems = "problems";
inline constexpr std::string_view notices = "notices";
inline constexpr std::string_view performance = "performance";

// Where the bench ran: "device" ({"name", "uuid" (CUDA), ...}) and "launch"
// ({"host", ...}).
inline constexpr std::string_view device = "device";
inline constexpr std::string_view uuid = "uuid";
inline constexpr std::string_view launch = "launch";
inline constexpr std::string_view host = "host";
// "device.other_processes": {"cpus", "neighbour"} (HOST).
inline constexpr std::string_view other_processes = "other_processes";
inline constexpr std::string_view cpus = "cpus";
inline constexpr std::string_view neighbour = "neighbour";

// "build": how the bench was compiled.
inline constexpr std::string_view build = "build";
inline constexpr std::string_view optimized = "optimized";
inline constexpr std::string_view build_type = "build_type";
inline constexpr std::string_view reference_options = "reference_options";
inline constexpr std::string_view student_options = "student_options";

// "performance" and each of its "workloads" (the run's figures are the
// workloads' summary, under the same keys).
inline constexpr std::string_view workloads = "workloads";
inline constexpr std::string_view name = "name";  // a workload's, and a kernel row's
inline constexpr std::string_view prep = "prep";
inline constexpr std::string_view reference_ms = "reference_ms";
inline constexpr std::string_view student_ms = "student_ms";
inline constexpr std::string_view ratio = "ratio";
inline constexpr std::string_view ratio_ci = "ratio_ci";
inline constexpr std::string_view verdict = "verdict";
inline constexpr std::string_view precision_reached = "precision_reached";
inline constexpr std::string_view stopping = "stopping";  // the run's: {"preset", ...}
inline constexpr std::string_view preset = "preset";
inline constexpr std::string_view rounds = "rounds";

// "performance.prep" and each of its "workloads": what the prep step produced.
inline constexpr std::string_view outputs = "outputs";  // {"<tensor>": {"shape", "dtype"}}
inline constexpr std::string_view shape = "shape";
inline constexpr std::string_view dtype = "dtype";
inline constexpr std::string_view mutated = "mutated";

// Objects keyed by side: "throughput", "kernels", "profiler", "kernel_set_changed".
inline constexpr std::string_view reference = "reference";
inline constexpr std::string_view student = "student";

// "throughput.<side>".
inline constexpr std::string_view throughput = "throughput";
inline constexpr std::string_view gflops = "gflops";
inline constexpr std::string_view gbps = "gbps";
inline constexpr std::string_view peak_dram_bandwidth_fraction = "peak_dram_bandwidth_fraction";

// "between_runs", the run's with its "machine".
inline constexpr std::string_view between_runs = "between_runs";
inline constexpr std::string_view runs = "runs";
inline constexpr std::string_view log_sd = "log_sd";
inline constexpr std::string_view within_run_ci = "within_run_ci";
inline constexpr std::string_view reaches_earlier_runs = "reaches_earlier_runs";
inline constexpr std::string_view machine = "machine";
inline constexpr std::string_view busier = "busier";

inline constexpr std::string_view kernel_set_changed = "kernel_set_changed";

// "performance.a_a": an A/A run's noise floor (null in a run of the two sides).
inline constexpr std::string_view a_a = "a_a";
inline constexpr std::string_view side = "side";
inline constexpr std::string_view n_workloads = "n_workloads";
inline constexpr std::string_view workloads_called_apart = "workloads_called_apart";
inline constexpr std::string_view run_called_apart = "run_called_apart";
inline constexpr std::string_view resolves = "resolves";

// A kernel table: a workload's "kernels.<side>" rows and "profiler.<side>"
// digest, and the file `forge table import` writes ({"kernels", "profiler"}).
inline constexpr std::string_view kernels = "kernels";
inline constexpr std::string_view launches = "launches";
inline constexpr std::string_view time_ns = "time_ns";
inline constexpr std::string_view pct = "pct";
inline constexpr std::string_view profiler = "profiler";
inline constexpr std::string_view total_ns = "total_ns";
inline constexpr std::string_view calls = "calls";

}  // namespace forge::eval_key
