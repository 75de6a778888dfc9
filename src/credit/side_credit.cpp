#include "side_credit.hpp"

#include <algorithm>
#include <vector>

namespace forge::credit_detail {

PricedSide side_credit(std::span<const KernelPattern> patterns, const std::optional<KernelTable>& table) {
    PricedSide priced;
    SideCredit& out = priced.credit;
    out.table = table && !table->kernels.empty();
    for (const KernelPattern& p : patterns) out.priced.push_back(p.entry().name);
    if (patterns.empty()) return priced;
    if (!out.table) {
        out.unmatched = out.priced;
        for (const KernelPattern& p : patterns) priced.unmatched.push_back(&p.entry());
        return priced;
    }
    const std::vector<KernelRow>& rows = table->kernels;
    // Plain left-to-right sums, as Python 3.11's sum() adds floats.
    for (const KernelRow& row : rows) out.total_ns += row.time_ns;

    // Rows in the order they are first matched (entry by entry), which is the
    // order the Python oracle adds them in.
    std::vector<bool> counted(rows.size(), false);
    std::vector<std::size_t> matched_rows;
    for (const KernelPattern& p : patterns) {
        bool found = false;
        for (std::size_t i = 0; i < rows.size(); ++i) {
            if (!p.found_in(rows[i].name)) continue;
            found = true;
            if (!counted[i]) {
                counted[i] = true;
                matched_rows.push_back(i);
            }
        }
        if (!found) {
            out.unmatched.push_back(p.entry().name);
            priced.unmatched.push_back(&p.entry());
        }
    }
    std::size_t named_matched = 0;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        if (rows[i].name == unmarked_region_row) continue;
        ++priced.named_rows;
        if (counted[i]) ++named_matched;
    }
    priced.every_row_matched = priced.named_rows > 0 && named_matched == priced.named_rows;
    for (std::size_t i : matched_rows) {
        out.matched_ns += rows[i].time_ns;
        out.matched.push_back(rows[i].name);
    }
    std::sort(out.matched.begin(), out.matched.end());
    out.matched.erase(std::unique(out.matched.begin(), out.matched.end()), out.matched.end());
    out.fraction = out.total_ns > 0 ? out.matched_ns / out.total_ns : 0.0;
    return priced;
}

}  // namespace forge::credit_detail
