// `forge report --format html`: one self-contained page over many operators'
// eval.json files, a card per operator: the raw ratio with its interval drawn
// against 1, the verdict (shape, word and colour), each workload's ratio, times
// and throughput, the credit where the contract prices work, and the spread
// between runs where the bench keeps a history. Inline CSS and SVG only: no
// script, nothing fetched when the page is viewed. Every figure comes from the
// eval (and the credit priced off it); all text from files is escaped.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

#include "forge/report/comparison.hpp"
#include "forge/report/summary.hpp"

namespace forge {

// Each card carries its figures in data- attributes too (data-ratio,
// data-ratio-low, data-ratio-high, data-verdict, data-reference-ms,
// data-student-ms, data-credited-ratio; per workload row the same and
// data-name), written so that they read back as the eval's numbers exactly.
//
// With a comparison (forge report --compare-with OLD), the page opens with a
// "Change since OLD" section: render_comparison_section, forge compare's page
// body, drawn by the same code.
struct ReportComparison {
    const Comparison* comparison = nullptr;  // none: no section
    std::string old_run;                     // OLD as given, for the heading
};
void render_report_html(std::ostream& out, const std::vector<OperatorReport>& reports,
                        const ReportComparison& change_since = {});

}  // namespace forge
