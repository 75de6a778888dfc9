// A table for people: aligned columns in a terminal (optionally coloured), or
// GitHub-flavoured Markdown for a pull-request comment.
#pragma once

#include <cstddef>
#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

namespace forge {

enum class Align { left, right };

// How a row is meant to be read; colour on a terminal, a marker everywhere else.
enum class Emphasis { none, priced, good, bad };

struct Column {
    std::string header;
    Align align = Align::left;
    std::size_t max_width = 0;  // 0: unlimited; longer cells are shortened in the middle
};

// Width in terminal columns of UTF-8 text (one column per code point).
[[nodiscard]] std::size_t display_width(std::string_view text) noexcept;

// "void flash_fwd_kernel<Traits<128, 64>>(Params)" -> "void flash_fw…4>>(Params)": both
// ends of a kernel name say the most (its family and its template arguments).
[[nodiscard]] std::string shorten_middle(std::string_view text, std::size_t width);

class TextTable {
public:
    explicit TextTable(std::vector<Column> columns);

    // Missing trailing cells are blank; extra cells are an error.
    void add_row(std::vector<std::string> cells, Emphasis emphasis = Emphasis::none);
    // One emphasis per cell (missing ones: none), e.g. two tables side by side.
    void add_row(std::vector<std::string> cells, std::vector<Emphasis> emphasis);

    void render_text(std::ostream& out, bool colour) const;
    void render_markdown(std::ostream& out) const;

private:
    struct Row {
        std::vector<std::string> cells;
        std::vector<Emphasis> emphasis;  // one per cell
    };
    std::vector<Column> columns_;
    std::vector<Row> rows_;
};

}  // namespace forge
