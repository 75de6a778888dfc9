// What the profiler-table importers share: reading the file, refusing text that
// is not CSV, finding the header after a preamble, and locating columns.
#pragma once

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "forge/table/csv.hpp"
#include "forge/table/kernel_table.hpp"

namespace forge::table_text {

// The whole file; TableError naming it when it cannot be read.
[[nodiscard]] std::string read_file(const std::filesystem::path& file);

// "<file>:<line>: " (or "<file>: " when line is 0), the start of every error.
[[nodiscard]] std::string where(std::string_view file_label, std::size_t line = 0);

// Throws TableError when `text` is empty, UTF-16 (a PowerShell redirect) or binary.
void require_csv_text(std::string_view text, std::string_view file_label);

[[nodiscard]] std::string_view trim(std::string_view text) noexcept;

// A kernel name becomes a JSON string, which must be UTF-8: throws TableError
// (at `line`) when `name` is not.
void require_utf8_name(std::string_view name, std::string_view file_label, std::size_t line);

// "Time (%)" and "Time(%)" alike: lower case, without spaces.
[[nodiscard]] std::string fold_header_name(std::string_view name);

struct Header {
    std::vector<std::string> fields;  // trimmed
    std::size_t line = 0;
    std::size_t rows_offset = 0;  // where the line after the header starts in the text

    [[nodiscard]] std::optional<std::size_t> column(std::string_view name) const noexcept;
};

// `line` read as one CSV record, or nullopt when it is not valid CSV on its own.
[[nodiscard]] std::optional<Header> header_from_line(const TextLine& line, std::string_view file_label,
                                                     CsvRecord& scratch);

// The first line for which `may_be_header(raw line)` holds and whose CSV fields
// satisfy `is_header(fields)`. Preamble lines are not CSV: they are only read
// as CSV once the cheap raw test passes, and one that is not valid CSV is skipped.
template <class RawTest, class FieldsTest>
[[nodiscard]] std::optional<Header> find_header(std::string_view text, std::string_view file_label,
                                                RawTest may_be_header, FieldsTest is_header) {
    LineCursor cursor(text);
    TextLine line;
    CsvRecord record;
    while (cursor.next(line)) {
        if (!may_be_header(line.text)) {
            continue;
        }
        std::optional<Header> header = header_from_line(line, file_label, record);
        if (header && is_header(header->fields)) {
            header->rows_offset = cursor.offset();
            return header;
        }
    }
    return std::nullopt;
}

// The imported launches merged by name, with the profiler digest of one profiled
// call (the caller sets `calls` when the file covers more). Throws TableError
// when the times sum past what a double holds, or the launch counts past 9e15.
[[nodiscard]] KernelTable table_from_launches(std::vector<KernelRow> launches, std::string_view file_label);

// Lines that Nsight tools interleave with their CSV: "==PROF==", "==WARNING==", "==ERROR==".
[[nodiscard]] bool is_tool_message(const CsvRecord& record) noexcept;

}  // namespace forge::table_text
