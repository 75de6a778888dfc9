// The stylesheet of the HTML pages (forge report's, forge compare's). Internal
// to src/report.
#pragma once

#include <string_view>

namespace forge::html {

// Inline, so the page shows the same wherever it is opened, offline included.
// Colours: the Okabe-Ito hues of ratio_chart.cpp, as the cards' edge and badge
// border; text stays dark on light tints, readable whatever the hue. A card
// off screen is laid out as it nears the viewport (content-visibility: auto;
// all of them for print): a page of 200 cards then lays out in about a third
// of the time (docs/lab/README.md).
inline constexpr std::string_view page_style = R"css(
:root { --faster: #0072B2; --slower: #D55E00; --indistinguishable: #000000; --unknown: #999999; }
* { box-sizing: border-box; }
body { margin: 0; background: #f5f5f3; color: #1a1a1a;
  font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; }
.page-header, main, .page-footer { max-width: 1180px; margin: 0 auto; padding: 0 20px; }
.page-header h1 { font-size: 22px; margin: 18px 0 4px; }
.page-header p { margin: 4px 0; }
.legend { display: flex; flex-wrap: wrap; gap: 6px 18px; padding: 0; margin: 8px 0; list-style: none; }
.legend li { display: inline-flex; align-items: center; gap: 5px; }
.card { --mark: var(--unknown); --tint: #f2f2f2; background: #ffffff; border: 1px solid #d4d4d4;
  border-left: 8px solid var(--mark); border-radius: 6px; margin: 14px 0; padding: 12px 16px;
  content-visibility: auto; contain-intrinsic-size: auto 640px; }
@media print { .card { content-visibility: visible; } }
.card.faster, .verdict.faster { --mark: var(--faster); --tint: #e3f0f8; }
.card.slower, .verdict.slower { --mark: var(--slower); --tint: #fbe8dc; }
.card.indistinguishable, .verdict.indistinguishable { --mark: var(--indistinguishable); --tint: #ececec; }
.verdict.unknown { --mark: var(--unknown); --tint: #f2f2f2; }
.card-title { display: flex; flex-wrap: wrap; align-items: center; gap: 6px 10px; }
.card h2 { font-size: 18px; margin: 0; overflow-wrap: anywhere; }
.verdict { display: inline-flex; align-items: center; gap: 5px; padding: 1px 9px; border: 2px solid var(--mark);
  border-radius: 12px; background: var(--tint); font-weight: 600; }
.tag { border: 1px solid #8a8a8a; border-radius: 4px; padding: 0 6px; font-size: 12px; }
.tag.bad { border: 2px solid #D55E00; font-weight: 600; }
.meta { color: #4a4a4a; margin: 4px 0 8px; overflow-wrap: anywhere; }
.headline { display: flex; flex-wrap: wrap; align-items: center; gap: 10px 28px; }
.figures { display: grid; grid-template-columns: repeat(3, minmax(96px, auto)); gap: 4px 18px; margin: 0; }
.figures dt { font-size: 12px; color: #4a4a4a; }
.figures dd { margin: 0; font-weight: 600; font-variant-numeric: tabular-nums; white-space: nowrap; }
h3 { font-size: 14px; margin: 12px 0 4px; }
.table-wrap { overflow-x: auto; }
table { border-collapse: collapse; font-variant-numeric: tabular-nums; }
th, td { padding: 3px 8px; border-bottom: 1px solid #e2e2e2; text-align: left; white-space: nowrap; vertical-align: middle; }
th { font-size: 12px; color: #3a3a3a; font-weight: 600; vertical-align: bottom; white-space: normal; }
td .verdict { font-size: 12px; padding: 0 7px; }
td .machine-note { white-space: normal; min-width: 24em; max-width: 40em; margin: 2px 0; font-size: 13px; }
th.num, td.num { text-align: right; }
tr.workload-change td { font-size: 13px; color: #333333; }
tr.workload-change td.workload-name { padding-left: 26px; }
.comparison > h2 { font-size: 18px; margin: 22px 0 4px; }
td.chart { padding: 0 6px; line-height: 0; }
svg text { font: 11px system-ui, -apple-system, "Segoe UI", Roboto, Arial, sans-serif; fill: #333333; }
svg .parity-label { font-weight: 600; }
.icon { flex: none; }
.notes { margin: 8px 0 0; padding-left: 20px; }
.notes li { margin: 2px 0; overflow-wrap: anywhere; }
details { margin-top: 6px; }
details li { overflow-wrap: anywhere; }
.page-footer { color: #555555; padding-bottom: 24px; }
)css";

}  // namespace forge::html
