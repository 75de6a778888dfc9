#include <iostream>

#include "forge/exit_code.hpp"
#include "forge/report/html_page.hpp"
#include "forge/report/summary.hpp"
#include "commands.hpp"

namespace forge::cli {

int run_report(const ReportOptions& options) {
    std::vector<OperatorReport> reports;
    reports.reserve(options.evals.size());
    for (const std::string& eval : options.evals) reports.push_back(read_operator(eval));
    std::vector<OperatorSummary> rows;
    rows.reserve(reports.size());
    for (const OperatorReport& report : reports) rows.push_back(report.summary);
    switch (options.output.format) {
        case Format::json: std::cout << summary_json(rows).dump(2) << '\n'; break;
        case Format::markdown: render_summary_markdown(std::cout, rows); break;
        case Format::text: render_summary_text(std::cout, rows, options.output.colour); break;
        case Format::html: render_report_html(std::cout, reports); break;
    }
    return exit_code::ok;
}

}  // namespace forge::cli
