// Nsight Compute CSV exports (`ncu --csv`) as a per-kernel table.
#pragma once

#include <filesystem>
#include <string_view>

#include "forge/table/kernel_table.hpp"

namespace forge {

// Reads either form ncu writes:
// - the long "details" form, one row per launch and metric ("ID", ..., "Kernel Name",
//   ..., "Metric Name", "Metric Unit", "Metric Value"): a launch's time is its
//   `gpu__time_duration.sum` row (or, when that metric was not collected, the
//   "Duration" row of the "GPU Speed Of Light Throughput" section, the same metric
//   under its display name);
// - the wide `--page raw` form, one row per launch with a `gpu__time_duration.sum`
//   column whose unit is in the units row under the header.
// Any time unit (nsecond, usecond, msecond, second and their short forms) is
// converted to ns. Whatever precedes the header (==PROF== lines, the program's
// own output, a UTF-8 BOM) is skipped; rows may omit trailing columns. The
// old "Kernel Time" column is a timestamp and is never read.
//
// A launch is one profiled kernel ID; launches of one name become one row. The
// profiler digest is the sum of all launches with calls = 1: the file is taken
// as one profiled call. When the profile covered several timed calls, the
// caller sets `profiler->calls` (the CLI's --calls); the rows stay the sums.
//
// Throws TableError naming `file_label` and the line, with the fix, when the
// text has no ncu header, a launch has no duration, or a value or unit is not
// readable.
[[nodiscard]] KernelTable import_ncu_csv(std::string_view text, std::string_view file_label);
[[nodiscard]] KernelTable import_ncu_csv(const std::filesystem::path& file);

}  // namespace forge
