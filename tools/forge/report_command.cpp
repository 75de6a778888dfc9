#include <iostream>

#include "commands.hpp"
#include "forge/exit_code.hpp"
#include "forge/report/summary.hpp"

namespace forge::cli {

int run_report(const ReportOptions& options) {
    std::vector<OperatorSummary> rows;
    rows.reserve(options.evals.size());
    for (const std::string& eval : options.evals) rows.push_back(summarize_eval(eval));
    switch (options.output.format) {
        case Format::json: std::cout << summary_json(rows).dump(2) << '\n'; break;
        case Format::markdown: render_summary_markdown(std::cout, rows); break;
        case Format::text: render_summary_text(std::cout, rows, options.output.colour); break;
    }
    return exit_code::ok;
}

}  // namespace forge::cli
