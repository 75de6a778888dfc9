#include "rules/profiled_calls.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "forge/credit/credit.hpp"
#include "forge/stats/summary.hpp"

namespace forge::bench {

KernelTable median_per_call(std::span<const KernelTable> all_calls) {
    if (all_calls.empty()) throw std::invalid_argument("a kernel table of no profiled calls");
    std::vector<KernelTable> calls;
    std::copy_if(all_calls.begin(), all_calls.end(), std::back_inserter(calls),
                 [](const KernelTable& call) { return call.profiler.has_value(); });
    if (calls.empty()) return {};
    std::vector<std::string> names;
    for (const KernelTable& call : calls) {
        for (const KernelRow& row : call.kernels) {
            if (std::find(names.begin(), names.end(), row.name) == names.end()) names.push_back(row.name);
        }
    }
    const auto n = static_cast<double>(calls.size());
    std::vector<KernelRow> rows;
    for (const std::string& name : names) {
        std::vector<double> time_ns;
        std::vector<double> launches;
        for (const KernelTable& call : calls) {
            double call_ns = 0.0;
            double call_launches = 0.0;
            for (const KernelRow& row : call.kernels) {
                if (row.name != name) continue;
                call_ns += row.time_ns;
                call_launches += static_cast<double>(row.launches);
            }
            time_ns.push_back(call_ns);
            launches.push_back(call_launches);
        }
        rows.push_back(KernelRow{name, static_cast<std::int64_t>(std::llround(n * stats::median(launches))),
                                 n * stats::median(time_ns), 0.0});
    }
    KernelTable table = merge_by_name(std::move(rows));
    table.profiler = ProfilerDigest{table.total_ns(), static_cast<std::int64_t>(calls.size())};
    return table;
}

std::size_t ProfiledCallCount::wanted(const KernelTable& table, std::size_t taken, double timed_ms) const {
    if (taken >= most) return taken;
    const std::optional<double> cov = coverage(table.profiler, timed_ms);
    if (!cov || std::abs(*cov - 1.0) <= coverage_band) return taken;
    return std::min(taken + step, most);
}

}  // namespace forge::bench
