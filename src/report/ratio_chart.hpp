// Ratios against parity as inline SVG, for the HTML report: a log axis (a ratio
// of 2 sits as far above 1 as 0.5 below it), the line at 1, each interval as a
// bar and each estimate as a mark whose shape says its verdict, so that no
// reading depends on colour alone. Internal to src/report.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "forge/eval/eval.hpp"

namespace forge::html {

// A verdict as the page marks it: a shape and an Okabe-Ito colour, told apart
// by readers with any of the common colour-vision deficiencies, and a word.
enum class Mark { faster, slower, indistinguishable, unknown };

[[nodiscard]] Mark mark_of(const std::optional<std::string>& verdict) noexcept;
[[nodiscard]] std::string_view mark_name(Mark mark) noexcept;   // the verdict word; "no verdict"
[[nodiscard]] std::string_view mark_class(Mark mark) noexcept;  // CSS: "faster", ..., "unknown"
[[nodiscard]] std::string_view mark_colour(Mark mark) noexcept;
// The mark's shape centred at (x, y), `size` across: faster a triangle up,
// slower a triangle down, indistinguishable a circle, no verdict a diamond.
[[nodiscard]] std::string mark_shape(Mark mark, double x, double y, double size);
// The shape alone in a small SVG, to stand beside the verdict's word.
[[nodiscard]] std::string mark_icon(Mark mark);

// A log axis over the ratios one card shows, and 1, with a margin.
class RatioAxis {
public:
    explicit RatioAxis(const std::vector<double>& ratios);

    // 0 at the axis's low end, 1 at its high end (clamped).
    [[nodiscard]] double position(double ratio) const noexcept;
    // Round ratios inside the axis, 1 among them, no two closer than
    // `min_gap` of its length.
    [[nodiscard]] std::vector<double> ticks(double min_gap) const;

private:
    double log_low_ = 0.0;
    double log_high_ = 0.0;
};

// One estimate on the chart: its point, its interval and its verdict.
struct ChartRow {
    std::string label;  // shown left of the axis where the chart has a label column
    std::optional<double> ratio;
    std::optional<RatioCi> interval;
    Mark mark = Mark::unknown;
};

struct ChartLayout {
    double width = 560.0;      // the whole SVG's, in CSS pixels
    double label_width = 0.0;  // 0: no label column
    double row_height = 26.0;
    bool tick_labels = true;  // false: a compact chart for a table cell
};

// The rows stacked over one axis, with the line at 1; `title` is the chart's
// accessible name (escaped here).
[[nodiscard]] std::string ratio_chart(const RatioAxis& axis, const std::vector<ChartRow>& rows,
                                      const ChartLayout& layout, std::string_view title);

}  // namespace forge::html
