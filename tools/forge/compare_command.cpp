#include <iostream>

#include "forge/exit_code.hpp"
#include "forge/report/comparison.hpp"
#include "commands.hpp"

namespace forge::cli {

int run_compare(const CompareOptions& options) {
    const Comparison comparison = compare_runs(load_run(options.old_run), load_run(options.new_run), options.threshold);
    switch (options.output.format) {
        case Format::json: std::cout << comparison_json(comparison).dump(2) << '\n'; break;
        case Format::markdown: render_comparison_markdown(std::cout, comparison); break;
        case Format::text: render_comparison_text(std::cout, comparison, options.output.colour); break;
        case Format::html: render_comparison_html(std::cout, comparison); break;
    }
    if (comparison.regressions() > 0) return exit_code::problems;
    // Nothing compared (no card on both sides with an interval in each): no
    // evidence either way, which a CI gate reads as a skip, not a pass.
    if (!comparison.any_compared()) return exit_code::skipped;
    return exit_code::ok;
}

}  // namespace forge::cli
