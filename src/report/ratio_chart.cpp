#include "ratio_chart.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <initializer_list>
#include <utility>

#include "html_text.hpp"

namespace forge::html {

namespace {

// Okabe & Ito's palette: blue and vermillion differ in hue and lightness for
// every common colour-vision deficiency; black stands for "no difference".
constexpr std::string_view blue = "#0072B2";
constexpr std::string_view vermillion = "#D55E00";
constexpr std::string_view black = "#000000";
constexpr std::string_view grey = "#999999";

// The narrowest axis a card gets, as ratios: an interval of a few percent keeps
// its true size beside 1 instead of filling the chart.
constexpr double narrowest_low = 0.8;
constexpr double narrowest_high = 1.25;
// Margin past the outermost value, as a share of the axis.
constexpr double margin = 0.08;

// Round ratios, the roundest first: the axis keeps the first that fit.
constexpr double tick_candidates[] = {1.0, 2.0, 0.5,  10.0, 0.1,  5.0,  0.2,  100.0, 0.01, 1.5, 0.75, 1.25, 0.8,
                                      3.0, 4.0, 0.25, 20.0, 0.05, 50.0, 0.02, 1.1,   0.9,  1.2, 1.05, 0.95};

std::string coordinate(double value) {
    char text[32];
    std::snprintf(text, sizeof text, "%.1f", value);
    return text;
}

std::string tick_label(double ratio) {
    char text[32];
    std::snprintf(text, sizeof text, "%g", ratio);
    return text;
}

}  // namespace

Mark mark_of(const std::optional<std::string>& verdict) noexcept {
    if (!verdict) return Mark::unknown;
    if (*verdict == verdict_faster) return Mark::faster;
    if (*verdict == verdict_slower) return Mark::slower;
    if (*verdict == verdict_indistinguishable) return Mark::indistinguishable;
    return Mark::unknown;
}

std::string_view mark_name(Mark mark) noexcept {
    switch (mark) {
        case Mark::faster: return verdict_faster;
        case Mark::slower: return verdict_slower;
        case Mark::indistinguishable: return verdict_indistinguishable;
        case Mark::unknown: break;
    }
    return "no verdict";
}

std::string_view mark_class(Mark mark) noexcept { return mark == Mark::unknown ? "unknown" : mark_name(mark); }

std::string_view mark_colour(Mark mark) noexcept {
    switch (mark) {
        case Mark::faster: return blue;
        case Mark::slower: return vermillion;
        case Mark::indistinguishable: return black;
        case Mark::unknown: break;
    }
    return grey;
}

std::string mark_shape(Mark mark, double x, double y, double size) {
    const double r = size / 2.0;
    const std::string style = " fill=\"" + std::string(mark_colour(mark)) + "\" stroke=\"#ffffff\" stroke-width=\"1\"";
    const auto polygon = [&](std::initializer_list<std::pair<double, double>> points) {
        std::string list;
        // Appended piece by piece: GCC 12's -Wrestrict misreads `"" + std::string&&` at -O3.
        for (const auto& [px, py] : points) {
            if (!list.empty()) list += ' ';
            list += coordinate(px);
            list += ',';
            list += coordinate(py);
        }
        return "<polygon class=\"mark\" points=\"" + list + "\"" + style + "/>";
    };
    switch (mark) {
        case Mark::faster: return polygon({{x, y - r}, {x + r, y + r * 0.8}, {x - r, y + r * 0.8}});
        case Mark::slower: return polygon({{x, y + r}, {x + r, y - r * 0.8}, {x - r, y - r * 0.8}});
        case Mark::indistinguishable:
            return "<circle class=\"mark\" cx=\"" + coordinate(x) + "\" cy=\"" + coordinate(y) + "\" r=\"" +
                   coordinate(r * 0.85) + "\"" + style + "/>";
        case Mark::unknown: break;
    }
    return polygon({{x, y - r}, {x + r, y}, {x, y + r}, {x - r, y}});
}

std::string mark_icon(Mark mark) {
    return "<svg class=\"icon\" width=\"14\" height=\"14\" viewBox=\"0 0 14 14\" aria-hidden=\"true\">" +
           mark_shape(mark, 7.0, 7.0, 13.0) + "</svg>";
}

RatioAxis::RatioAxis(const std::vector<double>& ratios) {
    double low = 0.0;  // log 1: the axis always holds parity
    double high = 0.0;
    for (const double ratio : ratios) {
        if (!(ratio > 0.0) || !std::isfinite(ratio)) continue;
        low = std::min(low, std::log(ratio));
        high = std::max(high, std::log(ratio));
    }
    const double narrowest = std::log(narrowest_high) - std::log(narrowest_low);
    if (high - low < narrowest) {
        const double centre = (low + high) / 2.0;
        low = centre - narrowest / 2.0;
        high = centre + narrowest / 2.0;
    }
    const double pad = (high - low) * margin;
    log_low_ = low - pad;
    log_high_ = high + pad;
}

double RatioAxis::position(double ratio) const noexcept {
    if (!(ratio > 0.0)) return 0.0;
    return std::clamp((std::log(ratio) - log_low_) / (log_high_ - log_low_), 0.0, 1.0);
}

std::vector<double> RatioAxis::ticks(double min_gap) const {
    std::vector<double> kept;
    for (const double candidate : tick_candidates) {
        const double at = (std::log(candidate) - log_low_) / (log_high_ - log_low_);
        if (at < 0.0 || at > 1.0) continue;
        const bool clear = std::all_of(kept.begin(), kept.end(),
                                       [&](double tick) { return std::fabs(position(tick) - at) >= min_gap; });
        if (clear) kept.push_back(candidate);
    }
    std::sort(kept.begin(), kept.end());
    return kept;
}

std::string ratio_chart(const RatioAxis& axis, const std::vector<ChartRow>& rows, const ChartLayout& layout,
                        std::string_view title) {
    // Room for the "1 = parity" label above the rows, and for tick labels centred on the ends.
    const double top = layout.tick_labels ? 16.0 : 2.0;
    const double left = layout.label_width + (layout.tick_labels ? 14.0 : 6.0);
    const double right = layout.width - (layout.tick_labels ? 16.0 : 6.0);
    const double axis_y = top + layout.row_height * static_cast<double>(rows.size());
    const double height = axis_y + (layout.tick_labels ? 20.0 : 2.0);
    const auto x = [&](double ratio) { return left + axis.position(ratio) * (right - left); };

    std::string svg = "<svg class=\"ratio-chart\" width=\"" + coordinate(layout.width) + "\" height=\"" +
                      coordinate(height) + "\" viewBox=\"0 0 " + coordinate(layout.width) + " " + coordinate(height) +
                      "\" role=\"img\" aria-label=\"" + escape(title) + "\"><title>" + escape(title) + "</title>";
    if (layout.tick_labels) {
        svg += "<line class=\"axis\" x1=\"" + coordinate(left) + "\" y1=\"" + coordinate(axis_y) + "\" x2=\"" +
               coordinate(right) + "\" y2=\"" + coordinate(axis_y) + "\" stroke=\"#555555\"/>";
        for (const double tick : axis.ticks(0.09)) {
            svg += "<line x1=\"" + coordinate(x(tick)) + "\" y1=\"" + coordinate(axis_y) + "\" x2=\"" +
                   coordinate(x(tick)) + "\" y2=\"" + coordinate(axis_y + 4.0) + "\" stroke=\"#555555\"/>";
            svg += "<text class=\"tick\" x=\"" + coordinate(x(tick)) + "\" y=\"" + coordinate(axis_y + 15.0) +
                   "\" text-anchor=\"middle\">" + tick_label(tick) + "</text>";
        }
        svg += "<text class=\"parity-label\" x=\"" + coordinate(x(1.0)) +
               "\" y=\"10\" text-anchor=\"middle\">1 = parity</text>";
    }
    svg += "<line class=\"parity\" x1=\"" + coordinate(x(1.0)) + "\" y1=\"" + coordinate(top) + "\" x2=\"" +
           coordinate(x(1.0)) + "\" y2=\"" + coordinate(axis_y) +
           "\" stroke=\"#333333\" stroke-width=\"1.5\" stroke-dasharray=\"4 3\"/>";

    for (std::size_t i = 0; i < rows.size(); ++i) {
        const ChartRow& row = rows[i];
        const double y = top + layout.row_height * (static_cast<double>(i) + 0.5);
        const std::string colour(mark_colour(row.mark));
        if (layout.label_width > 0.0) {
            svg +=
                "<text class=\"row-label\" x=\"0\" y=\"" + coordinate(y + 4.0) + "\">" + escape(row.label) + "</text>";
        }
        if (row.interval) {
            const double low = x(row.interval->low);
            const double high = x(row.interval->high);
            svg += "<rect class=\"interval\" x=\"" + coordinate(low) + "\" y=\"" + coordinate(y - 4.0) + "\" width=\"" +
                   coordinate(std::max(high - low, 1.5)) + "\" height=\"8\" fill=\"" + colour +
                   "\" fill-opacity=\"0.3\" stroke=\"" + colour + "\" stroke-width=\"1.5\"/>";
        }
        if (row.ratio) {
            svg += mark_shape(row.mark, x(*row.ratio), y, layout.tick_labels ? 14.0 : 11.0);
        } else {
            svg += "<text class=\"row-label\" x=\"" + coordinate(left) + "\" y=\"" + coordinate(y + 4.0) +
                   "\">no ratio</text>";
        }
    }
    return svg + "</svg>";
}

}  // namespace forge::html
