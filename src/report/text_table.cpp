#include "forge/report/text_table.hpp"

#include <algorithm>
#include <ostream>
#include <stdexcept>
#include <utility>

namespace forge {

namespace {

constexpr std::string_view ellipsis = "\u2026";

bool is_continuation_byte(char c) noexcept { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

// Byte offset of the code point `count` columns into `text` (or its end).
std::size_t offset_of_column(std::string_view text, std::size_t count) noexcept {
    std::size_t seen = 0;
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (is_continuation_byte(text[i])) continue;
        if (seen == count) return i;
        ++seen;
    }
    return text.size();
}

std::string_view colour_of(Emphasis emphasis) noexcept {
    switch (emphasis) {
        case Emphasis::priced: return "\x1b[33m";  // yellow: work one side pays for
        case Emphasis::good: return "\x1b[32m";
        case Emphasis::bad: return "\x1b[31m";
        case Emphasis::none: break;
    }
    return {};
}

void pad(std::ostream& out, std::string_view cell, std::size_t width, Align align) {
    const std::size_t fill = width - std::min(width, display_width(cell));
    if (align == Align::right) out << std::string(fill, ' ') << cell;
    else out << cell << std::string(fill, ' ');
}

std::string markdown_cell(std::string_view cell) {
    std::string out;
    out.reserve(cell.size());
    for (char c : cell) {
        if (c == '|') out += '\\';
        out += c;
    }
    return out;
}

}  // namespace

std::size_t display_width(std::string_view text) noexcept {
    return static_cast<std::size_t>(std::count_if(text.begin(), text.end(),
                                                   [](char c) { return !is_continuation_byte(c); }));
}

std::string shorten_middle(std::string_view text, std::size_t width) {
    const std::size_t have = display_width(text);
    if (have <= width) return std::string{text};
    if (width == 0) return {};
    const std::size_t keep = width - 1;  // one column for the ellipsis
    const std::size_t head = (keep + 1) / 2;
    const std::size_t tail = keep - head;
    std::string out{text.substr(0, offset_of_column(text, head))};
    out += ellipsis;
    out += text.substr(offset_of_column(text, have - tail));
    return out;
}

TextTable::TextTable(std::vector<Column> columns) : columns_(std::move(columns)) {}

void TextTable::add_row(std::vector<std::string> cells, Emphasis emphasis) {
    add_row(std::move(cells), std::vector<Emphasis>(columns_.size(), emphasis));
}

void TextTable::add_row(std::vector<std::string> cells, std::vector<Emphasis> emphasis) {
    if (cells.size() > columns_.size()) {
        throw std::invalid_argument("TextTable row has more cells than the table has columns");
    }
    cells.resize(columns_.size());
    for (std::size_t i = 0; i < cells.size(); ++i) {
        if (columns_[i].max_width != 0) cells[i] = shorten_middle(cells[i], columns_[i].max_width);
    }
    emphasis.resize(columns_.size(), Emphasis::none);
    rows_.push_back({std::move(cells), std::move(emphasis)});
}

void TextTable::render_text(std::ostream& out, bool colour) const {
    std::vector<std::size_t> widths;
    for (const Column& column : columns_) widths.push_back(display_width(column.header));
    for (const Row& row : rows_) {
        for (std::size_t i = 0; i < row.cells.size(); ++i) widths[i] = std::max(widths[i], display_width(row.cells[i]));
    }
    const std::vector<Emphasis> plain(columns_.size(), Emphasis::none);
    auto line = [&](const std::vector<std::string>& cells, const std::vector<Emphasis>& emphasis) {
        for (std::size_t i = 0; i < cells.size(); ++i) {
            if (i != 0) out << "  ";
            const std::string_view on = colour ? colour_of(emphasis[i]) : std::string_view{};
            out << on;
            // The last column is not padded: no trailing blanks.
            if (i + 1 == cells.size() && columns_[i].align == Align::left) out << cells[i];
            else pad(out, cells[i], widths[i], columns_[i].align);
            if (!on.empty()) out << "\x1b[0m";
        }
        out << '\n';
    };
    std::vector<std::string> headers;
    for (const Column& column : columns_) headers.push_back(column.header);
    line(headers, plain);
    std::vector<std::string> rules;
    for (std::size_t width : widths) rules.emplace_back(width, '-');
    line(rules, plain);
    for (const Row& row : rows_) line(row.cells, row.emphasis);
}

void TextTable::render_markdown(std::ostream& out) const {
    out << '|';
    for (const Column& column : columns_) out << ' ' << markdown_cell(column.header) << " |";
    out << "\n|";
    for (const Column& column : columns_) out << (column.align == Align::right ? " ---: |" : " --- |");
    out << '\n';
    for (const Row& row : rows_) {
        out << '|';
        for (const std::string& cell : row.cells) out << ' ' << markdown_cell(cell) << " |";
        out << '\n';
    }
}

}  // namespace forge
