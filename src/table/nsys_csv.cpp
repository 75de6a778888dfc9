#include "forge/table/nsys_csv.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "forge/table/csv.hpp"
#include "forge/table/number.hpp"
#include "forge/table/time_unit.hpp"
#include "table_text.hpp"

namespace forge {

namespace {

using table_text::Header;
using table_text::where;

constexpr std::string_view nsys_export_hint =
    "export it with 'nsys stats --report cuda_gpu_kern_sum --format csv <report>.nsys-rep'";

// Columns found by their folded names ("Time (%)" and "Time(%)" alike).
struct SummaryColumns {
    std::size_t total_time = 0;
    std::size_t instances = 0;
    std::size_t name = 0;
    std::string total_time_unit;  // what the "Total Time" header carries in parentheses
};

std::optional<SummaryColumns> summary_columns(const std::vector<std::string>& fields) {
    SummaryColumns columns;
    bool time_pct = false;
    bool total_time = false;
    bool instances = false;
    bool name = false;
    for (std::size_t i = 0; i < fields.size(); ++i) {
        const std::string folded = table_text::fold_header_name(fields[i]);
        if (folded == "time(%)") {
            time_pct = true;
        } else if (folded.starts_with("totaltime")) {
            total_time = true;
            columns.total_time = i;
            const std::size_t open = fields[i].find('(');
            const std::size_t close = fields[i].rfind(')');
            if (open != std::string::npos && close != std::string::npos && close > open) {
                columns.total_time_unit = fields[i].substr(open + 1, close - open - 1);
            }
        } else if (folded == "instances") {
            instances = true;
            columns.instances = i;
        } else if (folded == "name") {
            name = true;
            columns.name = i;
        }
    }
    if (!(time_pct && total_time && instances && name)) {
        return std::nullopt;
    }
    return columns;
}

bool looks_like_summary_header(std::string_view line) noexcept {
    return line.find("Instances") != std::string_view::npos;
}

bool is_summary_header(const std::vector<std::string>& fields) { return summary_columns(fields).has_value(); }

[[noreturn]] void no_summary(std::string_view text, std::string_view file_label) {
    LineCursor cursor(text);
    TextLine line;
    while (cursor.next(line)) {
        if (table_text::trim(line.text).starts_with("SKIPPED:")) {
            throw TableError(where(file_label, line.number) + "nsys wrote no kernel summary (\"" +
                             std::string(table_text::trim(line.text)) +
                             "\"): the report holds no CUDA kernel launch; profile with "
                             "'nsys profile --trace=cuda' a run that launches kernels");
        }
    }
    std::string message = where(file_label) +
                          "no Nsight Systems kernel summary header (Time (%), Total Time (ns), Instances, "
                          "..., Name) in the file; ";
    if (text.find("\"Kernel Name\"") != std::string_view::npos) {
        message += "it looks like an Nsight Compute export: import it as ncu-csv";
    } else {
        message += std::string(nsys_export_hint);
    }
    throw TableError(message);
}

}  // namespace

KernelTable import_nsys_csv(std::string_view text, std::string_view file_label) {
    table_text::require_csv_text(text, file_label);
    text = strip_utf8_bom(text);
    const std::optional<Header> header =
        table_text::find_header(text, file_label, looks_like_summary_header, is_summary_header);
    if (!header) {
        no_summary(text, file_label);
    }
    const SummaryColumns columns = *summary_columns(header->fields);
    const std::string& unit = columns.total_time_unit;
    const std::optional<double> ns_per_unit = unit.empty() ? std::optional<double>(1.0) : nanoseconds_per(unit);
    if (!ns_per_unit) {
        throw TableError(where(file_label, header->line) + "the Total Time column's unit \"" + unit +
                         "\" is not a time unit (known: " + std::string(known_time_units) + ")");
    }
    const std::size_t needed = 1 + std::max({columns.total_time, columns.instances, columns.name});

    CsvReader reader(text.substr(header->rows_offset), std::string(file_label), header->line + 1);
    CsvRecord record;
    std::vector<KernelRow> rows;
    while (reader.next(record) && !record.blank()) {
        if (record.fields.size() < needed) {
            throw TableError(where(file_label, record.line) + "the row has " + std::to_string(record.fields.size()) +
                             " fields but the header on line " + std::to_string(header->line) + " needs " +
                             std::to_string(needed) + "; the file is probably truncated: " + std::string(nsys_export_hint));
        }
        const std::string_view total_text = record.field(columns.total_time);
        const ParsedNumber total = parse_number(total_text);
        const double total_ns = total.value * *ns_per_unit;
        if (!total.has_value() || total_ns < 0.0 || !std::isfinite(total_ns)) {
            throw TableError(where(file_label, record.line) + "Total Time is \"" + std::string(total_text) +
                             "\", not a duration; " + std::string(nsys_export_hint));
        }
        const std::string_view instances_text = record.field(columns.instances);
        const ParsedNumber instances = parse_number(instances_text);
        if (!instances.has_value() || instances.value < 1.0 || instances.value != std::floor(instances.value) ||
            instances.value > 9.0e15) {
            throw TableError(where(file_label, record.line) + "Instances is \"" + std::string(instances_text) +
                             "\", not a launch count; " + std::string(nsys_export_hint));
        }
        table_text::require_utf8_name(record.field(columns.name), file_label, record.line);
        rows.push_back({std::string(record.field(columns.name)), static_cast<std::int64_t>(instances.value),
                        total_ns, 0.0});
    }
    if (rows.empty()) {
        throw TableError(where(file_label, header->line) +
                         "the kernel summary has a header but no rows: the report holds no kernel launch "
                         "(an empty table would read as no table at all); profile a run that launches kernels");
    }
    return table_text::table_from_launches(std::move(rows), file_label);
}

KernelTable import_nsys_csv(const std::filesystem::path& file) {
    return import_nsys_csv(table_text::read_file(file), file.string());
}

}  // namespace forge
