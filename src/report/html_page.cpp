#include "forge/report/html_page.hpp"

#include <algorithm>
#include <array>
#include <cstddef>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "forge/stats/between_runs.hpp"
#include "html_style.hpp"
#include "html_text.hpp"
#include "number_format.hpp"
#include "ratio_chart.hpp"

namespace forge {

namespace {

using html::escape;
using html::Mark;
using html::number_attribute;
using html::page_style;

std::string text_attribute(std::string_view name, std::string_view value) {
    return " " + std::string(name) + "=\"" + escape(value) + "\"";
}

std::string interval_attributes(const std::optional<RatioCi>& ci) {
    if (!ci) return {};
    return number_attribute("data-ratio-low", ci->low) + number_attribute("data-ratio-high", ci->high);
}

std::string interval_text(const std::optional<RatioCi>& ci) { return ci ? interval(ci->low, ci->high) : "-"; }

std::string verdict_badge(Mark mark) {
    return "<span class=\"verdict " + std::string(html::mark_class(mark)) + "\">" + html::mark_icon(mark) +
           std::string(html::mark_name(mark)) + "</span>";
}

// Every ratio a card draws, so its charts share one axis and line up.
std::vector<double> drawn_ratios(const OperatorReport& report) {
    std::vector<double> out;
    const auto add = [&](const std::optional<double>& ratio, const std::optional<RatioCi>& ci) {
        if (ratio) out.push_back(*ratio);
        if (ci) out.insert(out.end(), {ci->low, ci->high});
    };
    add(report.summary.raw_ratio, report.summary.ratio_ci);
    if (!report.eval) return out;
    if (report.eval->between_runs) add(std::nullopt, report.eval->between_runs->within_run_ci);
    for (const WorkloadReading& w : report.eval->workloads) add(w.ratio, w.ratio_ci);
    return out;
}

void render_figures(std::ostream& out, const OperatorReport& report) {
    const OperatorSummary& row = report.summary;
    std::string credited = fixed(row.credited_ratio, 3);
    if (report.credit && row.ratio_ci) {
        if (const auto ci = credited_ratio_ci(*report.credit, *row.ratio_ci)) credited += " " + interval_text(ci);
    }
    const std::array<std::array<std::string, 3>, 6> figures{{
        {"raw ratio", "ratio", fixed(row.raw_ratio, 3)},
        {"95% interval", "ratio-ci", interval_text(row.ratio_ci)},
        {"credited ratio", "credited-ratio", credited},
        {"reference ms", "reference-ms", fixed(row.reference_ms, 4)},
        {"student ms", "student-ms", fixed(row.student_ms, 4)},
        {"workloads", "workloads", std::to_string(row.workloads)},
    }};
    out << "<dl class=\"figures\">";
    for (const auto& [term, css, value] : figures) {
        out << "<div><dt>" << term << "</dt><dd class=\"" << css << "\">" << value << "</dd></div>";
    }
    out << "</dl>";
}

std::string bandwidth_of(const Throughput& throughput) {
    return bandwidth(throughput.gbps, throughput.peak_dram_bandwidth_fraction);
}

void render_throughput(std::ostream& out, const OperatorSummary& row) {
    if (!row.reference_throughput.declared() && !row.student_throughput.declared()) return;
    out << "<h3>Throughput (geometric mean over the workloads)</h3><div class=\"table-wrap\"><table "
           "class=\"throughput\"><thead><tr><th>side</th><th class=\"num\">GFLOP/s</th><th "
           "class=\"num\">GB/s</th></tr></thead><tbody>";
    for (const auto& [side, figures] :
         {std::pair{"reference", &row.reference_throughput}, std::pair{"student", &row.student_throughput}}) {
        out << "<tr class=\"" << side << "\"" << number_attribute("data-gflops", figures->gflops)
            << number_attribute("data-gbps", figures->gbps) << "><td>" << side << "</td><td class=\"num gflops\">"
            << rate(figures->gflops) << "</td><td class=\"num gbps\">" << bandwidth_of(*figures) << "</td></tr>";
    }
    out << "</tbody></table></div>";
}

// The run's interval from its own rounds beside the one widened by the spread
// between it and the bench's kept earlier runs: what eval.json keeps of them.
void render_between_runs(std::ostream& out, const OperatorReport& report, const html::RatioAxis& axis, Mark mark) {
    if (!report.eval || !report.eval->between_runs) return;
    const BetweenRuns& between = *report.eval->between_runs;
    const std::string runs = between.runs ? std::to_string(*between.runs) : "?";
    out << "<section class=\"between-runs\"" << (between.runs ? text_attribute("data-runs", runs) : "")
        << number_attribute("data-log-sd", between.log_sd);
    if (between.within_run_ci) {
        out << number_attribute("data-within-run-low", between.within_run_ci->low)
            << number_attribute("data-within-run-high", between.within_run_ci->high);
    }
    out << "><h3>Between runs</h3>";
    const std::vector<html::ChartRow> rows{
        {"this run's rounds", report.summary.raw_ratio, between.within_run_ci, Mark::unknown},
        {"with " + runs + " runs' spread", report.summary.raw_ratio, report.summary.ratio_ci, mark}};
    out << html::ratio_chart(
        axis, rows, {.width = 560.0, .label_width = 150.0, .row_height = 24.0},
        "the raw ratio's interval from this run's rounds alone, and with the spread between " + runs + " runs");
    out << "<p class=\"between-runs-text\">" << runs
        << " runs of this bench build on this machine, this one included; the log-ratio's standard deviation "
           "between them is "
        << fixed(between.log_sd, 4) << ". The interval from this run's rounds alone is "
        << interval_text(between.within_run_ci) << "; with the spread between runs it is "
        << interval_text(report.summary.ratio_ci) << ".";
    if (between.reaches_earlier_runs.value_or(false)) out << " It was widened to reach every kept run's ratio.";
    if (report.eval->busier_machine.value_or(false)) out << " This run read the machine busier than the earlier ones.";
    out << " Each kept run's own ratio is drawn below where the run history beside eval.json holds it.</p></section>";
}

// A kept run's verdict, as its interval reads against 1.
Mark kept_run_mark(const stats::RatioInterval& run) {
    if (run.low > 1.0) return Mark::faster;
    if (run.high < 1.0) return Mark::slower;
    return Mark::indistinguishable;
}

// Each run the bench kept beside eval.json (its run history), in run order,
// this one last and marked: its ratio with the interval from its own rounds.
void render_run_history(std::ostream& out, const OperatorReport& report, Mark mark) {
    if (!report.history) return;
    const RunHistory& history = *report.history;
    out << "<section class=\"run-history\"" << text_attribute("data-file", history.path) << " data-runs=\""
        << history.runs.size() << "\"><h3>Runs kept beside the eval</h3>";
    if (history.runs.empty()) {
        out << "<p>" << escape(history.path) << " holds " << history.histories << " bench histor"
            << (history.histories == 1 ? "y" : "ies")
            << ", none ending in this run's ratio: other builds of the bench or other machines wrote them, or this "
               "run joined none (a failed run does not).</p>"
               "</section>";
        return;
    }
    std::vector<stats::RatioInterval> runs;
    for (const stats::RunEstimate& run : history.runs) runs.push_back(stats::interval_of(run));
    if (runs.size() == 1) {
        out << "<p>The first run kept: no earlier runs of this bench build on this machine yet.</p></section>";
        return;
    }
    std::vector<double> drawn;
    std::vector<html::ChartRow> rows;
    for (std::size_t i = 0; i < runs.size(); ++i) {
        const bool current = i + 1 == runs.size();
        drawn.insert(drawn.end(), {runs[i].ratio, runs[i].low, runs[i].high});
        rows.push_back({current ? std::string("this run") : std::string("run ") + std::to_string(i + 1), runs[i].ratio,
                        RatioCi{runs[i].low, runs[i].high}, current ? mark : kept_run_mark(runs[i])});
    }
    out << html::ratio_chart(html::RatioAxis(drawn), rows,
                             {.width = 420.0, .label_width = 80.0, .row_height = 16.0, .tick_labels = true},
                             std::string("the raw ratio of each of the ") + std::to_string(runs.size()) +
                                 " runs kept, oldest first, this run last, each with the 95% interval of its rounds");
    out << "<details><summary>the " << runs.size() << " runs' ratios (" << escape(history.path)
        << ")</summary><table class=\"kept-runs\"><thead><tr><th class=\"num\">run</th><th class=\"num\">ratio</th>"
           "<th class=\"num\">95% interval</th></tr></thead><tbody>";
    for (std::size_t i = 0; i < runs.size(); ++i) {
        const bool current = i + 1 == runs.size();
        out << "<tr class=\"kept-run\" data-run=\"" << i + 1 << "\" data-current=\"" << (current ? "true" : "false")
            << "\"" << number_attribute("data-ratio", runs[i].ratio) << number_attribute("data-ratio-low", runs[i].low)
            << number_attribute("data-ratio-high", runs[i].high) << "><td class=\"num\">" << i + 1
            << (current ? " (this run)" : "") << "</td><td class=\"num ratio\">" << fixed(runs[i].ratio, 3)
            << "</td><td class=\"num\">" << interval(runs[i].low, runs[i].high) << "</td></tr>";
    }
    out << "</tbody></table></details></section>";
}

// "150.0 / 120.0": both sides' rates in one cell, reference first, so the table fits a page's width.
std::string both_sides(const std::string& reference, const std::string& student) { return reference + " / " + student; }

void render_workloads(std::ostream& out, const EvalReport& eval, const html::RatioAxis& axis) {
    if (eval.workloads.empty()) return;
    bool flops = false;
    bool bytes = false;
    for (const WorkloadReading& w : eval.workloads) {
        for (const SideReading* side : {&w.reference, &w.student}) {
            flops = flops || side->throughput.gflops.has_value();
            bytes = bytes || side->throughput.gbps.has_value();
        }
    }
    out << "<h3>Workloads</h3><div class=\"table-wrap\"><table class=\"workloads\"><thead><tr><th>workload</th>"
           "<th class=\"num\">reference ms</th><th class=\"num\">student ms</th><th class=\"num\">ratio</th>"
           "<th class=\"num\">95% interval</th><th>against 1</th><th>verdict</th>";
    if (flops) out << "<th class=\"num\">GFLOP/s<br>reference / student</th>";
    if (bytes) out << "<th class=\"num\">GB/s<br>reference / student</th>";
    out << "</tr></thead><tbody>";
    for (const WorkloadReading& w : eval.workloads) {
        const Mark mark = html::mark_of(w.verdict);
        out << "<tr class=\"workload\"" << text_attribute("data-name", w.name)
            << number_attribute("data-ratio", w.ratio) << interval_attributes(w.ratio_ci)
            << (w.verdict ? text_attribute("data-verdict", *w.verdict) : "")
            << number_attribute("data-reference-ms", w.reference.ms)
            << number_attribute("data-student-ms", w.student.ms) << "><td class=\"name\">" << escape(w.name)
            << "</td><td class=\"num reference-ms\">" << fixed(w.reference.ms, 4)
            << "</td><td class=\"num student-ms\">" << fixed(w.student.ms, 4) << "</td><td class=\"num ratio\">"
            << fixed(w.ratio, 3) << "</td><td class=\"num ratio-ci\">" << interval_text(w.ratio_ci)
            << "</td><td class=\"chart\">"
            << html::ratio_chart(axis, {{w.name, w.ratio, w.ratio_ci, mark}},
                                 {.width = 180.0, .label_width = 0.0, .row_height = 18.0, .tick_labels = false},
                                 w.name + ": ratio " + fixed(w.ratio, 3) + " " + interval_text(w.ratio_ci) + ", " +
                                     std::string(html::mark_name(mark)))
            << "</td><td>" << verdict_badge(mark) << "</td>";
        if (flops) {
            out << "<td class=\"num gflops\">"
                << both_sides(rate(w.reference.throughput.gflops), rate(w.student.throughput.gflops)) << "</td>";
        }
        if (bytes) {
            out << "<td class=\"num gbps\">"
                << both_sides(bandwidth_of(w.reference.throughput), bandwidth_of(w.student.throughput)) << "</td>";
        }
        out << "</tr>";
    }
    out << "</tbody></table></div>";
}

// What `forge credit` prices, per workload: each side's priced share of its
// kernel (HOST: region) time, the rows the regexes matched, and the credited
// ratio, or why the credit is not usable.
void render_credit(std::ostream& out, const OperatorReport& report) {
    if (!report.credit || !report.eval) return;
    const RunCredit& run = *report.credit;
    const bool priced = std::any_of(run.workloads.begin(), run.workloads.end(),
                                    [](const WorkloadCredit& w) { return w.credit.has_value(); });
    if (!priced) return;
    const auto matched = [](const SideCredit& side) {
        std::string names;
        for (const std::string& name : side.matched) names += (names.empty() ? "" : ", ") + name;
        return names.empty() ? std::string("-") : escape(names);
    };
    out << "<h3>Credit: the contract's priced work</h3><div class=\"table-wrap\"><table class=\"credit\"><thead><tr>"
           "<th>workload</th><th class=\"num\">credited ratio</th><th class=\"num\">reference priced</th>"
           "<th>reference rows priced</th><th class=\"num\">student priced</th><th>student rows priced</th>"
           "</tr></thead><tbody>";
    for (const WorkloadCredit& w : run.workloads) {
        out << "<tr class=\"workload-credit\"" << text_attribute("data-name", w.name);
        if (w.ratio) out << number_attribute("data-credited-ratio", w.ratio->credited_ratio);
        out << "><td>" << escape(w.name) << "</td>";
        if (!w.credit) {
            out << "<td class=\"num\">-</td><td class=\"num\">-</td><td>-</td><td class=\"num\">-</td><td>-</td></tr>";
            continue;
        }
        std::string credited = w.ratio ? fixed(w.ratio->credited_ratio, 3) : "-";
        if (!w.credit->usable) {
            std::string codes;
            for (const CreditReason& reason : w.credit->why) {
                if (codes.find(reason.code) == std::string::npos) codes += (codes.empty() ? "" : ", ") + reason.code;
            }
            credited = "not usable (" + escape(codes) + ")";
        }
        out << "<td class=\"num credited-ratio\">" << credited << "</td><td class=\"num\">"
            << percent(w.credit->reference.fraction) << "</td><td>" << matched(w.credit->reference)
            << "</td><td class=\"num\">" << percent(w.credit->student.fraction) << "</td><td>"
            << matched(w.credit->student) << "</td></tr>";
    }
    out << "</tbody></table></div>";
}

void render_card(std::ostream& out, const OperatorReport& report, std::size_t index,
                 std::optional<double> noise_floor) {
    const OperatorSummary& row = report.summary;
    const Mark mark = html::mark_of(row.verdict);
    out << "<article class=\"card " << html::mark_class(mark) << "\" id=\"operator-" << index << "\""
        << text_attribute("data-operator", row.name) << text_attribute("data-eval", row.eval_path)
        << (row.verdict ? text_attribute("data-verdict", *row.verdict) : "")
        << number_attribute("data-ratio", row.raw_ratio) << interval_attributes(row.ratio_ci)
        << number_attribute("data-reference-ms", row.reference_ms)
        << number_attribute("data-student-ms", row.student_ms)
        << number_attribute("data-credited-ratio", row.credited_ratio) << ">";

    out << "<div class=\"card-title\"><h2>" << escape(row.name) << "</h2>";
    if (row.ran) {
        out << verdict_badge(mark);
    } else {
        out << "<span class=\"verdict unknown\">" << html::mark_icon(Mark::unknown)
            << (row.skipped ? "skipped" : "not run") << "</span>";
    }
    if (row.precision_reached == false) out << "<span class=\"tag\">imprecise</span>";
    if (row.quick) out << "<span class=\"tag\">quick run</span>";
    if (row.a_a) {
        out << "<span class=\"tag a-a\"" << number_attribute("data-resolves", row.a_a->resolves) << ">A/A "
            << escape(row.a_a->side) << ", resolves &plusmn;" << percent(row.a_a->resolves) << "</span>";
    }
    if (noise_floor) {
        out << "<span class=\"tag noise-floor\"" << number_attribute("data-noise-floor", noise_floor)
            << ">noise floor &plusmn;" << percent(*noise_floor) << "</span>";
    }
    if (row.correctness == "FAILED") out << "<span class=\"tag bad\">outputs FAILED</span>";
    out << "</div>";
    out << "<p class=\"meta\">backend " << escape(row.backend.empty() ? "-" : row.backend) << " · prep "
        << escape(row.prep) << " · correctness " << escape(row.correctness) << " · <code>" << escape(row.eval_path)
        << "</code></p>";

    if (row.ran) {
        const html::RatioAxis axis(drawn_ratios(report));
        out << "<div class=\"headline\">";
        render_figures(out, report);
        out << html::ratio_chart(axis, {{"run", row.raw_ratio, row.ratio_ci, mark}}, {.width = 560.0},
                                 row.name + ": raw ratio " + fixed(row.raw_ratio, 3) + " " +
                                     interval_text(row.ratio_ci) + ", " + std::string(html::mark_name(mark)));
        out << "</div>";
        render_throughput(out, row);
        render_between_runs(out, report, axis, mark);
        render_run_history(out, report, mark);
        render_workloads(out, *report.eval, axis);
        render_credit(out, report);
    }
    if (!row.notes.empty()) {
        out << "<ul class=\"notes\">";
        for (const std::string& note : row.notes) out << "<li>" << escape(note) << "</li>";
        out << "</ul>";
    }
    if (report.eval && !report.eval->notices.empty()) {
        out << "<details class=\"notices\"><summary>the bench's notices (" << report.eval->notices.size()
            << ")</summary><ul>";
        for (const std::string& notice : report.eval->notices) out << "<li>" << escape(notice) << "</li>";
        out << "</ul></details>";
    }
    out << "</article>\n";
}

void render_header(std::ostream& out, const std::vector<OperatorReport>& reports) {
    std::array<std::size_t, 4> counts{};  // by Mark
    for (const OperatorReport& report : reports)
        ++counts[static_cast<std::size_t>(html::mark_of(report.summary.verdict))];
    out << "<header class=\"page-header\"><h1>forge report</h1><p>" << reports.size() << " operator"
        << (reports.size() == 1 ? "" : "s") << ": ";
    for (const Mark mark : {Mark::faster, Mark::slower, Mark::indistinguishable, Mark::unknown}) {
        out << (mark == Mark::faster ? "" : ", ") << counts[static_cast<std::size_t>(mark)] << " "
            << html::mark_name(mark);
    }
    out << ".</p><ul class=\"legend\">";
    constexpr std::array<std::pair<Mark, std::string_view>, 4> meanings{{
        {Mark::faster, "faster: the interval is above 1"},
        {Mark::slower, "slower: the interval is below 1"},
        {Mark::indistinguishable, "indistinguishable: the interval holds 1"},
        {Mark::unknown, "no verdict (an older eval, a skipped or absent bench)"},
    }};
    for (const auto& [mark, meaning] : meanings) out << "<li>" << html::mark_icon(mark) << meaning << "</li>";
    out << "</ul><p>Each chart draws the raw ratio, reference / student from paired rounds, on a log axis, with its "
           "95% interval as a bar; the dashed line is 1, parity. The credited ratio takes the contract's priced work "
           "out of both sides: a diagnostic, never the verdict.</p></header>\n";
}

}  // namespace

void render_report_html(std::ostream& out, const std::vector<OperatorReport>& reports,
                        const ReportComparison& change_since) {
    out << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
           "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
           "<title>forge report: "
        << reports.size() << " operator" << (reports.size() == 1 ? "" : "s") << "</title>\n<style>" << page_style
        << "</style>\n</head>\n<body>\n";
    render_header(out, reports);
    out << "<main>\n";
    if (change_since.comparison) {
        render_comparison_section(out, *change_since.comparison, "Change since " + change_since.old_run);
    }
    std::vector<OperatorSummary> rows;
    rows.reserve(reports.size());
    for (const OperatorReport& report : reports) rows.push_back(report.summary);
    for (std::size_t i = 0; i < reports.size(); ++i) render_card(out, reports[i], i, noise_floor_for(rows[i], rows));
    out << "</main>\n<footer class=\"page-footer\"><p>Written by <code>forge report --format html</code> from the "
           "eval.json files named on each card.</p></footer>\n</body>\n</html>\n";
}

}  // namespace forge
