// What every imported per-kernel table promises, whatever the
// CSV held: one row per name, real launch counts and durations (negative ones
// are refused), shares in [0, 100] that add up, a digest equal to the rows'
// sum, and JSON that can be written.
#pragma once

#include <cmath>
#include <set>
#include <string_view>

#include "forge/table/kernel_table.hpp"
#include "fuzz_invariant.hpp"

inline void hold_table_to_spec(const forge::KernelTable& table) {
    std::set<std::string_view> names;
    double pct_sum = 0.0;
    for (const forge::KernelRow& row : table.kernels) {
        FORGE_FUZZ_INVARIANT(names.insert(row.name).second, "two rows of one kernel name");
        FORGE_FUZZ_INVARIANT(row.launches >= 1, "a row without launches");
        FORGE_FUZZ_INVARIANT(std::isfinite(row.time_ns) && row.time_ns >= 0.0, "a row whose time is not a duration");
        FORGE_FUZZ_INVARIANT(row.pct >= 0.0 && row.pct <= 100.0 + 1e-9, "a row whose share is not in [0, 100]");
        pct_sum += row.pct;
    }
    FORGE_FUZZ_INVARIANT(table.profiler, "an imported table without a profiler digest");
    FORGE_FUZZ_INVARIANT(table.profiler->calls == 1, "an imported table that is not one profiled call");
    FORGE_FUZZ_INVARIANT(table.profiler->total_ns == table.total_ns(), "a digest that is not the rows' sum");
    if (table.total_ns() > 0.0 && !table.kernels.empty()) {
        FORGE_FUZZ_INVARIANT(std::abs(pct_sum - 100.0) < 1e-6 * static_cast<double>(table.kernels.size()) + 1e-9,
                             "shares that do not add up to 100");
    }
    static_cast<void>(forge::to_json(table).dump());
}
