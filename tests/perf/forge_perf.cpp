// Throughput of what a configure step and the checks do: one typical contract
// parsed and validated, a credit over a large per-kernel table, and `forge check`
// over many contracts in one process (items/s = contracts/s; goal >= 20,000).
#include <benchmark/benchmark.h>

#include <cstddef>
#include <cstdint>
#include <fstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "forge/contract/check.hpp"

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
