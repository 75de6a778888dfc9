#include "forge/report/credit_view.hpp"

#include <algorithm>
#include <cmath>
#include <ostream>
#include <string>

#include "forge/report/text_table.hpp"
#include "number_format.hpp"

namespace forge {

namespace {

// A terminal table stays readable at 160 columns: two names of 44 plus figures.
constexpr std::size_t terminal_name_width = 44;
constexpr std::string_view priced_marker = "* ";

enum class Medium { terminal, markdown };

bool is_priced(const std::optional<Credit>& credit, Side side, const std::string& kernel) {
    if (!credit) return false;
    const std::vector<std::string>& matched = credit->side(side).matched;
    return std::binary_search(matched.begin(), matched.end(), kernel);  // sorted by window_credit
}

// Both sides' tables as one: row i holds each side's i-th kernel.
TextTable side_by_side(const WorkloadReading& workload, const std::optional<Credit>& credit, Medium medium,
                       std::string_view row_word) {
    const std::size_t width = medium == Medium::terminal ? terminal_name_width : 0;
    TextTable table({{"reference " + std::string(row_word), Align::left, width},
                     {"launches/call", Align::right},
                     {"us/call", Align::right},
                     {"share", Align::right},
                     {"student " + std::string(row_word), Align::left, width},
                     {"launches/call", Align::right},
                     {"us/call", Align::right},
                     {"share", Align::right}});
    const auto rows_of = [](const SideReading& side) {
        return side.kernels ? side.kernels->kernels : std::vector<KernelRow>{};
    };
    // A table sums its profiled calls (profiler.calls) as a profiler's digest
    // does; shown per call, as the coverage and the timed readings beside it are.
    const auto calls_of = [](const SideReading& side) {
        return side.profiler && side.profiler->calls > 0 ? static_cast<double>(side.profiler->calls) : 1.0;
    };
    const std::vector<KernelRow> reference = rows_of(workload.reference);
    const std::vector<KernelRow> student = rows_of(workload.student);
    const double calls[] = {calls_of(workload.reference), calls_of(workload.student)};
    for (std::size_t i = 0; i < std::max(reference.size(), student.size()); ++i) {
        std::vector<std::string> cells;
        std::vector<Emphasis> emphasis;
        for (const auto& [side, rows] : {std::pair{Side::reference, &reference}, std::pair{Side::student, &student}}) {
            if (i >= rows->size()) {
                cells.insert(cells.end(), 4, "");
                emphasis.insert(emphasis.end(), 4, Emphasis::none);
                continue;
            }
            const KernelRow& row = (*rows)[i];
            const bool priced = is_priced(credit, side, row.name);
            // In Markdown a name goes in a code span: `<...>` would read as an HTML tag.
            const std::string label = medium == Medium::markdown ? "`" + row.name + "`" : row.name;
            cells.push_back(std::string{priced ? priced_marker : "  "} + label);
            const double side_calls = calls[side == Side::reference ? 0 : 1];
            const double launches = static_cast<double>(row.launches) / side_calls;
            cells.push_back(fixed(launches, launches == std::floor(launches) ? 0 : 1));
            cells.push_back(fixed(row.time_ns / 1e3 / side_calls, 2));
            cells.push_back(fixed(row.pct, 1) + "%");
            emphasis.insert(emphasis.end(), 4, priced ? Emphasis::priced : Emphasis::none);
        }
        table.add_row(std::move(cells), std::move(emphasis));
    }
    return table;
}

std::string side_share(const Credit& credit, Side side) {
    const SideCredit& part = credit.side(side);
    std::string out{to_string(side)};
    if (part.priced.empty()) return out + " prices nothing";
    out += ' ' + percent(part.fraction) + " (";
    for (std::size_t i = 0; i < part.priced.size(); ++i) out += (i == 0 ? "" : ", ") + part.priced[i];
    out += ')';
    return out;
}

std::vector<std::string> notes_about(const WorkloadCredit& workload, std::string_view row_word) {
    std::vector<std::string> notes;
    if (!workload.credit) {
        notes.emplace_back("nothing priced: the contract has no price entry with the payer's kernel regex");
        return notes;
    }
    const Credit& credit = *workload.credit;
    notes.push_back("priced share: " + side_share(credit, Side::student) + "; " +
                    side_share(credit, Side::reference));
    if (!credit.reconciliation.empty()) {
        std::string line = "coverage (profiled per-call " + std::string(row_word) + " time / timed reading):";
        if (credit.reconciliation.student) line += " student " + fixed(credit.reconciliation.student, 3);
        if (credit.reconciliation.reference) line += " reference " + fixed(credit.reconciliation.reference, 3);
        notes.push_back(std::move(line));
    }
    for (const CreditReason& reason : credit.why) notes.push_back("not usable [" + reason.code + "]: " + reason.message);
    for (const CreditReason& warning : credit.warnings)
        notes.push_back("warning [" + warning.code + "]: " + warning.message);
    if (!credit.unpriced.empty()) {
        std::string line = "unpriced price entries (no regex yet: their work stays in the credited ratio):";
        for (const std::string& name : credit.unpriced) line += ' ' + name;
        notes.push_back(std::move(line));
    }
    return notes;
}

// " [0.790, 0.810] slower": the 95% interval and verdict, where the bench wrote them.
std::string with_interval(const std::optional<RatioCi>& ci, const std::optional<std::string>& verdict) {
    std::string out;
    if (ci) out += " " + interval(ci->low, ci->high);
    if (verdict) out += " " + *verdict;
    return out;
}

std::string ratio_line(const WorkloadReading& reading, const WorkloadCredit& workload) {
    const std::optional<double> ref = reading.reference.ms;
    const std::optional<double> stu = reading.student.ms;
    std::string line = "reference " + fixed(ref, 4) + " ms, student " + fixed(stu, 4) + " ms, raw ratio ";
    line += reading.ratio ? fixed(reading.ratio, 3) : ref && stu && *stu > 0 ? fixed(*ref / *stu, 3) : "-";
    line += with_interval(reading.ratio_ci, reading.verdict);
    line += ", credited ratio ";
    if (!workload.ratio) return line + "-";
    line += fixed(workload.ratio->credited_ratio, 3);
    // The credit starts from the sides' medians; where their ratio and the paired
    // rounds' part (a few rounds, a noisy machine), credited / raw is not the
    // priced share alone, so the reader is shown the ratio it started from.
    const double of_medians = workload.ratio->raw_ratio;
    if (reading.ratio && std::abs(*reading.ratio / of_medians - 1.0) > 0.005) {
        line += " (from the sides' medians, whose ratio is " + fixed(of_medians, 3) + ")";
    }
    return line;
}

std::string run_line(const EvalReport& eval, const RunCredit& run) {
    std::string line = "raw ratio " + fixed(run.raw_ratio, 3) + with_interval(eval.ratio_ci, eval.verdict);
    if (eval.precision_reached == false) line += " (precision not reached: the interval stopped short of its target)";
    if (eval.quick) line += " (a --quick run: fewer rounds, a looser precision target)";
    line += ", credited ratio ";
    if (run.workloads.empty()) return line + "- (no workloads measured)";
    const bool priced = std::any_of(run.workloads.begin(), run.workloads.end(),
                                    [](const WorkloadCredit& workload) { return workload.credit.has_value(); });
    if (!priced) return line + "- (nothing priced)";
    const bool usable = std::all_of(run.workloads.begin(), run.workloads.end(), [](const WorkloadCredit& workload) {
        return workload.credit && workload.credit->usable;
    });
    if (!run.credited_ratio && usable) return line + "- (the priced share leaves no time: a credited reading is 0)";
    if (!run.credited_ratio) return line + "- (not every workload's credit is usable)";
    line += fixed(run.credited_ratio, 3);
    if (eval.ratio_ci) {
        // Derived (credited_ratio_ci): the raw interval carried onto the credited ratio.
        const std::optional<RatioCi> ci = credited_ratio_ci(run, *eval.ratio_ci);
        line += " " + interval(ci->low, ci->high) + " (the raw interval, credited)";
    }
    return line + " (geometric mean over " + std::to_string(run.workloads.size()) + " workloads)";
}

void render(std::ostream& out, const EvalReport& eval, const RunCredit& run, Medium medium, bool colour) {
    const std::string_view row = table_rows(eval) == TableRows::regions ? "region" : "kernel";
    const std::string name = eval.operator_name.value_or(eval.path);
    if (medium == Medium::markdown) out << "## " << name << "\n\n";
    else out << name << " (" << eval.path << ")\n";
    for (std::size_t i = 0; i < run.workloads.size() && i < eval.workloads.size(); ++i) {
        const WorkloadReading& reading = eval.workloads[i];
        const WorkloadCredit& workload = run.workloads[i];
        const TextTable table = side_by_side(reading, workload.credit, medium, row);
        if (medium == Medium::markdown) {
            out << "### workload `" << reading.name << "`\n\n" << ratio_line(reading, workload) << "\n\n";
            table.render_markdown(out);
            out << '\n';
            for (const std::string& note : notes_about(workload, row)) out << "- " << note << '\n';
            out << '\n';
        } else {
            out << "\nworkload " << reading.name << ": " << ratio_line(reading, workload) << '\n';
            table.render_text(out, colour);
            for (const std::string& note : notes_about(workload, row)) out << "  " << note << '\n';
        }
    }
    if (medium == Medium::markdown) out << "**Run:** " << run_line(eval, run) << "\n\n`*` marks priced " << row << "s.\n";
    else out << "\nrun: " << run_line(eval, run) << "\n(* marks priced " << row << "s)\n";
}

}  // namespace

void render_credit_text(std::ostream& out, const EvalReport& eval, const RunCredit& run, bool colour) {
    render(out, eval, run, Medium::terminal, colour);
}

void render_credit_markdown(std::ostream& out, const EvalReport& eval, const RunCredit& run) {
    render(out, eval, run, Medium::markdown, false);
}

}  // namespace forge
