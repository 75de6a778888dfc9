#include "table_text.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <system_error>


namespace forge::table_text {

std::string read_file(const std::filesystem::path& file) {
    const std::string label = file.string();
    std::error_code status_error;
    if (std::filesystem::is_directory(file, status_error)) {
        throw TableError(label + ": is a directory, not a CSV file; give the exported file's path");
    }
    std::ifstream in(file, std::ios::binary);
    if (!in) {
        throw TableError(label + ": cannot open: " + std::strerror(errno) +
                         "; check the path and that the file is readable");
    }
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (in.bad()) {
        throw TableError(label + ": read failed; check that the file is readable");
    }
    return text;
}

std::string where(std::string_view file_label, std::size_t line) {
    std::string out(file_label);
    if (line > 0) {
        out += ':';
        out += std::to_string(line);
    }
    out += ": ";
    return out;
}

void require_csv_text(std::string_view text, std::string_view file_label) {
    if (text.empty()) {
        throw TableError(where(file_label) + "the file is empty; export the table again");
    }
    if (text.starts_with("\xFF\xFE") || text.starts_with("\xFE\xFF")) {
        throw TableError(where(file_label) +
                         "the file is UTF-16 (as a PowerShell '>' redirect writes it); save it as "
                         "UTF-8, e.g. with '| Out-File -Encoding utf8' or ncu/nsys's own -o/--log-file");
    }
    const std::size_t nul = text.find('\0');
    if (nul != std::string_view::npos) {
        const auto line = 1 + static_cast<std::size_t>(std::count(text.begin(), text.begin() + nul, '\n'));
        throw TableError(where(file_label, line) +
                         "the file holds a NUL byte: it is binary, not a CSV export (a .ncu-rep or "
                         ".nsys-rep report?); export it with 'ncu --csv' or 'nsys stats --format csv'");
    }
}

std::string_view trim(std::string_view text) noexcept {
    const auto is_space = [](char c) { return c == ' ' || c == '\t'; };
    while (!text.empty() && is_space(text.front())) {
        text.remove_prefix(1);
    }
    while (!text.empty() && is_space(text.back())) {
        text.remove_suffix(1);
    }
    return text;
}

namespace {

// Offset of the first byte that breaks UTF-8 (overlong forms, surrogates and
// code points past U+10FFFF included), or npos.
std::size_t first_invalid_utf8(std::string_view text) noexcept {
    std::size_t i = 0;
    while (i < text.size()) {
        const auto lead = static_cast<unsigned char>(text[i]);
        if (lead < 0x80) {
            ++i;
            continue;
        }
        std::size_t length = 0;
        unsigned char low = 0x80;
        unsigned char high = 0xBF;  // the bounds of the second byte
        if (lead >= 0xC2 && lead <= 0xDF) {
            length = 2;
        } else if (lead >= 0xE0 && lead <= 0xEF) {
            length = 3;
            low = lead == 0xE0 ? 0xA0 : 0x80;
            high = lead == 0xED ? 0x9F : 0xBF;
        } else if (lead >= 0xF0 && lead <= 0xF4) {
            length = 4;
            low = lead == 0xF0 ? 0x90 : 0x80;
            high = lead == 0xF4 ? 0x8F : 0xBF;
        } else {
            return i;
        }
        if (i + length > text.size()) {
            return i;
        }
        for (std::size_t k = 1; k < length; ++k) {
            const auto byte = static_cast<unsigned char>(text[i + k]);
            if (byte < (k == 1 ? low : 0x80) || byte > (k == 1 ? high : 0xBF)) {
                return i;
            }
        }
        i += length;
    }
    return std::string_view::npos;
}

}  // namespace

void require_utf8_name(std::string_view name, std::string_view file_label, std::size_t line) {
    const std::size_t bad = first_invalid_utf8(name);
    if (bad == std::string_view::npos) {
        return;
    }
    static constexpr char hex[] = "0123456789ABCDEF";
    const auto byte = static_cast<unsigned char>(name[bad]);
    throw TableError(where(file_label, line) + "the kernel name is not UTF-8 (byte 0x" + hex[byte >> 4] +
                     hex[byte & 0xF] + " at character " + std::to_string(bad + 1) +
                     "); export the table again with a UTF-8 locale");
}

std::string fold_header_name(std::string_view name) {
    std::string folded;
    folded.reserve(name.size());
    for (const char c : name) {
        if (c != ' ' && c != '\t') {
            folded += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        }
    }
    return folded;
}

std::optional<std::size_t> Header::column(std::string_view name) const noexcept {
    const auto found = std::find(fields.begin(), fields.end(), name);
    if (found == fields.end()) {
        return std::nullopt;
    }
    return static_cast<std::size_t>(found - fields.begin());
}

std::optional<Header> header_from_line(const TextLine& line, std::string_view file_label,
                                       CsvRecord& scratch) {
    CsvReader reader(line.text, std::string(file_label), line.number);
    try {
        if (!reader.next(scratch)) {
            return std::nullopt;
        }
    } catch (const TableError&) {
        return std::nullopt;  // a preamble line that merely looks like a header
    }
    Header header;
    header.line = line.number;
    header.fields.reserve(scratch.fields.size());
    for (const std::string_view field : scratch.fields) {
        header.fields.emplace_back(trim(field));
    }
    return header;
}

KernelTable table_from_launches(std::vector<KernelRow> launches, std::string_view file_label) {
    // Launch counts are summed per name in 64 bits: bound their total (far past any
    // real profile, and exact in a double) so that no sum can overflow.
    constexpr std::int64_t max_launches = 9'000'000'000'000'000;
    std::int64_t launch_count = 0;
    for (const KernelRow& launch : launches) {
        if (launch.launches > max_launches - launch_count) {
            throw TableError(where(file_label) + "the launch counts add up past " + std::to_string(max_launches) +
                             "; the values are not real counts: export the table again");
        }
        launch_count += launch.launches;
    }
    KernelTable table = merge_by_name(std::move(launches));
    const double total = table.total_ns();
    if (!std::isfinite(total)) {
        throw TableError(where(file_label) + "the kernel times add up past what a double holds; the values "
                                             "are not real durations: export the table again");
    }
    table.profiler = ProfilerDigest{total, 1};
    return table;
}

bool is_tool_message(const CsvRecord& record) noexcept {
    return !record.fields.empty() && record.fields.front().starts_with("==");
}

}  // namespace forge::table_text
