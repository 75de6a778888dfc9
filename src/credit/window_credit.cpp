#include <charconv>
#include <cmath>
#include <span>
#include <string>

#include "credit_messages.hpp"
#include "forge/credit/credit.hpp"
#include "priced_entries.hpp"
#include "side_credit.hpp"

namespace forge {

namespace credit_detail {

namespace {

// Python's round(x, 3): the correctly rounded 3-decimal string, read back.
double round3(double x) {
    if (!std::isfinite(x)) return x;
    char buf[400];  // a double in fixed notation with 3 decimals fits in 330 characters
    const auto printed = std::to_chars(buf, buf + sizeof buf, x, std::chars_format::fixed, 3);
    double out = x;
    std::from_chars(buf, printed.ptr, out);
    return out;
}

}  // namespace

PricedEntries::PricedEntries(const WindowContract& contract) : contract_(&contract) {
    if (!contract.declared()) return;
    for (const Asymmetry* a : contract.priced_entries()) {
        (a->payer() == Side::student ? student_ : reference_).emplace_back(*a);
    }
    for (const Asymmetry* a : contract.unpriced_entries()) unpriced_.push_back(a->name);
}

Credit PricedEntries::price(const SideReading& student, const SideReading& reference, TableRows rows) const {
    PricedSide priced_student = side_credit(student_, student.kernels);
    PricedSide priced_reference = side_credit(reference_, reference.kernels);
    Credit out;
    out.student = priced_student.credit;
    out.reference = priced_reference.credit;
    out.unpriced = unpriced_;

    const struct {
        Side side;
        const PricedSide& priced;
        const SideReading& reading;
        std::span<const KernelPattern> patterns;
    } sides[] = {{Side::student, priced_student, student, student_},
                 {Side::reference, priced_reference, reference, reference_}};

    for (const auto& [side, priced, reading, patterns] : sides) {
        const SideCredit& part = priced.credit;
        if (!part.priced.empty() && !part.table) {
            out.why.push_back(
                {std::string(credit_code::table_missing), table_missing_message(side, part.priced, rows)});
        } else if (!part.unmatched.empty()) {
            out.why.push_back({std::string(credit_code::regex_unmatched),
                               unmatched_message(*contract_, side, priced.unmatched, *reading.kernels, rows)});
        } else if (part.table && !part.priced.empty() &&
                   (priced.every_row_matched || part.fraction >= implausible_fraction)) {
            out.warnings.push_back({std::string(credit_code::match_implausible),
                                    implausible_message(side, patterns, part, priced.every_row_matched,
                                                        priced.named_rows, rows)});
        }
    }
    for (const auto& [side, priced, reading, patterns] : sides) {
        if (priced.credit.priced.empty()) continue;
        const auto cov = coverage(reading.profiler, reading.ms);
        if (!cov) continue;
        (side == Side::student ? out.reconciliation.student : out.reconciliation.reference) = round3(*cov);
        if (std::abs(*cov - 1.0) > coverage_band) {
            out.why.push_back({std::string(credit_code::coverage_out_of_band), coverage_message(side, *cov, rows)});
        }
    }
    out.usable = out.why.empty();
    return out;
}

}  // namespace credit_detail

CreditError::CreditError(std::string message, std::string entry_, std::string kernel_)
    : std::runtime_error(std::move(message)), entry(std::move(entry_)), kernel(std::move(kernel_)) {}

TableRows table_rows(const EvalReport& eval) noexcept {
    return eval.backend == "host" ? TableRows::regions : TableRows::kernels;
}

std::optional<Credit> window_credit(const WindowContract& contract, const SideReading& student,
                                    const SideReading& reference, TableRows rows) {
    const credit_detail::PricedEntries priced(contract);
    if (priced.empty()) return std::nullopt;
    return priced.price(student, reference, rows);
}

}  // namespace forge
