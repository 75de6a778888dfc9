// Throughput of what a configure step and the checks do: one typical contract
// parsed and validated, a credit over a large per-kernel table, and `forge check`
// over many contracts in one process (items/s = contracts/s; goal >= 20,000).
#include <benchmark/benchmark.h>

#include <cstddef>
#include <cstdint>
#include <fstream>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "forge/contract/check.hpp"
#include "forge/credit/credit.hpp"
#include "forge/eval/eval.hpp"
#include "forge/table/kernel_table.hpp"

namespace {

// The shape of a real card: a backward whose reference receives what its forward saved.
constexpr std::string_view typical_contract = R"toml(schema_version = 1

[reference]
window = "bwd call only (autograd path)"
inputs = ["q", "k", "v", "g_cumsum", "A", "beta", "do"]
outputs = ["dq", "dk", "dv", "dbeta", "dg"]

[student]
window = "bwd call from raw inputs"
inputs = ["q", "k", "v", "g", "beta", "do"]
outputs = ["dq", "dk", "dv", "dg", "dbeta"]

[[asymmetry]]
ref_input = "A"
class = "price"
produced_by = "forward"
derived_from = "k, beta"
student_kernel_regex = "k1_"
note = "per-chunk triangular solve"

[[asymmetry]]
ref_input = "g_cumsum"
class = "price"
produced_by = "forward"
derived_from = "g"
student_kernel_regex = "(?P<scan>chunk_cumsum)"
note = "chunk-local cumulative sum of the gates"
)toml";

// The window.toml texts of the committed differential vectors: valid, broken and
// malformed contracts in the proportions the generator draws them.
const std::vector<std::string>& contract_corpus() {
    static const std::vector<std::string> corpus = [] {
        const std::string path = std::string{FORGE_VECTORS_DIR} + "/findings.jsonl";
        std::ifstream in(path);
        if (!in) throw std::runtime_error("cannot open " + path + " (written by tests/vectors/generate.py)");
        std::vector<std::string> texts;
        std::string line;
        while (texts.size() < 1000 && std::getline(in, line)) {
            const nlohmann::json vec = nlohmann::json::parse(line);
            if (vec["toml"].is_string()) texts.push_back(vec["toml"].get<std::string>());
        }
        return texts;
    }();
    return corpus;
}

// A profiler export of a long run: `rows` distinct kernel names, a few of them the
// priced rebuild launches (k1_*, chunk_cumsum*), the rest the operator's own work.
forge::SideReading large_side(std::size_t rows) {
    forge::KernelTable table;
    table.kernels.reserve(rows);
    double total = 0.0;
    for (std::size_t i = 0; i < rows; ++i) {
        std::string name = i % 997 == 0   ? "k1_solve_tile_" + std::to_string(i)
                           : i % 991 == 0 ? "chunk_cumsum_fwd_" + std::to_string(i)
                                          : "void flash::bwd_kernel<" + std::to_string(i) + ", 128, true>";
        const double time_ns = 1000.0 + static_cast<double>(i % 113) * 17.0;
        total += time_ns;
        table.kernels.push_back({.name = std::move(name), .launches = 1, .time_ns = time_ns, .pct = 0.0});
    }
    return {.ms = total / 1e6,
            .throughput = {},
            .kernels = std::move(table),
            .profiler = forge::ProfilerDigest{.total_ns = total, .calls = 1},
            .kernel_set_changed = std::nullopt};
}

void credit_10000_rows(benchmark::State& state) {
    const forge::ContractCheck check = forge::check_contract_text(typical_contract, "window.toml");
    if (!check.contract) throw std::runtime_error("the typical contract does not parse");
    const forge::SideReading student = large_side(10'000);
    const forge::SideReading reference = large_side(16);
    for (auto _ : state) {
        std::optional<forge::Credit> credit = forge::window_credit(*check.contract, student, reference);
        benchmark::DoNotOptimize(credit);
    }
    state.SetItemsProcessed(state.iterations() * 10'000);
}
BENCHMARK(credit_10000_rows)->Unit(benchmark::kMillisecond);

void check_typical_contract(benchmark::State& state) {
    for (auto _ : state) {
        forge::ContractCheck check = forge::check_contract_text(typical_contract, "window.toml");
        benchmark::DoNotOptimize(check);
    }
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(check_typical_contract);

void check_1000_contracts(benchmark::State& state) {
    const std::vector<std::string>& corpus = contract_corpus();
    for (auto _ : state) {
        std::size_t refused = 0;
        for (const std::string& text : corpus) {
            refused += forge::check_contract_text(text, "window.toml").refused() ? 1 : 0;
        }
        benchmark::DoNotOptimize(refused);
    }
    state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(corpus.size()));
    state.counters["contracts"] = static_cast<double>(corpus.size());
}
BENCHMARK(check_1000_contracts)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
