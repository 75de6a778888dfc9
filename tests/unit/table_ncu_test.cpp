#define BOOST_TEST_MODULE table_ncu
#include <boost/test/unit_test.hpp>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <string>

#include "forge/table/ncu_csv.hpp"

using forge::KernelTable;
using forge::TableError;

namespace {

const std::filesystem::path tables = std::filesystem::path(FORGE_TEST_DATA_DIR) / "tables";

KernelTable import_real(std::string_view name) { return forge::import_ncu_csv(tables / name); }

// The current long layout (ncu 2023 and later, --metrics only: no rule columns).
const std::string long_header =
    "\"ID\",\"Process ID\",\"Process Name\",\"Host Name\",\"Kernel Name\",\"Context\",\"Stream\","
    "\"Block Size\",\"Grid Size\",\"Device\",\"CC\",\"Section Name\",\"Metric Name\",\"Metric Unit\","
    "\"Metric Value\"\n";

std::string long_row(int id, std::string_view kernel, std::string_view metric, std::string_view unit,
                     std::string_view value, std::string_view section = "Command line profiler metrics") {
    return "\"" + std::to_string(id) + "\",\"4242\",\"bench\",\"127.0.0.1\",\"" + std::string(kernel) +
           "\",\"1\",\"7\",\"(128, 1, 1)\",\"(64, 1, 1)\",\"0\",\"9.0\",\"" + std::string(section) + "\",\"" +
           std::string(metric) + "\",\"" + std::string(unit) + "\",\"" + std::string(value) + "\"\n";
}

std::string duration_row(int id, std::string_view kernel, std::string_view unit, std::string_view value) {
    return long_row(id, kernel, "gpu__time_duration.sum", unit, value);
}

std::string error_of(std::string_view text, std::string_view label = "run.csv") {
    try {
        (void)forge::import_ncu_csv(text, label);
    } catch (const TableError& error) {
        return error.what();
    }
    BOOST_ERROR("the import was expected to fail");
    return "";
}

bool starts_with(const std::string& text, std::string_view prefix) { return text.rfind(prefix, 0) == 0; }
bool contains(const std::string& text, std::string_view part) { return text.find(part) != std::string::npos; }

}  // namespace

// ---- every real export in tests/data/tables (values checked by hand against the files)

BOOST_AUTO_TEST_CASE(ncu_2020_long_form_after_105_lines_of_program_output) {
    const KernelTable table = import_real("ncu-long-2020-kerneltime-nvtx-ai4materials.csv");
    BOOST_TEST_REQUIRE(table.kernels.size() == 2u);
    // Durations from gpu__time_duration.sum ("8,192" and "3,584" nsecond); the
    // "Kernel Time" column holds "2024-Jul-13 19:18:31", a timestamp, and is not read.
    BOOST_TEST(table.kernels[0].name ==
               "void cutlass::Kernel<cutlass_80_tensorop_s1688gemm_64x64_16x10_nn_align4>"
               "(cutlass_80_tensorop_s1688gemm_64x64_16x10_nn_align4::Params)");
    BOOST_TEST(table.kernels[0].time_ns == 8192.0);
    BOOST_TEST(table.kernels[0].launches == 1);
    BOOST_TEST(starts_with(table.kernels[1].name,
                           "void phi::funcs::VectorizedBroadcastKernel<phi::funcs::AddFunctor<float>, float, 2, 1, 4, 1>"
                           "(common::Array<char const* restrict, 2>"));
    BOOST_TEST(table.kernels[1].time_ns == 3584.0);
    BOOST_TEST(table.total_ns() == 11776.0);
    BOOST_TEST(table.kernels[0].pct == 100.0 * 8192.0 / 11776.0, boost::test_tools::tolerance(1e-12));
    BOOST_TEST_REQUIRE(table.profiler.has_value());
    BOOST_TEST(table.profiler->total_ns == 11776.0);
    BOOST_TEST(table.profiler->calls == 1);
}

BOOST_AUTO_TEST_CASE(ncu_2025_long_form_with_ragged_rule_rows_and_microseconds) {
    const KernelTable table = import_real("ncu-long-2025-rules-llm-perf-opt.csv");
    BOOST_TEST_REQUIRE(table.kernels.size() == 1u);
    BOOST_TEST(starts_with(table.kernels[0].name,
                           "enable_if<!T7, void>::type kernel<int, int, __nv_bfloat16, __nv_bfloat16, "
                           "__nv_bfloat16, float, 0, 1, 1, 0, 7, 0, cublasGemvParamsEx<"));
    BOOST_TEST(table.kernels[0].name.ends_with(">>(T13)"));
    BOOST_TEST(table.kernels[0].time_ns == 6750.0);  // "6.75" us
    BOOST_TEST(table.kernels[0].launches == 1);
    BOOST_TEST(table.kernels[0].pct == 100.0);
    BOOST_TEST(table.profiler->total_ns == 6750.0);
}

BOOST_AUTO_TEST_CASE(ncu_2026_windows_export_with_bom_crlf_and_preamble) {
    const KernelTable table = import_real("ncu-long-2026-windows-bom-crlf-gpu-roofline-profiler.csv");
    BOOST_TEST_REQUIRE(table.kernels.size() == 1u);
    BOOST_TEST(table.kernels[0].name ==
               "void unnamed>::gemm_tiled_kernel<32>(const float *, const float *, float *, int, int, int)");
    BOOST_TEST(table.kernels[0].time_ns == 10195552.0);  // "10,195,552" ns
    BOOST_TEST(table.profiler->total_ns == 10195552.0);
}

BOOST_AUTO_TEST_CASE(ncu_wide_raw_page_with_units_row_and_interleaved_kernels) {
    const KernelTable table = import_real("ncu-wide-raw-unitsrow-roofline-analysis.csv");
    BOOST_TEST_REQUIRE(table.kernels.size() == 2u);
    // ID 0 is the merge kernel, so it comes first; 8 launches each.
    BOOST_TEST(table.kernels[0].name ==
               "void PersistentVariableLengthMergeStatesKernel<8, 16, 8, 4, __nv_bfloat16, __nv_bfloat16, int>"
               "(T5 *, float *, T7 *, T6 *, float *, unsigned int, unsigned int *, unsigned int)");
    BOOST_TEST(table.kernels[0].launches == 8);
    BOOST_TEST(table.kernels[0].time_ns == 76992.0);
    BOOST_TEST(table.kernels[1].name ==
               "void BatchDecodeWithPagedKVCacheKernel<0, 2, 1, 8, 16, 4, 2, DefaultAttention<0, 0, 0, 0>, Params>(T9)");
    BOOST_TEST(table.kernels[1].launches == 8);
    BOOST_TEST(table.kernels[1].time_ns == 189504.0);
    BOOST_TEST(table.total_ns() == 266496.0);
    BOOST_TEST(table.kernels[0].pct + table.kernels[1].pct == 100.0, boost::test_tools::tolerance(1e-12));
}

BOOST_AUTO_TEST_CASE(an_nsys_summary_is_refused_with_a_pointer_to_the_right_importer) {
    const std::string message = error_of(
        "Time (%),Total Time (ns),Instances,Avg (ns),Med (ns),Min (ns),Max (ns),StdDev (ns),Name\n"
        "100.0,25567,10,2556.7,2528.0,2496,2880,114.4,scale\n",
        "kern_sum.csv");
    BOOST_TEST(starts_with(message, "kern_sum.csv: "), message);
    BOOST_TEST(contains(message, "nsys-csv"), message);
}

// ---- launches and names

BOOST_AUTO_TEST_CASE(launches_are_profiled_ids_merged_by_name) {
    const std::string text = long_header + long_row(0, "k_rebuild", "dram__bytes.sum", "byte", "1,024") +
                             duration_row(0, "k_rebuild", "ns", "100") + duration_row(1, "k_main", "ns", "700") +
                             long_row(1, "k_main", "sm__throughput.avg.pct_of_peak_sustained_elapsed", "%", "n/a") +
                             duration_row(2, "k_rebuild", "ns", "200");
    const KernelTable table = forge::import_ncu_csv(text, "run.csv");
    BOOST_TEST_REQUIRE(table.kernels.size() == 2u);
    BOOST_TEST(table.kernels[0].name == "k_rebuild");
    BOOST_TEST(table.kernels[0].launches == 2);
    BOOST_TEST(table.kernels[0].time_ns == 300.0);
    BOOST_TEST(table.kernels[0].pct == 30.0, boost::test_tools::tolerance(1e-12));
    BOOST_TEST(table.kernels[1].launches == 1);
    BOOST_TEST(table.kernels[1].pct == 70.0, boost::test_tools::tolerance(1e-12));
    BOOST_TEST(table.profiler->total_ns == 1000.0);
}

BOOST_AUTO_TEST_CASE(names_are_kept_exactly_as_ncu_wrote_them) {
    const std::string name = "void ns::k<(int)128, \"\"tag\"\">(const float *, T3)";  // doubled quotes in CSV
    const KernelTable table = forge::import_ncu_csv(long_header + duration_row(0, name, "ns", "5"), "run.csv");
    BOOST_TEST(table.kernels[0].name == "void ns::k<(int)128, \"tag\">(const float *, T3)");
}

BOOST_AUTO_TEST_CASE(a_name_that_is_not_utf8_is_refused_with_its_line) {
    // Names end up in JSON, which must be UTF-8; a Latin-1 byte is not.
    const std::string message =
        error_of(long_header + duration_row(0, "ok", "ns", "5") + duration_row(1, "k_\xB5s", "ns", "5"));
    BOOST_TEST(starts_with(message, "run.csv:3: "), message);
    BOOST_TEST(contains(message, "0xB5"), message);
    const KernelTable table = forge::import_ncu_csv(long_header + duration_row(0, "k_\xC2\xB5s", "ns", "5"), "run.csv");
    BOOST_TEST(table.kernels[0].name == "k_\xC2\xB5s");
}

// ---- units and numbers

BOOST_AUTO_TEST_CASE(every_time_unit_converts_to_nanoseconds) {
    const std::pair<const char*, double> units[] = {
        {"nsecond", 1.0}, {"ns", 1.0}, {"usecond", 1e3}, {"us", 1e3},
        {"msecond", 1e6}, {"ms", 1e6}, {"second", 1e9},  {"s", 1e9},
    };
    for (const auto& [unit, factor] : units) {
        const KernelTable table = forge::import_ncu_csv(long_header + duration_row(0, "k", unit, "2.5"), "run.csv");
        BOOST_TEST(table.kernels[0].time_ns == 2.5 * factor, unit);
    }
}

BOOST_AUTO_TEST_CASE(thousands_separators_inside_quoted_values) {
    const KernelTable table = forge::import_ncu_csv(
        long_header + duration_row(0, "a", "ns", "1,234.5") + duration_row(1, "b", "ns", "10,195,552"), "run.csv");
    BOOST_TEST(table.kernels[0].time_ns == 1234.5);
    BOOST_TEST(table.kernels[1].time_ns == 10195552.0);
}

BOOST_AUTO_TEST_CASE(a_duration_that_is_not_a_time_unit_is_refused) {
    const std::string message = error_of(long_header + duration_row(0, "k", "cycle", "12"));
    BOOST_TEST(starts_with(message, "run.csv:2: "), message);
    BOOST_TEST(contains(message, "\"cycle\""), message);
}

BOOST_AUTO_TEST_CASE(an_na_duration_is_refused_with_its_line) {
    const std::string message =
        error_of(long_header + duration_row(0, "a", "ns", "5") + duration_row(1, "b", "ns", "n/a"));
    BOOST_TEST(starts_with(message, "run.csv:3: "), message);
    BOOST_TEST(contains(message, "n/a"), message);
}

BOOST_AUTO_TEST_CASE(a_duration_that_is_not_a_number_is_refused) {
    const std::string message = error_of(long_header + duration_row(0, "a", "ns", "1,23"));
    BOOST_TEST(starts_with(message, "run.csv:2: "), message);
}

// ---- the duration metric

BOOST_AUTO_TEST_CASE(the_speed_of_light_duration_stands_in_when_the_metric_id_is_absent) {
    const std::string text = long_header +
                             long_row(0, "k", "Duration", "usecond", "3.5", "GPU Speed Of Light Throughput") +
                             long_row(0, "k", "Duration", "usecond", "99", "Some Other Section");
    BOOST_TEST(forge::import_ncu_csv(text, "run.csv").kernels[0].time_ns == 3500.0);
    // When both are there, the metric itself is used.
    const std::string both = long_header + long_row(0, "k", "Duration", "us", "3.5", "GPU Speed Of Light Throughput") +
                             duration_row(0, "k", "ns", "3499");
    BOOST_TEST(forge::import_ncu_csv(both, "run.csv").kernels[0].time_ns == 3499.0);
    const std::string metric_first = long_header + duration_row(0, "k", "ns", "3499") +
                                     long_row(0, "k", "Duration", "us", "3.5", "GPU Speed Of Light Throughput");
    BOOST_TEST(forge::import_ncu_csv(metric_first, "run.csv").kernels[0].time_ns == 3499.0);
}

BOOST_AUTO_TEST_CASE(no_duration_metric_names_the_file_and_what_is_missing) {
    const std::string message =
        error_of(long_header + long_row(0, "k", "dram__bytes.sum", "byte", "5") +
                 long_row(0, "k", "Duration", "us", "1", "Memory Workload Analysis"));
    BOOST_TEST(starts_with(message, "run.csv:2: "), message);
    BOOST_TEST(contains(message, "no launch has a gpu__time_duration.sum"), message);
    BOOST_TEST(contains(message, "--metrics gpu__time_duration.sum"), message);
}

BOOST_AUTO_TEST_CASE(one_launch_without_a_duration_is_named) {
    const std::string message = error_of(long_header + duration_row(0, "a", "ns", "5") +
                                         long_row(1, "b_kernel", "dram__bytes.sum", "byte", "5") +
                                         duration_row(2, "a", "ns", "5"));
    BOOST_TEST(starts_with(message, "run.csv:3: "), message);
    BOOST_TEST(contains(message, "this launch has"), message);
    BOOST_TEST(contains(message, "b_kernel"), message);
}

BOOST_AUTO_TEST_CASE(the_old_kernel_time_column_is_a_timestamp_never_a_duration) {
    // ncu 2020's layout; even a numeric "Kernel Time" must not stand in for the metric.
    const std::string header =
        "\"ID\",\"Process ID\",\"Process Name\",\"Host Name\",\"Kernel Name\",\"Kernel Time\",\"Context\","
        "\"Stream\",\"Section Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n";
    const std::string no_metric =
        header + "\"0\",\"1\",\"p\",\"h\",\"k\",\"123456\",\"1\",\"7\",\"S\",\"dram__bytes.sum\",\"byte\",\"9\"\n";
    BOOST_TEST(contains(error_of(no_metric), "gpu__time_duration.sum"));
    const std::string with_metric =
        header + "\"0\",\"1\",\"p\",\"h\",\"k\",\"2024-Jul-13 19:18:31\",\"1\",\"7\",\"S\",\"gpu__time_duration.sum\","
                 "\"nsecond\",\"8,192\"\n";
    BOOST_TEST(forge::import_ncu_csv(with_metric, "run.csv").kernels[0].time_ns == 8192.0);
}

// ---- what comes before and between the rows

BOOST_AUTO_TEST_CASE(hundreds_of_preamble_lines_are_skipped) {
    std::string text = "==PROF== Connected to process 1 (/usr/bin/python3)\n";
    for (int i = 0; i < 300; ++i) {
        // Program output that would confuse a CSV reader: quotes, commas, an "ID".
        text += "step " + std::to_string(i) + ", loss \"0.5, x, \"ID\" Kernel Name\n";
        text += i % 50 == 0 ? "\"ID\", \"Kernel Name\n\"Kernel Name never closed\n" : "";
    }
    text += "==WARNING== Found outstanding GPU clock reset, trying to revert...\n==PROF== Disconnected from process 1\n";
    text += long_header + duration_row(0, "k", "ns", "5") +
            "==WARNING== Backing up device memory in system memory. Kernel replay might be slow.\n" +
            duration_row(1, "k", "ns", "6");
    const KernelTable table = forge::import_ncu_csv(text, "run.csv");
    BOOST_TEST_REQUIRE(table.kernels.size() == 1u);
    BOOST_TEST(table.kernels[0].launches == 2);
    BOOST_TEST(table.kernels[0].time_ns == 11.0);
}

BOOST_AUTO_TEST_CASE(bom_and_crlf) {
    std::string text = "\xEF\xBB\xBF==PROF== Connected\r\n" + long_header + duration_row(0, "k", "ns", "1,000");
    for (std::size_t at = text.find('\n'); at != std::string::npos; at = text.find('\n', at + 2)) {
        text.replace(at, 1, "\r\n");
    }
    BOOST_TEST(forge::import_ncu_csv(text, "run.csv").kernels[0].time_ns == 1000.0);
}

BOOST_AUTO_TEST_CASE(rows_shorter_than_the_header_are_read) {
    const std::string header = long_header.substr(0, long_header.size() - 1) +
                               ",\"Rule Name\",\"Rule Type\",\"Rule Description\"\n";
    const std::string text = header + duration_row(0, "k", "us", "6.75") +
                             "\"0\",\"1\",\"p\",\"h\",\"k\",\"1\",\"7\",\"(1, 1, 1)\",\"(1, 1, 1)\",\"0\",\"9.0\","
                             "\"SOL\",\"\",\"\",\"\",\"SOLBottleneck\",\"OPT\",\"Long text, with commas.\"\n";
    BOOST_TEST(forge::import_ncu_csv(text, "run.csv").kernels[0].time_ns == 6750.0);
}

// ---- the wide raw page

BOOST_AUTO_TEST_CASE(wide_form_reads_the_unit_from_the_units_row) {
    const std::string text =
        "==PROF== Disconnected\n"
        "\"ID\",\"Kernel Name\",\"device__attribute_display_name\",\"gpu__time_duration.sum\",\"sm__x\"\n"
        "\"\",\"\",\"\",\"usecond\",\"%\"\n"
        "\"0\",\"a\",\"NVIDIA B200\",\"1,500.5\",\"3\"\n"
        "\"1\",\"b\",\"NVIDIA B200\",\"2\"\n"
        "\"2\",\"a\",\"NVIDIA B200\",\"0.5\",\"3\"\n";
    const KernelTable table = forge::import_ncu_csv(text, "raw.csv");
    BOOST_TEST_REQUIRE(table.kernels.size() == 2u);
    BOOST_TEST(table.kernels[0].launches == 2);
    BOOST_TEST(table.kernels[0].time_ns == 1501000.0);
    BOOST_TEST(table.kernels[1].time_ns == 2000.0);
}

BOOST_AUTO_TEST_CASE(wide_form_without_units_row_is_refused) {
    const std::string message = error_of(
        "\"ID\",\"Kernel Name\",\"gpu__time_duration.sum\"\n\"0\",\"a\",\"5\"\n", "raw.csv");
    BOOST_TEST(starts_with(message, "raw.csv:2: "), message);
    BOOST_TEST(contains(message, "units row"), message);
}

BOOST_AUTO_TEST_CASE(wide_form_with_a_missing_value_is_refused) {
    const std::string header = "\"ID\",\"Kernel Name\",\"x\",\"gpu__time_duration.sum\"\n\"\",\"\",\"\",\"ns\"\n";
    BOOST_TEST(starts_with(error_of(header + "\"0\",\"a\",\"1\",\"n/a\"\n", "raw.csv"), "raw.csv:3: "));
    BOOST_TEST(starts_with(error_of(header + "\"0\",\"a\",\"1\"\n", "raw.csv"), "raw.csv:3: "));
}

// ---- broken input: a clear error naming the file (and the line), never a crash or an empty table

BOOST_AUTO_TEST_CASE(a_header_without_launches_is_refused) {
    const std::string message = error_of("==PROF== No kernels were profiled.\n" + long_header);
    BOOST_TEST(starts_with(message, "run.csv:2: "), message);
    BOOST_TEST(contains(message, "no launch"), message);
}

BOOST_AUTO_TEST_CASE(a_header_without_a_time_source_is_refused) {
    const std::string message = error_of("\"ID\",\"Kernel Name\",\"sm__x\"\n\"0\",\"k\",\"1\"\n");
    BOOST_TEST(starts_with(message, "run.csv:1: "), message);
    BOOST_TEST(contains(message, "gpu__time_duration.sum"), message);
}

BOOST_AUTO_TEST_CASE(a_truncated_file_is_refused_with_its_line) {
    const std::string full = long_header + duration_row(0, "a", "ns", "5") + duration_row(1, "b", "ns", "7");
    // Cut inside a quoted field of the last row: the quote never closes.
    const std::string inside_quote = full.substr(0, full.size() - 3);
    const std::string message = error_of(inside_quote);
    BOOST_TEST(starts_with(message, "run.csv:3: "), message);
    BOOST_TEST(contains(message, "truncated"), message);
    // Cut right after a delimiter: the row stops before the value column.
    const std::string after_comma = full.substr(0, full.rfind("\"gpu__time_duration.sum\""));
    const std::string short_row = error_of(after_comma);
    BOOST_TEST(starts_with(short_row, "run.csv:3: "), short_row);
    BOOST_TEST(contains(short_row, "truncated"), short_row);
}

BOOST_AUTO_TEST_CASE(binary_garbage_is_refused) {
    std::string garbage;
    std::uint32_t state = 12345;
    for (int i = 0; i < 4096; ++i) {
        state = state * 1664525u + 1013904223u;
        garbage += static_cast<char>(state >> 24);
    }
    garbage[100] = '\0';
    const std::string message = error_of(garbage, "report.ncu-rep");
    BOOST_TEST(starts_with(message, "report.ncu-rep:"), message);
    BOOST_TEST(contains(message, "binary"), message);
    // Without a NUL byte it is still not an export: no header.
    for (char& c : garbage) {
        c = c == '\0' ? 'x' : c;
    }
    BOOST_TEST(contains(error_of(garbage, "noise.csv"), "no Nsight Compute header"));
}

BOOST_AUTO_TEST_CASE(empty_utf16_and_one_column_files_are_refused) {
    BOOST_TEST(contains(error_of("", "empty.csv"), "empty.csv: the file is empty"));
    BOOST_TEST(contains(error_of(std::string("\xFF\xFE\"\0I\0D\0\"\0", 10), "ps.csv"), "UTF-16"));
    BOOST_TEST(starts_with(error_of("\"ID\"\n\"0\"\n\"1\"\n", "one.csv"), "one.csv: no Nsight Compute header"));
    BOOST_TEST(starts_with(error_of("\"Kernel Name\"\n\"k\"\n", "one.csv"), "one.csv: no Nsight Compute header"));
}

BOOST_AUTO_TEST_CASE(a_launch_id_that_is_not_a_number_is_refused) {
    const std::string message =
        error_of(long_header + duration_row(0, "a", "ns", "5") + "Program output written after the table\n");
    BOOST_TEST(starts_with(message, "run.csv:3: "), message);
}

BOOST_AUTO_TEST_CASE(an_unreadable_file_names_the_path) {
    const std::filesystem::path missing = tables / "no-such-export.csv";
    try {
        (void)forge::import_ncu_csv(missing);
        BOOST_ERROR("a missing file must not import");
    } catch (const TableError& error) {
        BOOST_TEST(starts_with(error.what(), missing.string() + ": cannot open"), error.what());
    }
    BOOST_CHECK_THROW((void)forge::import_ncu_csv(tables), TableError);  // a directory
}

// ---- size: a 10,000-launch table is typical; tens of MB must stay fast

BOOST_AUTO_TEST_CASE(a_file_of_tens_of_megabytes_imports_in_linear_time) {
    constexpr int launches = 50000;
    constexpr int names = 50;
    std::string text = "==PROF== Connected\n" + long_header;
    text.reserve(static_cast<std::size_t>(launches) * 4 * 200);
    std::int64_t expected_ns = 0;
    for (int id = 0; id < launches; ++id) {
        const std::string kernel = "void k" + std::to_string(id % names) + "<float, (int)128>(const float *, int)";
        text += long_row(id, kernel, "dram__bytes_read.sum", "byte", "53,261,312");
        text += duration_row(id, kernel, "ns", std::to_string(1000 + id % 7));
        text += long_row(id, kernel, "flop_count_hp.sum", "", "n/a");
        text += long_row(id, kernel, "sm__throughput.avg.pct_of_peak_sustained_elapsed", "%", "12.5");
        expected_ns += 1000 + id % 7;
    }
    BOOST_TEST_REQUIRE(text.size() > 30u * 1000 * 1000);

    const auto start = std::chrono::steady_clock::now();
    const KernelTable table = forge::import_ncu_csv(text, "big.csv");
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

    BOOST_TEST_REQUIRE(table.kernels.size() == static_cast<std::size_t>(names));
    BOOST_TEST(table.kernels[0].launches == launches / names);
    BOOST_TEST(table.profiler->total_ns == static_cast<double>(expected_ns));
    // About 0.5 s optimised and a few seconds under the sanitizers; anything
    // quadratic in 200,000 rows would take hours.
    BOOST_TEST(seconds < 30.0, "importing " << text.size() << " bytes took " << seconds << " s");
}
