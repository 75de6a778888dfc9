// A small CSV reader for profiler exports: RFC 4180 quoting (commas, doubled
// quotes and line breaks inside quoted fields), LF or CRLF line ends, a UTF-8
// byte order mark, and the line number of every record for error messages.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace forge {

// `text` without a leading UTF-8 byte order mark.
[[nodiscard]] std::string_view strip_utf8_bom(std::string_view text) noexcept;

// One record. The fields view the reader's text (or its buffer, for fields that
// held doubled quotes) and stay valid until the reader's next call to next().
struct CsvRecord {
    std::vector<std::string_view> fields;
    std::size_t line = 0;  // 1-based line of the text on which the record starts

    // An empty line reads as one empty field.
    [[nodiscard]] bool blank() const noexcept;
    // The field at `index`, or "" when the record is shorter (rows may omit trailing fields).
    [[nodiscard]] std::string_view field(std::size_t index) const noexcept;
};

class CsvReader {
public:
    // `text` must outlive the reader; `file_label` names it in errors; `first_line`
    // is the number of text's first line (for text that starts after a preamble).
    CsvReader(std::string_view text, std::string file_label, std::size_t first_line = 1);

    // Reads the next record into `record`; false at the end of the text. Throws
    // TableError (naming the file and line) on a quoted field that never closes or
    // on text after a closing quote.
    bool next(CsvRecord& record);

private:
    void read_quoted(std::size_t field_index, CsvRecord& record);
    void read_unquoted(CsvRecord& record);
    [[nodiscard]] bool at_line_end() const noexcept;  // pos_ must be inside the text

    std::string_view text_;
    std::string file_label_;
    std::size_t pos_ = 0;
    std::size_t line_ = 1;
    std::string unescaped_;  // fields that held doubled quotes, without them
    std::vector<std::pair<std::size_t, std::size_t>> unescaped_fields_;  // (field index, offset)
};

// One line of text, without its line end.
struct TextLine {
    std::string_view text;
    std::size_t number = 0;  // 1-based
};

// Walks text line by line (LF or CRLF), without CSV quoting: for preambles,
// which are not CSV.
class LineCursor {
public:
    explicit LineCursor(std::string_view text) noexcept : text_(text) {}
    bool next(TextLine& line) noexcept;
    // Where the line after the last one read starts.
    [[nodiscard]] std::size_t offset() const noexcept { return pos_; }

private:
    std::string_view text_;
    std::size_t pos_ = 0;
    std::size_t number_ = 0;
};

}  // namespace forge
