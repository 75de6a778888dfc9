#include "forge/table/kernel_table.hpp"

#include <string_view>
#include <unordered_map>
#include <utility>

#include "forge/eval/eval_keys.hpp"

namespace forge {

double KernelTable::total_ns() const noexcept {
    double total = 0.0;
    for (const KernelRow& row : kernels) {
        total += row.time_ns;
    }
    return total;
}

KernelTable merge_by_name(std::vector<KernelRow> rows) {
    KernelTable table;
    // Reserved up front so the merged rows never move: the index keys view their names.
    table.kernels.reserve(rows.size());
    std::unordered_map<std::string_view, std::size_t> index_of;
    index_of.reserve(rows.size());
    for (KernelRow& row : rows) {
        const auto found = index_of.find(row.name);
        if (found != index_of.end()) {
            KernelRow& merged = table.kernels[found->second];
            merged.launches += row.launches;
            merged.time_ns += row.time_ns;
            continue;
        }
        table.kernels.push_back(std::move(row));
        index_of.emplace(table.kernels.back().name, table.kernels.size() - 1);
    }
    const double total = table.total_ns();
    for (KernelRow& row : table.kernels) {
        // Divide first: 100 * time_ns overflows to inf for a time near DBL_MAX.
        row.pct = total > 0.0 ? row.time_ns / total * 100.0 : 0.0;
    }
    return table;
}

nlohmann::json to_json(const KernelTable& table) {
    nlohmann::json kernels = nlohmann::json::array();
    for (const KernelRow& row : table.kernels) {
        kernels.push_back({{eval_key::name, row.name},
                           {eval_key::launches, row.launches},
                           {eval_key::time_ns, row.time_ns},
                           {eval_key::pct, row.pct}});
    }
    nlohmann::json profiler = nullptr;
    if (table.profiler) {
        profiler = {{eval_key::total_ns, table.profiler->total_ns}, {eval_key::calls, table.profiler->calls}};
    }
    return {{eval_key::kernels, std::move(kernels)}, {eval_key::profiler, std::move(profiler)}};
}

}  // namespace forge
