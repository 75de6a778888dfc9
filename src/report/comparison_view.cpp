// `forge compare`'s output: a table of the cards' changes for a terminal or a
// pull-request comment, the cards without a verdict beneath with why, and
// what the interval assumes; as JSON; and as a page, the changes drawn
// against 1 as forge report's page draws ratios.
#include <algorithm>
#include <array>
#include <ostream>
#include <vector>

#include "forge/report/comparison.hpp"
#include "forge/report/text_table.hpp"
#include "html_style.hpp"
#include "html_text.hpp"
#include "number_format.hpp"
#include "ratio_chart.hpp"

namespace forge {

namespace {

std::string_view status_name(CardStatus status) {
    switch (status) {
        case CardStatus::added: return "added";
        case CardStatus::removed: return "removed";
        case CardStatus::no_verdict: return "no verdict";
        case CardStatus::compared: break;
    }
    return "compared";
}

// A workload in one run alone, as its verdict cell reads.
std::string_view absent_word(CardStatus status, bool workload) {
    if (workload && status == CardStatus::added) return "only in NEW";
    if (workload && status == CardStatus::removed) return "only in OLD";
    return status_name(status);
}

std::string verdict_word(const std::optional<stats::RatioChange>& change, CardStatus status, double threshold,
                         bool workload = false) {
    if (!change) return std::string(absent_word(status, workload));
    std::string word(stats::to_string(change->verdict()));
    // A regression the threshold forgives is still shown as one, and said to be forgiven.
    if (change->verdict() == stats::Change::regressed && !change->regressed_below(threshold)) {
        word += " (within the threshold ";
        word += fixed(threshold, 3);
        word += ")";
    }
    return word;
}

Emphasis change_emphasis(const std::optional<stats::RatioChange>& change, double threshold) {
    if (!change) return Emphasis::none;
    if (change->regressed_below(threshold)) return Emphasis::bad;
    return change->verdict() == stats::Change::improved ? Emphasis::good : Emphasis::none;
}

std::optional<double> change_of(const std::optional<stats::RatioChange>& change) {
    return change ? std::optional(change->change) : std::nullopt;
}

std::string interval_of(const std::optional<stats::RatioChange>& change) {
    return change ? interval(change->low, change->high) : "-";
}

bool any_workloads(const Comparison& comparison) {
    return std::any_of(comparison.cards.begin(), comparison.cards.end(),
                       [](const CardComparison& card) { return !card.workloads.empty(); });
}

TextTable comparison_table(const Comparison& comparison) {
    TextTable table({{.header = "card", .align = Align::left, .max_width = 40},
                     {.header = "OLD ratio", .align = Align::right, .max_width = 0},
                     {.header = "NEW ratio", .align = Align::right, .max_width = 0},
                     {.header = "change", .align = Align::right, .max_width = 0},
                     {.header = "95% interval", .align = Align::left, .max_width = 0},
                     {.header = "verdict", .align = Align::left, .max_width = 0}});
    for (const CardComparison& card : comparison.cards) {
        table.add_row({card.name, fixed(card.old_ratio, 3), fixed(card.new_ratio, 3), fixed(change_of(card.change), 3),
                       interval_of(card.change), verdict_word(card.change, card.status, comparison.threshold)},
                      change_emphasis(card.change, comparison.threshold));
    }
    return table;
}

// Each workload of the cards in both runs, under its card.
TextTable workload_table(const Comparison& comparison) {
    TextTable table({{.header = "card", .align = Align::left, .max_width = 32},
                     {.header = "workload", .align = Align::left, .max_width = 32},
                     {.header = "OLD ratio", .align = Align::right, .max_width = 0},
                     {.header = "NEW ratio", .align = Align::right, .max_width = 0},
                     {.header = "change", .align = Align::right, .max_width = 0},
                     {.header = "95% interval", .align = Align::left, .max_width = 0},
                     {.header = "verdict", .align = Align::left, .max_width = 0}});
    for (const CardComparison& card : comparison.cards) {
        for (const WorkloadComparison& w : card.workloads) {
            table.add_row(
                {card.name, w.name, fixed(w.old_ratio, 3), fixed(w.new_ratio, 3), fixed(change_of(w.change), 3),
                 interval_of(w.change), verdict_word(w.change, w.status, comparison.threshold, true)},
                change_emphasis(w.change, comparison.threshold));
        }
    }
    return table;
}

// Each card without a change, and where its files are; each change between
// the runs' machines. Whether there was one.
bool render_card_notes(std::ostream& out, const Comparison& comparison, std::string_view bullet) {
    bool any = false;
    for (const CardComparison& card : comparison.cards) {
        any = any || card.status != CardStatus::compared || !card.machine_notes.empty();
        switch (card.status) {
            case CardStatus::compared: break;
            case CardStatus::no_verdict: out << bullet << card.name << ": " << card.note << '\n'; break;
            case CardStatus::added: out << bullet << card.name << ": only in NEW (" << card.new_eval << ")\n"; break;
            case CardStatus::removed: out << bullet << card.name << ": only in OLD (" << card.old_eval << ")\n"; break;
        }
        for (const std::string& note : card.machine_notes) out << bullet << card.name << ": " << note << '\n';
        for (const WorkloadComparison& w : card.workloads) {
            if (w.status != CardStatus::no_verdict) continue;
            any = true;
            out << bullet << card.name << " / " << w.name << ": " << w.note << '\n';
        }
    }
    return any;
}

void render_comparison_count(std::ostream& out, const Comparison& comparison) {
    std::size_t compared = 0;
    for (const CardComparison& card : comparison.cards) compared += card.change ? 1 : 0;
    out << compared << " of " << comparison.cards.size() << " card(s) compared, " << comparison.regressions()
        << " regressed";
    if (comparison.threshold != 1.0) out << " below the threshold " << fixed(comparison.threshold, 3);
    // Exit 77: a gate that read nothing has passed nothing.
    if (compared == 0) out << ": no card has a ratio interval in both runs, so there is nothing to judge";
    out << '\n';
}

constexpr std::string_view comparison_legend =
    "change: NEW raw ratio / OLD raw ratio (above 1: the student gained on its reference). Its 95% interval "
    "adds both runs' within-run variances and, for each run, the spread between runs of one bench (the larger "
    "of the evals' between_runs.log_sd and the floor); a verdict needs the interval wholly above 1 (improved) or "
    "below 1 (regressed). Each workload in both runs is judged alike from its own ratio and interval; the exit "
    "code reads the cards' verdicts alone.";

// A change's verdict as the page marks it: improved as faster, regressed as
// slower, unchanged as indistinguishable (the same shapes and colours).
html::Mark change_mark(const std::optional<stats::RatioChange>& change) {
    if (!change) return html::Mark::unknown;
    switch (change->verdict()) {
        case stats::Change::improved: return html::Mark::faster;
        case stats::Change::regressed: return html::Mark::slower;
        case stats::Change::unchanged: break;
    }
    return html::Mark::indistinguishable;
}

// data-verdict: the JSON output's words, and a card's (a workload's) status where it has no change.
std::string_view verdict_key(const std::optional<stats::RatioChange>& change, CardStatus status) {
    if (!change) return status_name(status);
    const stats::Change verdict = change->verdict();
    return verdict == stats::Change::unchanged ? "unchanged" : stats::to_string(verdict);
}

// The counts, the verdicts' marks and what the change and its interval are:
// the top of the compare page and of the report's "Change since" section.
void render_comparison_summary(std::ostream& out, const Comparison& comparison) {
    std::array<std::size_t, 4> counts{};  // by Mark
    for (const CardComparison& card : comparison.cards) ++counts[static_cast<std::size_t>(change_mark(card.change))];
    out << "<p class=\"comparison-count\">" << comparison.cards.size() << " card"
        << (comparison.cards.size() == 1 ? "" : "s") << ": " << counts[0] << " improved, " << counts[1]
        << " regressed, " << counts[2] << " unchanged, " << counts[3] << " without a verdict. ";
    render_comparison_count(out, comparison);
    out << "</p><ul class=\"legend\">";
    constexpr std::array<std::pair<html::Mark, std::string_view>, 4> meanings{{
        {html::Mark::faster, "improved: the change's interval is above 1"},
        {html::Mark::slower, "regressed: the change's interval is below 1"},
        {html::Mark::indistinguishable, "unchanged: the interval holds 1"},
        {html::Mark::unknown, "no verdict (a card in one run only, a skipped or failed bench, no interval)"},
    }};
    for (const auto& [mark, meaning] : meanings) out << "<li>" << html::mark_icon(mark) << meaning << "</li>";
    out << "</ul><p>" << html::escape(comparison_legend) << "</p>";
}

void render_comparison_chart(std::ostream& out, const Comparison& comparison) {
    std::vector<double> drawn;
    std::vector<html::ChartRow> rows;
    for (const CardComparison& card : comparison.cards) {
        if (!card.change) continue;
        drawn.insert(drawn.end(), {card.change->change, card.change->low, card.change->high});
        rows.push_back(
            {card.name, card.change->change, RatioCi{card.change->low, card.change->high}, change_mark(card.change)});
    }
    if (rows.empty()) return;
    out << "<section class=\"card\"><h2>NEW ratio / OLD ratio</h2>"
        << html::ratio_chart(html::RatioAxis(drawn), rows, {.width = 760.0, .label_width = 200.0},
                             "each card's change from the OLD run to the NEW one, with its 95% interval")
        << "</section>\n";
}

// One row of the table: a card's change, or one of its workloads' beneath it.
struct ChangeRow {
    std::string_view css;   // "card-change", "workload-change"
    std::string_view card;  // the card's name
    std::string_view name;  // the card's or the workload's
    const std::optional<double>& old_ratio;
    const std::optional<double>& new_ratio;
    const std::optional<stats::RatioChange>& change;
    CardStatus status;
    bool workload;
};

void render_change_row(std::ostream& out, const ChangeRow& row, double threshold) {
    const html::Mark mark = change_mark(row.change);
    out << "<tr class=\"" << row.css << "\"";
    if (row.workload) out << " data-card=\"" << html::escape(row.card) << "\"";
    out << " data-name=\"" << html::escape(row.name) << "\" data-verdict=\"" << verdict_key(row.change, row.status)
        << "\"" << html::number_attribute("data-old-ratio", row.old_ratio)
        << html::number_attribute("data-new-ratio", row.new_ratio)
        << html::number_attribute("data-change", change_of(row.change));
    if (row.change) {
        out << html::number_attribute("data-change-low", row.change->low)
            << html::number_attribute("data-change-high", row.change->high);
        // A workload's change is information beside its card's: only a card's counts for the exit code.
        if (!row.workload) {
            out << " data-counts-as-regression=\"" << (row.change->regressed_below(threshold) ? "true" : "false")
                << "\"";
        }
    }
    out << "><td" << (row.workload ? " class=\"workload-name\"" : "") << ">" << html::escape(row.name)
        << "</td><td class=\"num\">" << fixed(row.old_ratio, 3) << "</td><td class=\"num\">" << fixed(row.new_ratio, 3)
        << "</td><td class=\"num\">" << fixed(change_of(row.change), 3) << "</td><td>" << interval_of(row.change)
        << "</td><td><span class=\"verdict " << html::mark_class(mark) << "\">" << html::mark_icon(mark)
        << html::escape(verdict_word(row.change, row.status, threshold, row.workload)) << "</span></td><td>";
}

void render_comparison_table(std::ostream& out, const Comparison& comparison) {
    out << "<section class=\"card\"><h2>Cards" << (any_workloads(comparison) ? " and their workloads" : "")
        << "</h2><div class=\"table-wrap\"><table class=\"changes\"><thead><tr>"
           "<th>card</th><th class=\"num\">OLD ratio</th><th class=\"num\">NEW ratio</th><th class=\"num\">change</th>"
           "<th>95% interval</th><th>verdict</th><th>note</th></tr></thead><tbody>";
    for (const CardComparison& card : comparison.cards) {
        render_change_row(out,
                          {.css = "card-change",
                           .card = card.name,
                           .name = card.name,
                           .old_ratio = card.old_ratio,
                           .new_ratio = card.new_ratio,
                           .change = card.change,
                           .status = card.status,
                           .workload = false},
                          comparison.threshold);
        switch (card.status) {
            case CardStatus::compared: break;
            case CardStatus::no_verdict: out << html::escape(card.note); break;
            case CardStatus::added: out << "only in NEW (" << html::escape(card.new_eval) << ")"; break;
            case CardStatus::removed: out << "only in OLD (" << html::escape(card.old_eval) << ")"; break;
        }
        for (const std::string& note : card.machine_notes) {
            out << "<p class=\"machine-note\">" << html::escape(note) << "</p>";
        }
        out << "</td></tr>";
        for (const WorkloadComparison& w : card.workloads) {
            render_change_row(out,
                              {.css = "workload-change",
                               .card = card.name,
                               .name = w.name,
                               .old_ratio = w.old_ratio,
                               .new_ratio = w.new_ratio,
                               .change = w.change,
                               .status = w.status,
                               .workload = true},
                              comparison.threshold);
            out << html::escape(w.note) << "</td></tr>";
        }
    }
    out << "</tbody></table></div></section>\n";
}

}  // namespace

void render_comparison_section(std::ostream& out, const Comparison& comparison, std::string_view heading) {
    out << "<section class=\"comparison\" id=\"change-since\"><h2>" << html::escape(heading) << "</h2>";
    render_comparison_summary(out, comparison);
    render_comparison_chart(out, comparison);
    render_comparison_table(out, comparison);
    out << "</section>\n";
}

void render_comparison_html(std::ostream& out, const Comparison& comparison) {
    out << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
           "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
           "<title>forge compare: "
        << comparison.cards.size() << " card" << (comparison.cards.size() == 1 ? "" : "s") << "</title>\n<style>"
        << html::page_style << "</style>\n</head>\n<body>\n";
    out << "<header class=\"page-header\"><h1>forge compare</h1>";
    render_comparison_summary(out, comparison);
    out << "</header>\n<main>\n";
    render_comparison_chart(out, comparison);
    render_comparison_table(out, comparison);
    out << "</main>\n<footer class=\"page-footer\"><p>Written by <code>forge compare --format html</code>.</p>"
           "</footer>\n</body>\n</html>\n";
}

void render_comparison_text(std::ostream& out, const Comparison& comparison, bool colour) {
    comparison_table(comparison).render_text(out, colour);
    if (any_workloads(comparison)) {
        out << '\n';
        workload_table(comparison).render_text(out, colour);
    }
    render_card_notes(out, comparison, "  ");
    render_comparison_count(out, comparison);
    out << '\n' << comparison_legend << '\n';
}

void render_comparison_markdown(std::ostream& out, const Comparison& comparison) {
    comparison_table(comparison).render_markdown(out);
    out << '\n';
    if (any_workloads(comparison)) {
        workload_table(comparison).render_markdown(out);
        out << '\n';
    }
    if (render_card_notes(out, comparison, "- ")) out << '\n';
    render_comparison_count(out, comparison);
    out << '\n' << comparison_legend << '\n';
}

nlohmann::json comparison_json(const Comparison& comparison) {
    const auto number = [](std::optional<double> value) { return value ? nlohmann::json(*value) : nlohmann::json(); };
    const auto text = [](const std::string& value) { return value.empty() ? nlohmann::json() : nlohmann::json(value); };
    // The figures of a change, a card's or a workload's; null where there is none.
    const auto change_fields = [](nlohmann::json& row, const std::optional<stats::RatioChange>& change) {
        row["verdict"] = nullptr;
        row["change"] = nullptr;
        row["change_ci"] = nullptr;
        row["between_runs_log_sd"] = nullptr;
        if (!change) return;
        row["verdict"] = verdict_key(change, CardStatus::compared);
        row["change"] = change->change;
        row["change_ci"] = {change->low, change->high};
        row["between_runs_log_sd"] = change->between_runs_log_sd;
    };
    nlohmann::json cards = nlohmann::json::array();
    for (const CardComparison& card : comparison.cards) {
        nlohmann::json row{{"name", card.name},
                           {"old_eval", text(card.old_eval)},
                           {"new_eval", text(card.new_eval)},
                           {"old_ratio", number(card.old_ratio)},
                           {"new_ratio", number(card.new_ratio)},
                           {"status", status_name(card.status)}};
        change_fields(row, card.change);
        row["counts_as_regression"] = card.change && card.change->regressed_below(comparison.threshold);
        row["note"] = text(card.note);
        row["machine_notes"] = card.machine_notes;
        nlohmann::json workloads = nlohmann::json::array();
        for (const WorkloadComparison& w : card.workloads) {
            nlohmann::json workload{{"name", w.name},
                                    {"old_ratio", number(w.old_ratio)},
                                    {"new_ratio", number(w.new_ratio)},
                                    {"status", status_name(w.status)}};
            change_fields(workload, w.change);
            workload["note"] = text(w.note);
            workloads.push_back(std::move(workload));
        }
        row["workloads"] = std::move(workloads);
        cards.push_back(std::move(row));
    }
    return {{"threshold", comparison.threshold},
            {"between_runs_log_sd_floor", stats::between_runs_log_sd_floor},
            {"regressions", comparison.regressions()},
            {"cards", std::move(cards)}};
}

}  // namespace forge
