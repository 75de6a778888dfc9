// Nsight Systems kernel summaries (`nsys stats --report cuda_gpu_kern_sum
// --format csv`, formerly `gpukernsum`) as a per-kernel table.
#pragma once

#include <filesystem>
#include <string_view>

#include "forge/table/kernel_table.hpp"

namespace forge {

// Reads the summary whose header holds "Time (%)" (or "Time(%)"), "Total Time"
// (unit in parentheses, ns when none is given, as nsys documents), "Instances"
// and "Name", in any column order and with any other columns (Avg, Med, Min,
// Max, StdDev, GridXYZ, BlockXYZ, ...), quoted or not. Lines before the header
// (titles, NOTICE and "Processing [...]" lines) are skipped; the table ends at
// the first empty line or the end of the text. Rows of one Name (old gpukernsum
// tables split a kernel by grid and block) become one row: launches = the
// summed Instances, time_ns = the summed Total Time. "Time (%)" is not read;
// pct is recomputed. The profiler digest is the total with calls = 1; the
// caller sets `profiler->calls` when the report covered several timed calls.
//
// Throws TableError naming `file_label` (and the line, with the fix) when the
// text has no summary (nsys's "SKIPPED: ... does not contain CUDA kernel data"
// included), the summary has no rows (an empty table would read downstream as
// "no table" and hide the cause), or a row is unreadable.
[[nodiscard]] KernelTable import_nsys_csv(std::string_view text, std::string_view file_label);
[[nodiscard]] KernelTable import_nsys_csv(const std::filesystem::path& file);

}  // namespace forge
