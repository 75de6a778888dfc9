// `forge compare`'s output: a table of the cards' changes for a terminal or a
// pull-request comment, the cards without a verdict beneath with why, and
// what the interval assumes; as JSON; and as a page, the changes drawn
// against 1 as forge report's page draws ratios.
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

std::string card_verdict_word(const CardComparison& card, double threshold) {
    if (!card.change) return std::string(status_name(card.status));
    std::string word(stats::to_string(card.change->verdict()));
    // A regression the threshold forgives is still shown as one, and said to be forgiven.
    if (card.change->verdict() == stats::Change::regressed && !card.change->regressed_below(threshold)) {
        word += " (within the threshold ";
        word += fixed(threshold, 3);
        word += ")";
    }
    return word;
}

Emphasis change_emphasis(const CardComparison& card, double threshold) {
    if (!card.change) return Emphasis::none;
    if (card.change->regressed_below(threshold)) return Emphasis::bad;
    return card.change->verdict() == stats::Change::improved ? Emphasis::good : Emphasis::none;
}

TextTable comparison_table(const Comparison& comparison) {
    TextTable table({{.header = "card", .align = Align::left, .max_width = 40},
                     {.header = "OLD ratio", .align = Align::right, .max_width = 0},
                     {.header = "NEW ratio", .align = Align::right, .max_width = 0},
                     {.header = "change", .align = Align::right, .max_width = 0},
                     {.header = "95% interval", .align = Align::left, .max_width = 0},
                     {.header = "verdict", .align = Align::left, .max_width = 0}});
    for (const CardComparison& card : comparison.cards) {
        const std::optional<double> change = card.change ? std::optional(card.change->change) : std::nullopt;
        table.add_row({card.name, fixed(card.old_ratio, 3), fixed(card.new_ratio, 3), fixed(change, 3),
                       card.change ? interval(card.change->low, card.change->high) : "-",
                       card_verdict_word(card, comparison.threshold)},
                      change_emphasis(card, comparison.threshold));
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
    "below 1 (regressed).";

// A change's verdict as the page marks it: improved as faster, regressed as
// slower, unchanged as indistinguishable (the same shapes and colours).
html::Mark change_mark(const CardComparison& card) {
    if (!card.change) return html::Mark::unknown;
    switch (card.change->verdict()) {
        case stats::Change::improved: return html::Mark::faster;
        case stats::Change::regressed: return html::Mark::slower;
        case stats::Change::unchanged: break;
    }
    return html::Mark::indistinguishable;
}

// data-verdict: the JSON output's words, and a card's status where it has no change.
std::string_view verdict_key(const CardComparison& card) {
    if (!card.change) return status_name(card.status);
    const stats::Change verdict = card.change->verdict();
    return verdict == stats::Change::unchanged ? "unchanged" : stats::to_string(verdict);
}

void render_comparison_header(std::ostream& out, const Comparison& comparison) {
    std::array<std::size_t, 4> counts{};  // by Mark
    for (const CardComparison& card : comparison.cards) ++counts[static_cast<std::size_t>(change_mark(card))];
    out << "<header class=\"page-header\"><h1>forge compare</h1><p>" << comparison.cards.size() << " card"
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
    out << "</ul><p>" << html::escape(comparison_legend) << "</p></header>\n";
}

void render_comparison_chart(std::ostream& out, const Comparison& comparison) {
    std::vector<double> drawn;
    std::vector<html::ChartRow> rows;
    for (const CardComparison& card : comparison.cards) {
        if (!card.change) continue;
        drawn.insert(drawn.end(), {card.change->change, card.change->low, card.change->high});
        rows.push_back(
            {card.name, card.change->change, RatioCi{card.change->low, card.change->high}, change_mark(card)});
    }
    if (rows.empty()) return;
    out << "<section class=\"card\"><h2>NEW ratio / OLD ratio</h2>"
        << html::ratio_chart(html::RatioAxis(drawn), rows, {.width = 760.0, .label_width = 200.0},
                             "each card's change from the OLD run to the NEW one, with its 95% interval")
        << "</section>\n";
}

void render_comparison_table(std::ostream& out, const Comparison& comparison) {
    out << "<section class=\"card\"><h2>Cards</h2><div class=\"table-wrap\"><table class=\"changes\"><thead><tr>"
           "<th>card</th><th class=\"num\">OLD ratio</th><th class=\"num\">NEW ratio</th><th class=\"num\">change</th>"
           "<th>95% interval</th><th>verdict</th><th>note</th></tr></thead><tbody>";
    for (const CardComparison& card : comparison.cards) {
        const html::Mark mark = change_mark(card);
        const std::optional<double> change = card.change ? std::optional(card.change->change) : std::nullopt;
        out << "<tr class=\"card-change\" data-name=\"" << html::escape(card.name) << "\" data-verdict=\""
            << verdict_key(card) << "\"" << html::number_attribute("data-old-ratio", card.old_ratio)
            << html::number_attribute("data-new-ratio", card.new_ratio)
            << html::number_attribute("data-change", change);
        if (card.change) {
            out << html::number_attribute("data-change-low", card.change->low)
                << html::number_attribute("data-change-high", card.change->high) << " data-counts-as-regression=\""
                << (card.change->regressed_below(comparison.threshold) ? "true" : "false") << "\"";
        }
        out << "><td>" << html::escape(card.name) << "</td><td class=\"num\">" << fixed(card.old_ratio, 3)
            << "</td><td class=\"num\">" << fixed(card.new_ratio, 3) << "</td><td class=\"num\">" << fixed(change, 3)
            << "</td><td>" << (card.change ? interval(card.change->low, card.change->high) : "-")
            << "</td><td><span class=\"verdict " << html::mark_class(mark) << "\">" << html::mark_icon(mark)
            << html::escape(card_verdict_word(card, comparison.threshold)) << "</span></td><td>";
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
    }
    out << "</tbody></table></div></section>\n";
}

}  // namespace

void render_comparison_html(std::ostream& out, const Comparison& comparison) {
    out << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
           "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
           "<title>forge compare: "
        << comparison.cards.size() << " card" << (comparison.cards.size() == 1 ? "" : "s") << "</title>\n<style>"
        << html::page_style << "</style>\n</head>\n<body>\n";
    render_comparison_header(out, comparison);
    out << "<main>\n";
    render_comparison_chart(out, comparison);
    render_comparison_table(out, comparison);
    out << "</main>\n<footer class=\"page-footer\"><p>Written by <code>forge compare --format html</code>.</p>"
           "</footer>\n</body>\n</html>\n";
}

void render_comparison_text(std::ostream& out, const Comparison& comparison, bool colour) {
    comparison_table(comparison).render_text(out, colour);
    render_card_notes(out, comparison, "  ");
    render_comparison_count(out, comparison);
    out << '\n' << comparison_legend << '\n';
}

void render_comparison_markdown(std::ostream& out, const Comparison& comparison) {
    comparison_table(comparison).render_markdown(out);
    out << '\n';
    if (render_card_notes(out, comparison, "- ")) out << '\n';
    render_comparison_count(out, comparison);
    out << '\n' << comparison_legend << '\n';
}

nlohmann::json comparison_json(const Comparison& comparison) {
    const auto number = [](std::optional<double> value) { return value ? nlohmann::json(*value) : nlohmann::json(); };
    const auto text = [](const std::string& value) { return value.empty() ? nlohmann::json() : nlohmann::json(value); };
    nlohmann::json cards = nlohmann::json::array();
    for (const CardComparison& card : comparison.cards) {
        nlohmann::json row{{"name", card.name},
                           {"old_eval", text(card.old_eval)},
                           {"new_eval", text(card.new_eval)},
                           {"old_ratio", number(card.old_ratio)},
                           {"new_ratio", number(card.new_ratio)},
                           {"status", status_name(card.status)},
                           {"verdict", nullptr},
                           {"change", nullptr},
                           {"change_ci", nullptr},
                           {"between_runs_log_sd", nullptr},
                           {"counts_as_regression", false},
                           {"note", text(card.note)},
                           {"machine_notes", card.machine_notes}};
        if (card.change) {
            const stats::Change verdict = card.change->verdict();
            row["verdict"] = verdict == stats::Change::unchanged ? "unchanged" : stats::to_string(verdict);
            row["change"] = card.change->change;
            row["change_ci"] = {card.change->low, card.change->high};
            row["between_runs_log_sd"] = card.change->between_runs_log_sd;
            row["counts_as_regression"] = card.change->regressed_below(comparison.threshold);
        }
        cards.push_back(std::move(row));
    }
    return {{"threshold", comparison.threshold},
            {"between_runs_log_sd_floor", stats::between_runs_log_sd_floor},
            {"regressions", comparison.regressions()},
            {"cards", std::move(cards)}};
}

}  // namespace forge
