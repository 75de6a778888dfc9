// The per-kernel table of one side's timed call: one row per kernel name, and
// optionally the profiler digest (kernel time summed over the profiled calls).
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace forge {

// On HOST, the row the harness adds for the profiled call's time outside every
// marked region: it keeps the table's total honest, and is not a region anyone
// named (the credit's "every region" leaves it out).
inline constexpr std::string_view unmarked_region_row = "(unmarked)";

struct KernelRow {
    std::string name;
    std::int64_t launches = 1;
    double time_ns = 0.0;
    double pct = 0.0;
};

// Kernel time summed over `calls` profiled calls.
struct ProfilerDigest {
    double total_ns = 0.0;
    std::int64_t calls = 1;
};

struct KernelTable {
    std::vector<KernelRow> kernels;
    std::optional<ProfilerDigest> profiler;

    [[nodiscard]] double total_ns() const noexcept;  // sum of rows' time_ns
};

// Launches of one name summed into one row (first-seen order); pct = share of the
// table's total time (0 when the total is 0).
[[nodiscard]] KernelTable merge_by_name(std::vector<KernelRow> rows);

// {"kernels":[{"name","launches","time_ns","pct"}], "profiler":{"total_ns","calls"}}
// (profiler null when absent).
nlohmann::json to_json(const KernelTable& table);

// Unreadable or malformed input: the message names the file, the line and the fix.
struct TableError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

}  // namespace forge
