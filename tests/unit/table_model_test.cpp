#define BOOST_TEST_MODULE table_model
#include <boost/test/unit_test.hpp>

#include "forge/table/kernel_table.hpp"

using forge::KernelRow;
using forge::KernelTable;

BOOST_AUTO_TEST_CASE(launches_of_one_name_merge_in_first_seen_order) {
    const KernelTable table = forge::merge_by_name({
        {"gemm", 1, 300.0, 0.0},
        {"rstd", 1, 100.0, 0.0},
        {"gemm", 2, 500.0, 0.0},
        {"copy", 1, 100.0, 0.0},
    });
    BOOST_TEST_REQUIRE(table.kernels.size() == 3u);
    BOOST_TEST(table.kernels[0].name == "gemm");
    BOOST_TEST(table.kernels[0].launches == 3);
    BOOST_TEST(table.kernels[0].time_ns == 800.0);
    BOOST_TEST(table.kernels[1].name == "rstd");
    BOOST_TEST(table.kernels[2].name == "copy");
    BOOST_TEST(table.total_ns() == 1000.0);
    BOOST_TEST(table.kernels[0].pct == 80.0, boost::test_tools::tolerance(1e-12));
    BOOST_TEST(table.kernels[1].pct == 10.0, boost::test_tools::tolerance(1e-12));
    BOOST_TEST(!table.profiler.has_value());
}

BOOST_AUTO_TEST_CASE(names_differing_only_in_template_arguments_stay_apart) {
    const KernelTable table = forge::merge_by_name({{"k<1>", 1, 1.0, 0.0}, {"k<2>", 1, 1.0, 0.0}});
    BOOST_TEST(table.kernels.size() == 2u);
}

BOOST_AUTO_TEST_CASE(a_zero_total_gives_zero_shares) {
    const KernelTable table = forge::merge_by_name({{"a", 1, 0.0, 0.0}, {"b", 4, 0.0, 0.0}});
    BOOST_TEST(table.kernels[0].pct == 0.0);
    BOOST_TEST(table.kernels[1].pct == 0.0);
    BOOST_TEST(forge::merge_by_name({}).kernels.empty());
}

BOOST_AUTO_TEST_CASE(a_time_near_the_largest_double_still_has_a_finite_share) {
    // Found by fuzzing (fuzz_nsys_csv): "Total Time (ns)" 1.7e308 gave pct inf, written as null.
    const KernelTable table = forge::merge_by_name({{"k", 1, 1.7e308, 0.0}});
    BOOST_TEST(table.kernels[0].pct == 100.0);
}

BOOST_AUTO_TEST_CASE(many_names_merge_without_losing_rows) {
    // Enough distinct names (short and long) that the merged rows would move if
    // they were not reserved: the merge must still find every earlier name.
    std::vector<KernelRow> rows;
    for (int round = 0; round < 2; ++round) {
        for (int i = 0; i < 500; ++i) {
            rows.push_back({(i % 2 ? "k" : std::string(40, 'x')) + std::to_string(i), 1, 1.0, 0.0});
        }
    }
    const KernelTable table = forge::merge_by_name(std::move(rows));
    BOOST_TEST_REQUIRE(table.kernels.size() == 500u);
    for (const KernelRow& row : table.kernels) {
        BOOST_TEST(row.launches == 2);
    }
}

BOOST_AUTO_TEST_CASE(json_has_the_eval_shape) {
    KernelTable table = forge::merge_by_name({{"k", 2, 390000.0, 0.0}});
    BOOST_TEST(forge::to_json(table).dump() ==
               R"({"kernels":[{"launches":2,"name":"k","pct":100.0,"time_ns":390000.0}],"profiler":null})");
    table.profiler = forge::ProfilerDigest{390000.0, 3};
    const nlohmann::json json = forge::to_json(table);
    BOOST_TEST(json["profiler"]["total_ns"].get<double>() == 390000.0);
    BOOST_TEST(json["profiler"]["calls"].get<std::int64_t>() == 3);
    BOOST_TEST(json["kernels"][0]["launches"].is_number_integer());
}
