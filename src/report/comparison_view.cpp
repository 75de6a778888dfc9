// `forge compare`'s output: a table of the cards' changes for a terminal or a
// pull-request comment, the cards without a verdict beneath with why, and
// what the interval assumes.
#include <ostream>

#include "forge/report/comparison.hpp"
#include "forge/report/text_table.hpp"
#include "number_format.hpp"

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

// Each card without a change, and where its files are. Whether there was one.
bool render_card_notes(std::ostream& out, const Comparison& comparison, std::string_view bullet) {
    bool any = false;
    for (const CardComparison& card : comparison.cards) {
        any = any || card.status != CardStatus::compared;
        switch (card.status) {
            case CardStatus::compared: continue;
            case CardStatus::no_verdict: out << bullet << card.name << ": " << card.note << '\n'; break;
            case CardStatus::added: out << bullet << card.name << ": only in NEW (" << card.new_eval << ")\n"; break;
            case CardStatus::removed: out << bullet << card.name << ": only in OLD (" << card.old_eval << ")\n"; break;
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
    "below 1 (regressed).";

}  // namespace

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
                           {"note", text(card.note)}};
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
