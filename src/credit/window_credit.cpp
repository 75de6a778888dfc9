#include <charconv>
#include <cmath>
#include <cstdio>
#include <string>

#include "forge/credit/credit.hpp"
#include "priced_entries.hpp"
#include "side_credit.hpp"

namespace forge {

namespace credit_detail {

namespace {

std::string joined(const std::vector<std::string>& names) {
    std::string out;
    for (const auto& name : names) {
        if (!out.empty()) out += ", ";
        out += name;
    }
    return out;
}

// Python's round(x, 3): the correctly rounded 3-decimal string, read back.
double round3(double x) {
    if (!std::isfinite(x)) return x;
    char buf[400];  // a double in fixed notation with 3 decimals fits in 330 characters
    const auto printed = std::to_chars(buf, buf + sizeof buf, x, std::chars_format::fixed, 3);
    double out = x;
    std::from_chars(buf, printed.ptr, out);
    return out;
}

std::string two_decimals(double x) {
    char buf[400];
    std::snprintf(buf, sizeof buf, "%.2f", x);
    return buf;
}

}  // namespace

PricedEntries::PricedEntries(const WindowContract& contract) {
    if (!contract.declared()) return;
    for (const Asymmetry* a : contract.priced_entries()) {
        (a->payer() == Side::student ? student_ : reference_).emplace_back(*a);
    }
    for (const Asymmetry* a : contract.unpriced_entries()) unpriced_.push_back(a->name);
}

Credit PricedEntries::price(const SideReading& student, const SideReading& reference) const {
    Credit out;
    out.student = side_credit(student_, student.kernels);
    out.reference = side_credit(reference_, reference.kernels);
    out.unpriced = unpriced_;

    const struct {
        Side side;
        const SideCredit& part;
        const SideReading& reading;
    } sides[] = {{Side::student, out.student, student}, {Side::reference, out.reference, reference}};

    for (const auto& [side, part, reading] : sides) {
        const std::string name(to_string(side));
        if (!part.priced.empty() && !part.table) {
            out.why.push_back({std::string(credit_code::table_missing),
                               "no " + name + " per-kernel table on record (performance.workloads[].kernels." + name +
                                   "): the bench must record one for the priced entries " + joined(part.priced)});
        } else if (!part.unmatched.empty()) {
            out.why.push_back({std::string(credit_code::regex_unmatched),
                               name + " regex matched nothing for " + joined(part.unmatched) +
                                   " (fused or renamed?): name the " + name +
                                   "'s launches doing that work in window.toml, from its per-kernel table"});
        }
    }
    for (const auto& [side, part, reading] : sides) {
        if (part.priced.empty()) continue;
        const auto cov = coverage(reading.profiler, reading.ms);
        if (!cov) continue;
        (side == Side::student ? out.reconciliation.student : out.reconciliation.reference) = round3(*cov);
        if (std::abs(*cov - 1.0) > coverage_band) {
            const std::string name(to_string(side));
            out.why.push_back({std::string(credit_code::coverage_out_of_band),
                               name +
                                   " per-kernel table does not reconcile with its timed window (profiled per-call "
                                   "kernel time = " +
                                   two_decimals(*cov) +
                                   "x the reading; band +-20%): setup "
                                   "launches in the table, or the window not covered by the profile"});
        }
    }
    out.usable = out.why.empty();
    return out;
}

}  // namespace credit_detail

CreditError::CreditError(std::string message, std::string entry_, std::string kernel_)
    : std::runtime_error(std::move(message)), entry(std::move(entry_)), kernel(std::move(kernel_)) {}

std::optional<Credit> window_credit(const WindowContract& contract, const SideReading& student,
                                    const SideReading& reference) {
    const credit_detail::PricedEntries priced(contract);
    if (priced.empty()) return std::nullopt;
    return priced.price(student, reference);
}

}  // namespace forge
