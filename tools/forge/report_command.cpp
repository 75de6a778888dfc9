#include <iostream>
#include <optional>

#include "forge/exit_code.hpp"
#include "forge/report/comparison.hpp"
#include "forge/report/html_page.hpp"
#include "forge/report/summary.hpp"
#include "commands.hpp"

namespace forge::cli {

namespace {

// The report's cards since OLD: its evals that exist, compared as `forge
// compare OLD NEW` compares them.
Comparison change_since(const std::string& old_run, const std::vector<OperatorReport>& reports) {
    std::vector<EvalReport> now;
    for (const OperatorReport& report : reports) {
        if (report.eval) now.push_back(*report.eval);
    }
    return compare_runs(load_run(old_run), now);
}

}  // namespace

int run_report(const ReportOptions& options) {
    std::vector<OperatorReport> reports;
    reports.reserve(options.evals.size());
    for (const std::string& eval : options.evals) reports.push_back(read_operator(eval));
    std::vector<OperatorSummary> rows;
    rows.reserve(reports.size());
    for (const OperatorReport& report : reports) rows.push_back(report.summary);
    const std::optional<Comparison> comparison =
        options.compare_with ? std::optional(change_since(*options.compare_with, reports)) : std::nullopt;
    switch (options.output.format) {
        case Format::json: {
            nlohmann::json json = summary_json(rows);
            if (comparison) {
                json["comparison"] = comparison_json(*comparison);
                json["comparison"]["old_run"] = *options.compare_with;
            }
            std::cout << json.dump(2) << '\n';
            break;
        }
        case Format::markdown:
            render_summary_markdown(std::cout, rows);
            if (comparison) {
                std::cout << "\n## Change since " << *options.compare_with << "\n\n";
                render_comparison_markdown(std::cout, *comparison);
            }
            break;
        case Format::text:
            render_summary_text(std::cout, rows, options.output.colour);
            if (comparison) {
                std::cout << "\nChange since " << *options.compare_with << ":\n";
                render_comparison_text(std::cout, *comparison, options.output.colour);
            }
            break;
        case Format::html:
            render_report_html(std::cout, reports,
                               comparison ? ReportComparison{&*comparison, *options.compare_with} : ReportComparison{});
            break;
    }
    // The comparison is information here, never a gate: `forge compare` is the gate.
    return exit_code::ok;
}

}  // namespace forge::cli
