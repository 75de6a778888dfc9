#include "credit_messages.hpp"

#include <cstdio>
#include <vector>

#include "name_suggestion.hpp"

namespace forge::credit_detail {

namespace {

// A message lists this many names at most; templated kernel names are cut short.
constexpr std::size_t listed_names = 12;
constexpr std::size_t shown_name = 120;

std::string shortened(const std::string& name) {
    return name.size() <= shown_name ? name : name.substr(0, shown_name) + "...";
}

std::string listed(std::span<const std::string> names) {
    std::string out;
    for (std::size_t i = 0; i < names.size() && i < listed_names; ++i)
        out += (i == 0 ? "" : ", ") + shortened(names[i]);
    if (names.size() > listed_names) out += ", ... (" + std::to_string(names.size() - listed_names) + " more)";
    return out;
}

std::string joined(std::span<const std::string> names) {
    std::string out;
    for (const std::string& name : names) out += (out.empty() ? "" : ", ") + name;
    return out;
}

std::string two_decimals(double x) {
    char buf[400];
    std::snprintf(buf, sizeof buf, "%.2f", x);
    return buf;
}

std::string possessive(Side side) { return "the " + std::string(to_string(side)) + "'s"; }

std::string row_word(TableRows rows) { return rows == TableRows::regions ? "regions" : "kernels"; }

// "window.toml:17: [[asymmetry]] ref_input=mean student_kernel_regex 'rebuild_stats'"
std::string entry_with_regex(const WindowContract& contract, const Asymmetry& entry) {
    const std::string regex_key_name(regex_key(entry.payer()));
    std::string out;
    if (!contract.path.empty()) {
        out += contract.path;
        const std::string key = "asymmetry[" + std::to_string(entry.index) + "]." + regex_key_name;
        if (const auto at = contract.location_of(key)) out += ':' + std::to_string(at->line);
        out += ": ";
    }
    return out + "[[asymmetry]] " + entry.subject() + " " + regex_key_name + " '" + entry.regex() + "'";
}

}  // namespace

std::string table_missing_message(Side side, std::span<const std::string> priced, TableRows rows) {
    const std::string name(to_string(side));
    const std::string what = rows == TableRows::regions ? "per-region" : "per-kernel";
    return "no " + name + " " + what + " table on record (performance.workloads[].kernels." + name +
           "): the bench must record one for the priced entries " + joined(priced);
}

std::string unmatched_message(const WindowContract& contract, Side side, std::span<const Asymmetry* const> entries,
                              const KernelTable& table, TableRows rows) {
    std::vector<std::string> names;
    for (const KernelRow& row : table.kernels) names.push_back(row.name);
    std::string out;
    for (const Asymmetry* entry : entries) {
        if (!out.empty()) out += "; ";
        out += entry_with_regex(contract, *entry) + " matches none of " + possessive(side) + " " + row_word(rows);
        if (const auto suggestion = closest_name(entry->regex(), names)) out += " (did you mean '" + *suggestion + "'?)";
    }
    out += ". " + std::string(rows == TableRows::regions ? "Regions" : "Kernels") + " of " + possessive(side) +
           " call: " + listed(names) + ". ";
    if (rows == TableRows::regions) {
        out += "Fix the regex in window.toml to name the region the " + std::string(to_string(side)) +
               " marks around this work (forge::bench::region in C++, forge_region_begin/forge_region_end in C), "
               "or mark one around it in its code";
    } else {
        out += "Fix the regex in window.toml to name the " + std::string(to_string(side)) +
               "'s launches doing this work (fused into another kernel? price that kernel, or class the entry "
               "accept)";
    }
    return out;
}

std::string coverage_message(Side side, double coverage, TableRows rows) {
    const std::string name(to_string(side));
    if (rows == TableRows::regions) {
        return name + "'s regions do not reconcile with its timed reading (the profiled calls took " +
               two_decimals(coverage) +
               "x the timed median; band +-20%): they ran in a busier or quieter stretch than the timed rounds "
               "(a busy machine: rerun the bench), or regions on other threads overlap the call's own";
    }
    return name + " per-kernel table does not reconcile with its timed window (profiled per-call kernel time = " +
           two_decimals(coverage) +
           "x the reading; band +-20%): setup launches in the table, or the window not covered by the profile";
}

std::string implausible_message(Side side, std::span<const KernelPattern> patterns, const SideCredit& credit,
                                bool every_row, std::size_t row_count, TableRows rows) {
    std::string regexes;
    for (const KernelPattern& p : patterns) {
        regexes += (regexes.empty() ? "" : ", ") + p.entry().subject() + " " +
                   std::string(regex_key(p.entry().payer())) + " '" + p.entry().regex() + "'";
    }
    std::string out = possessive(side) + " priced regexes (" + regexes + ") match ";
    const std::string percent = two_decimals(credit.fraction * 100.0) + "%";
    if (!every_row)
        out += percent + " of its " + row_word(rows) + "' time";
    else if (rows == TableRows::regions)
        out += "every one of the " + std::to_string(row_count) + " regions it marks, " + percent + " of its time";
    else
        out += "every one of its " + std::to_string(row_count) + " kernels";
    out += " (" + listed(credit.matched) + "): that prices the whole call, not the declared extra work. Narrow the "
           "regex in window.toml to the " + row_word(rows) + " doing that work";
    return out;
}

}  // namespace forge::credit_detail
