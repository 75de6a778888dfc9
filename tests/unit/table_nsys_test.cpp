#define BOOST_TEST_MODULE table_nsys
#include <boost/test/unit_test.hpp>

#include <chrono>
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <string>

#include "forge/table/nsys_csv.hpp"

using forge::KernelTable;
using forge::TableError;

namespace {

const std::filesystem::path tables = std::filesystem::path(FORGE_TEST_DATA_DIR) / "tables";

KernelTable import_real(std::string_view name) { return forge::import_nsys_csv(tables / name); }

const std::string current_header =
    "Time (%),Total Time (ns),Instances,Avg (ns),Med (ns),Min (ns),Max (ns),StdDev (ns),Name\n";

std::string error_of(std::string_view text, std::string_view label = "kern_sum.csv") {
    try {
        (void)forge::import_nsys_csv(text, label);
    } catch (const TableError& error) {
        return error.what();
    }
    BOOST_ERROR("the import was expected to fail");
    return "";
}

bool starts_with(const std::string& text, std::string_view prefix) { return text.rfind(prefix, 0) == 0; }
bool contains(const std::string& text, std::string_view part) { return text.find(part) != std::string::npos; }

const forge::KernelRow* row_named(const KernelTable& table, std::string_view name) {
    for (const forge::KernelRow& row : table.kernels) {
        if (row.name == name) {
            return &row;
        }
    }
    return nullptr;
}

}  // namespace

// ---- every real export in tests/data/tables (values checked by hand against the files)

BOOST_AUTO_TEST_CASE(nsys_2024_5_mixes_bare_and_quoted_names) {
    const KernelTable table = import_real("nsys-kernsum-2024.5-tornadovm-demos.csv");
    BOOST_TEST_REQUIRE(table.kernels.size() == 3u);
    BOOST_TEST(starts_with(table.kernels[0].name, "void gemv2T_kernel_val<int, int, float, float, float, float, (int)128"));
    BOOST_TEST(table.kernels[0].name.ends_with(">>(T13, T6, T6)"));
    BOOST_TEST(table.kernels[0].time_ns == 25567.0);
    BOOST_TEST(table.kernels[0].launches == 10);
    BOOST_TEST(table.kernels[1].name == "scale");
    BOOST_TEST(table.kernels[1].time_ns == 21985.0);
    BOOST_TEST(table.kernels[2].name == "bias");
    BOOST_TEST(table.kernels[2].time_ns == 11328.0);
    BOOST_TEST(table.total_ns() == 58880.0);
    BOOST_TEST(table.kernels[2].pct == 100.0 * 11328.0 / 58880.0, boost::test_tools::tolerance(1e-12));
    BOOST_TEST_REQUIRE(table.profiler.has_value());
    BOOST_TEST(table.profiler->total_ns == 58880.0);
    BOOST_TEST(table.profiler->calls == 1);
}

BOOST_AUTO_TEST_CASE(nsys_2025_unquoted_numbers_and_lambda_names) {
    const KernelTable table = import_real("nsys-kernsum-2025-unquoted-llm-perf-opt.csv");
    BOOST_TEST(table.kernels.size() == 36u);
    BOOST_TEST(table.kernels[0].name ==
               "void cutlass::Kernel2<cutlass_80_tensorop_bf16_s16816gemm_relu_bf16_256x128_32x3_tn_align8>(T1::Params)");
    BOOST_TEST(table.kernels[0].launches == 32);
    BOOST_TEST(table.kernels[0].time_ns == 5554208.0);
    BOOST_TEST(table.kernels[2].name ==
               "void at::native::elementwise_kernel<(int)128, (int)4, void at::native::gpu_kernel_impl_nocast<"
               "at::native::CUDAFunctor_add<c10::BFloat16>>(at::TensorIteratorBase &, const T1 &)::"
               "[lambda(int) (instance 1)]>(int, T3)");
    BOOST_TEST(table.kernels[2].time_ns == 3201304.0);
    BOOST_TEST(table.total_ns() == 21895142.0);
    std::int64_t launches = 0;
    for (const forge::KernelRow& row : table.kernels) {
        launches += row.launches;
    }
    BOOST_TEST(launches == 652);
}

BOOST_AUTO_TEST_CASE(nsys_2022_4_gpukernsum_merges_a_name_split_by_grid_and_block) {
    const KernelTable table = import_real("nsys-gpukernsum-2022.4-gridblock-cudalm-agent.csv");
    // 79 rows, 29 distinct names.
    BOOST_TEST(table.kernels.size() == 29u);
    BOOST_TEST(table.kernels[0].name ==
               "cudalm::<unnamed>::bf16_gemv_vec4_row_kernel(const cudalm::<unnamed>::U16 *, "
               "const cudalm::<unnamed>::U16 *, __nv_bfloat16 *, int, int)");
    BOOST_TEST(table.kernels[0].time_ns == 245129865.0);
    // 7 rows: 128916208 + 98159574 + 67047787 + 46250049 + 31058176 + 17359410 + 16868751,
    // 13248 + 13248 + 4968 + 9936 + 4968 + 3312 + 1656 launches.
    const forge::KernelRow* gemv = row_named(
        table, "cudalm::<unnamed>::int4gemv_rowtile4_bf16_kernel(const uint4 *, const __half *, const uint4 *, "
               "__nv_bfloat16 *, int, int)");
    BOOST_TEST_REQUIRE(gemv != nullptr);
    BOOST_TEST(gemv->time_ns == 405659955.0);
    BOOST_TEST(gemv->launches == 51336);
    BOOST_TEST(table.kernels[1].name == gemv->name);  // first seen on the file's second row
    BOOST_TEST(table.total_ns() == 1049722974.0);
}

BOOST_AUTO_TEST_CASE(nsys_skipped_no_kernel_data_is_an_error_naming_the_file) {
    const std::filesystem::path file = tables / "nsys-kernsum-2025.1-skipped-nodata-mini-aegaeon.csv";
    try {
        (void)forge::import_nsys_csv(file);
        BOOST_ERROR("a report without kernel data must not import as a table");
    } catch (const TableError& error) {
        const std::string message = error.what();
        BOOST_TEST(starts_with(message, file.string() + ":7: "), message);
        BOOST_TEST(contains(message, "does not contain CUDA kernel data"), message);
        BOOST_TEST(contains(message, "--trace=cuda"), message);
    }
}

BOOST_AUTO_TEST_CASE(an_ncu_export_is_refused_with_a_pointer_to_the_right_importer) {
    const std::filesystem::path file = tables / "ncu-long-2025-rules-llm-perf-opt.csv";
    try {
        (void)forge::import_nsys_csv(file);
        BOOST_ERROR("an ncu export is not a kernel summary");
    } catch (const TableError& error) {
        BOOST_TEST(contains(error.what(), "ncu-csv"), error.what());
    }
}

// ---- header variants

BOOST_AUTO_TEST_CASE(quoted_header_and_values) {
    const std::string text =
        "\"Time (%)\",\"Total Time (ns)\",\"Instances\",\"Avg (ns)\",\"Name\"\n"
        "\"60.0\",\"1,234,567\",\"3\",\"411,522.3\",\"k<1, 2>\"\n"
        "\"40.0\",\"800\",\"1\",\"800.0\",\"j\"\n";
    const KernelTable table = forge::import_nsys_csv(text, "q.csv");
    BOOST_TEST_REQUIRE(table.kernels.size() == 2u);
    BOOST_TEST(table.kernels[0].name == "k<1, 2>");
    BOOST_TEST(table.kernels[0].time_ns == 1234567.0);
    BOOST_TEST(table.kernels[0].launches == 3);
}

BOOST_AUTO_TEST_CASE(old_gpukernsum_headers) {
    // 2020-2021 layouts: "Time(%)", Average/Minimum/Maximum, and a Total Time without a unit
    // (nsys documents every time value of these reports in nanoseconds).
    const char* const headers[] = {
        "Time(%),Total Time (ns),Instances,Average,Minimum,Maximum,StdDev,Name\n",
        "Time(%),Total Time (ns),Instances,Average (ns),Minimum (ns),Maximum (ns),StdDev (ns),Name\n",
        "Time(%),Total Time,Instances,Average,Minimum,Maximum,Name\n",
    };
    for (const char* header : headers) {
        const std::string columns_before_name(std::count(header, header + std::strlen(header), ',') - 3, ',');
        const std::string text = std::string(header) + "70.0,700,2" + columns_before_name + ",a\n" + "30.0,300,1" +
                                 columns_before_name + ",b\n";
        const KernelTable table = forge::import_nsys_csv(text, "old.csv");
        BOOST_TEST_REQUIRE(table.kernels.size() == 2u, header);
        BOOST_TEST(table.kernels[0].time_ns == 700.0, header);
        BOOST_TEST(table.kernels[0].launches == 2, header);
    }
}

BOOST_AUTO_TEST_CASE(total_time_in_other_units_converts_to_nanoseconds) {
    const std::pair<const char*, double> units[] = {{"ns", 1.0}, {"us", 1e3}, {"ms", 1e6}, {"s", 1e9}};
    for (const auto& [unit, factor] : units) {
        const std::string text = "Time (%),Total Time (" + std::string(unit) + "),Instances,Name\n100.0,2.5,1,k\n";
        BOOST_TEST(forge::import_nsys_csv(text, "u.csv").kernels[0].time_ns == 2.5 * factor, unit);
    }
    const std::string message = error_of("Time (%),Total Time (cycles),Instances,Name\n100.0,2,1,k\n");
    BOOST_TEST(starts_with(message, "kern_sum.csv:1: "), message);
}

BOOST_AUTO_TEST_CASE(title_and_progress_lines_before_the_header_are_skipped) {
    const std::string text =
        "Generating SQLite file run.sqlite from run.nsys-rep\n"
        "Processing [run.sqlite] with [/opt/nsys/reports/cuda_gpu_kern_sum.py]... \n"
        "\n"
        " ** CUDA GPU Kernel Summary (cuda_gpu_kern_sum):\n"
        "\n" +
        current_header + "100.0,5000,5,1000.0,1000.0,900,1100,50.0,k\n";
    const KernelTable table = forge::import_nsys_csv(text, "stdout.csv");
    BOOST_TEST_REQUIRE(table.kernels.size() == 1u);
    BOOST_TEST(table.kernels[0].launches == 5);
}

BOOST_AUTO_TEST_CASE(the_table_ends_at_the_first_empty_line) {
    // `nsys stats` with several reports to one stream: only the kernel summary is read.
    const std::string text =
        "Time (%),Total Time (ns),Num Calls,Avg (ns),Med (ns),Min (ns),Max (ns),StdDev (ns),Name\n"
        "90.0,999999,3,1,1,1,1,0,cudaMalloc\n"
        "\n" +
        current_header + "100.0,5000,5,1000.0,1000.0,900,1100,50.0,k\n" +
        "\n"
        "Time (%),Total Time (ns),Count,Avg (ns),Med (ns),Min (ns),Max (ns),StdDev (ns),Operation\n"
        "100.0,42,1,42,42,42,42,0,[CUDA memcpy Host-to-Device]\n";
    const KernelTable table = forge::import_nsys_csv(text, "all.csv");
    BOOST_TEST_REQUIRE(table.kernels.size() == 1u);
    BOOST_TEST(table.kernels[0].name == "k");
    BOOST_TEST(table.total_ns() == 5000.0);
}

BOOST_AUTO_TEST_CASE(bom_and_crlf) {
    const std::string text = "\xEF\xBB\xBFTime (%),Total Time (ns),Instances,Name\r\n60.0,600,2,\"a, b\"\r\n40.0,400,1,c\r\n";
    const KernelTable table = forge::import_nsys_csv(text, "w.csv");
    BOOST_TEST_REQUIRE(table.kernels.size() == 2u);
    BOOST_TEST(table.kernels[0].name == "a, b");
    BOOST_TEST(table.kernels[1].name == "c");
}

// ---- broken input

BOOST_AUTO_TEST_CASE(a_header_without_rows_is_an_error_saying_why) {
    const std::string message = error_of("\n" + current_header);
    BOOST_TEST(starts_with(message, "kern_sum.csv:2: "), message);
    BOOST_TEST(contains(message, "no rows"), message);
}

BOOST_AUTO_TEST_CASE(unreadable_values_name_their_line) {
    const std::string head = current_header + "50.0,100,1,1,1,1,1,0,a\n";
    BOOST_TEST(starts_with(error_of(head + "50.0,n/a,1,1,1,1,1,0,b\n"), "kern_sum.csv:3: Total Time"));
    BOOST_TEST(starts_with(error_of(head + "50.0,100,1.5,1,1,1,1,0,b\n"), "kern_sum.csv:3: Instances"));
    BOOST_TEST(starts_with(error_of(head + "50.0,100,0,1,1,1,1,0,b\n"), "kern_sum.csv:3: Instances"));
    BOOST_TEST(starts_with(error_of(head + "50.0,-100,1,1,1,1,1,0,b\n"), "kern_sum.csv:3: Total Time"));
    // Finite on its own, infinite in ns or in the sum: never an "inf" in the table.
    BOOST_TEST(starts_with(error_of("Time (%),Total Time (s),Instances,Name\n100.0,1e300,1,k\n"), "kern_sum.csv:2: "));
    BOOST_TEST(contains(error_of(current_header + "50.0,1.7e308,1,1,1,1,1,0,a\n50.0,1.7e308,1,1,1,1,1,0,b\n"),
                        "add up past"));
}

BOOST_AUTO_TEST_CASE(launch_counts_that_sum_past_any_real_profile_are_refused) {
    // Found by fuzzing (fuzz_nsys_csv, UBSan): 1,100 rows of one name with 9e15 instances
    // each overflowed the merged 64-bit launch count.
    std::string text = current_header;
    for (int i = 0; i < 1100; ++i) {
        text += "0.0,1,9000000000000000,1,1,1,1,0,k\n";
    }
    const std::string message = error_of(text);
    BOOST_TEST(starts_with(message, "kern_sum.csv: "), message);
    BOOST_TEST(contains(message, "launch counts add up past"), message);
}

BOOST_AUTO_TEST_CASE(a_name_that_is_not_utf8_is_refused_with_its_line) {
    const std::string head = current_header + "50.0,100,1,1,1,1,1,0,a\n";
    const std::string overlong = error_of(head + "50.0,100,1,1,1,1,1,0,k\xC0\xAF\n");
    BOOST_TEST(starts_with(overlong, "kern_sum.csv:3: "), overlong);
    BOOST_TEST(contains(overlong, "UTF-8"), overlong);
    BOOST_TEST(starts_with(error_of(head + "50.0,100,1,1,1,1,1,0,k\xE2\x82\n"), "kern_sum.csv:3: "));  // cut short
    BOOST_TEST(forge::import_nsys_csv(head + "50.0,100,1,1,1,1,1,0,k\xE2\x82\xAC\n", "e.csv").kernels.size() == 2u);
}

BOOST_AUTO_TEST_CASE(a_truncated_file_is_refused_with_its_line) {
    const std::string message = error_of(current_header + "50.0,100,1,1,1,1,1,0,a\n50.0,100,1,1,1");
    BOOST_TEST(starts_with(message, "kern_sum.csv:3: "), message);
    BOOST_TEST(contains(message, "truncated"), message);
    const std::string open_quote = error_of(current_header + "50.0,100,1,1,1,1,1,0,\"void k<int");
    BOOST_TEST(starts_with(open_quote, "kern_sum.csv:2: "), open_quote);
}

BOOST_AUTO_TEST_CASE(empty_binary_and_one_column_files_are_refused) {
    BOOST_TEST(contains(error_of(""), "kern_sum.csv: the file is empty"));
    BOOST_TEST(contains(error_of(std::string("SQLite format 3\0\x10\x00", 18), "run.sqlite"), "run.sqlite:1: "));
    BOOST_TEST(starts_with(error_of("Name\nk\n"), "kern_sum.csv: no Nsight Systems kernel summary header"));
    BOOST_TEST(starts_with(error_of("Instances\n3\n"), "kern_sum.csv: no Nsight Systems kernel summary header"));
}

BOOST_AUTO_TEST_CASE(a_large_summary_imports_in_linear_time) {
    constexpr int rows = 200000;
    constexpr int names = 1000;
    std::string text = current_header;
    std::int64_t expected_ns = 0;
    for (int i = 0; i < rows; ++i) {
        const int time = 1000 + i % 13;
        text += "0.0," + std::to_string(time) + ",2,1.0,1.0,1,1,0.0,\"void kernel_" + std::to_string(i % names) +
                "<float, 4>(const float *, float *, int)\"\n";
        expected_ns += time;
    }
    BOOST_TEST_REQUIRE(text.size() > 10u * 1000 * 1000);
    const auto start = std::chrono::steady_clock::now();
    const KernelTable table = forge::import_nsys_csv(text, "big.csv");
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    BOOST_TEST_REQUIRE(table.kernels.size() == static_cast<std::size_t>(names));
    BOOST_TEST(table.kernels[0].launches == 2 * rows / names);
    BOOST_TEST(table.total_ns() == static_cast<double>(expected_ns));
    BOOST_TEST(seconds < 30.0, "importing " << text.size() << " bytes took " << seconds << " s");
}
