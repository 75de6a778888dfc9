#include "forge/table/ncu_csv.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
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

constexpr std::string_view duration_metric = "gpu__time_duration.sum";
// The details page shows metrics under display names unless asked for metric names.
constexpr std::string_view sol_section = "GPU Speed Of Light Throughput";
constexpr std::string_view sol_duration = "Duration";

constexpr std::string_view ncu_export_hint =
    "profile with 'ncu --csv --metrics gpu__time_duration.sum' (or --section SpeedOfLight) "
    "and export the details or raw page";

std::optional<std::int64_t> parse_launch_id(std::string_view text) noexcept {
    text = table_text::trim(text);
    std::int64_t id = 0;
    const auto [stop, error] = std::from_chars(text.data(), text.data() + text.size(), id);
    if (error != std::errc{} || stop != text.data() + text.size() || text.empty()) {
        return std::nullopt;
    }
    return id;
}

// One profiled launch, as its rows describe it.
struct Launch {
    std::string name;
    std::optional<double> time_ns;
    bool from_duration_metric = false;  // gpu__time_duration.sum wins over the section's Duration
    std::size_t line = 0;               // of its first row
};

class NcuImport {
public:
    NcuImport(std::string_view text, std::string_view file_label, const Header& header)
        : text_(text), file_label_(file_label), header_(header) {}

    std::vector<KernelRow> long_form();
    std::vector<KernelRow> wide_form();

private:
    std::size_t require_column(std::string_view name) const;
    void require_fields(const CsvRecord& record, std::size_t needed, std::string_view column) const;
    std::int64_t launch_id(const CsvRecord& record, std::size_t column) const;
    double time_ns(const CsvRecord& record, std::string_view metric, std::string_view value,
                   double ns_per_unit) const;
    CsvReader rows() const {
        return CsvReader(text_.substr(header_.rows_offset), std::string(file_label_), header_.line + 1);
    }
    [[noreturn]] void no_launches() const;

    std::string_view text_;
    std::string_view file_label_;
    const Header& header_;
};

std::size_t NcuImport::require_column(std::string_view name) const {
    if (const auto index = header_.column(name)) {
        return *index;
    }
    throw TableError(where(file_label_, header_.line) + "the ncu header has no \"" + std::string(name) +
                     "\" column; " + std::string(ncu_export_hint));
}

void NcuImport::require_fields(const CsvRecord& record, std::size_t needed, std::string_view column) const {
    if (record.fields.size() < needed) {
        throw TableError(where(file_label_, record.line) + "the row has " + std::to_string(record.fields.size()) +
                         " fields but needs " + std::to_string(needed) + " to reach the \"" +
                         std::string(column) + "\" column (header on line " + std::to_string(header_.line) +
                         "); the file is probably truncated or edited: export it again");
    }
}

std::int64_t NcuImport::launch_id(const CsvRecord& record, std::size_t column) const {
    if (const auto id = parse_launch_id(record.field(column))) {
        return *id;
    }
    throw TableError(where(file_label_, record.line) + "\"" + std::string(record.field(column)) +
                     "\" in the ID column is not a launch number; lines after the header must be "
                     "ncu's rows (remove text appended to the export)");
}

double NcuImport::time_ns(const CsvRecord& record, std::string_view metric, std::string_view value,
                          double ns_per_unit) const {
    const ParsedNumber number = parse_number(value);
    if (number.status == ParsedNumber::Status::absent) {
        throw TableError(where(file_label_, record.line) + std::string(metric) + " is \"" + std::string(value) +
                         "\" (no value) for this launch; " + std::string(ncu_export_hint));
    }
    const double ns = number.value * ns_per_unit;
    if (!number.has_value() || ns < 0.0 || !std::isfinite(ns)) {
        throw TableError(where(file_label_, record.line) + std::string(metric) + " is \"" + std::string(value) +
                         "\", not a duration; export the table again");
    }
    return ns;
}

void NcuImport::no_launches() const {
    throw TableError(where(file_label_, header_.line) +
                     "the ncu header is followed by no launch: ncu profiled no kernel; check the "
                     "--kernel-name, --launch-skip and --launch-count filters");
}

std::vector<KernelRow> NcuImport::long_form() {
    const std::size_t id_column = require_column("ID");
    const std::size_t name_column = require_column("Kernel Name");
    const std::size_t metric_column = require_column("Metric Name");
    const std::size_t unit_column = require_column("Metric Unit");
    const std::size_t value_column = require_column("Metric Value");
    const std::optional<std::size_t> section_column = header_.column("Section Name");
    const std::size_t needed = 1 + std::max({id_column, name_column, metric_column, unit_column, value_column});
    const std::string_view last_needed = header_.fields[needed - 1];

    std::vector<Launch> launches;
    std::unordered_map<std::int64_t, std::size_t> index_of;
    // A launch's rows are adjacent: remember the last one to skip the lookup.
    std::optional<std::int64_t> last_id;
    std::size_t last_index = 0;

    CsvReader reader = rows();
    CsvRecord record;
    while (reader.next(record)) {
        if (record.blank() || table_text::is_tool_message(record)) {
            continue;
        }
        const std::int64_t id = launch_id(record, id_column);
        require_fields(record, needed, last_needed);
        if (id != last_id) {
            const auto [found, inserted] = index_of.try_emplace(id, launches.size());
            if (inserted) {
                table_text::require_utf8_name(record.field(name_column), file_label_, record.line);
                launches.push_back({std::string(record.field(name_column)), std::nullopt, false, record.line});
            }
            last_id = id;
            last_index = found->second;
        }
        Launch& launch = launches[last_index];

        const std::string_view metric = table_text::trim(record.field(metric_column));
        const bool is_metric = metric == duration_metric;
        const bool is_section_duration = metric == sol_duration && section_column &&
                                         table_text::trim(record.field(*section_column)) == sol_section;
        if (!is_metric && !(is_section_duration && !launch.from_duration_metric)) {
            continue;
        }
        const std::string_view unit = record.field(unit_column);
        const std::optional<double> ns_per_unit = nanoseconds_per(unit);
        if (!ns_per_unit) {
            throw TableError(where(file_label_, record.line) + std::string(metric) + " has unit \"" +
                             std::string(unit) + "\", not a time unit (known: " +
                             std::string(known_time_units) + ")");
        }
        launch.time_ns = time_ns(record, metric, record.field(value_column), *ns_per_unit);
        launch.from_duration_metric = is_metric;
    }
    if (launches.empty()) {
        no_launches();
    }

    std::vector<KernelRow> rows_out;
    rows_out.reserve(launches.size());
    for (Launch& launch : launches) {
        if (!launch.time_ns) {
            const std::string which = std::any_of(launches.begin(), launches.end(),
                                                  [](const Launch& l) { return l.time_ns.has_value(); })
                                          ? "this launch has"
                                          : "no launch has";
            throw TableError(where(file_label_, launch.line) + which + " a " + std::string(duration_metric) +
                             " row (kernel \"" + launch.name + "\"), so its time is unknown; " +
                             std::string(ncu_export_hint));
        }
        rows_out.push_back({std::move(launch.name), 1, *launch.time_ns, 0.0});
    }
    return rows_out;
}

std::vector<KernelRow> NcuImport::wide_form() {
    const std::size_t id_column = require_column("ID");
    const std::size_t name_column = require_column("Kernel Name");
    const std::size_t time_column = require_column(duration_metric);
    const std::size_t needed = 1 + std::max({id_column, name_column, time_column});

    CsvReader reader = rows();
    CsvRecord record;
    std::optional<double> ns_per_unit;
    std::vector<KernelRow> rows_out;
    while (reader.next(record)) {
        if (record.blank() || table_text::is_tool_message(record)) {
            continue;
        }
        if (!ns_per_unit) {
            // The units row: the first row, with an empty ID.
            if (!table_text::trim(record.field(id_column)).empty()) {
                throw TableError(where(file_label_, record.line) +
                                 "no units row under the header, so the unit of " + std::string(duration_metric) +
                                 " is unknown; export with 'ncu --csv --page raw', which writes one");
            }
            const std::string_view unit = record.field(time_column);
            ns_per_unit = nanoseconds_per(unit);
            if (!ns_per_unit) {
                throw TableError(where(file_label_, record.line) + "the units row gives \"" + std::string(unit) +
                                 "\" for " + std::string(duration_metric) + ", not a time unit (known: " +
                                 std::string(known_time_units) + ")");
            }
            continue;
        }
        launch_id(record, id_column);  // refuses text that is not a launch row
        require_fields(record, needed, header_.fields[needed - 1]);
        table_text::require_utf8_name(record.field(name_column), file_label_, record.line);
        rows_out.push_back(
            {std::string(record.field(name_column)), 1,
             time_ns(record, duration_metric, record.field(time_column), *ns_per_unit), 0.0});
    }
    if (rows_out.empty()) {
        no_launches();
    }
    return rows_out;
}

bool looks_like_ncu_header(std::string_view line) noexcept {
    return line.find("Kernel Name") != std::string_view::npos;
}

bool is_ncu_header(const std::vector<std::string>& fields) {
    return !fields.empty() && fields.front() == "ID" &&
           std::find(fields.begin(), fields.end(), "Kernel Name") != fields.end();
}

[[noreturn]] void no_header(std::string_view text, std::string_view file_label) {
    std::string message = where(file_label) +
                          "no Nsight Compute header (a line \"ID\",...,\"Kernel Name\",...) in the file; ";
    if (text.find("Instances") != std::string_view::npos && text.find("Total Time") != std::string_view::npos) {
        message += "it looks like an Nsight Systems kernel summary: import it as nsys-csv";
    } else {
        message += std::string(ncu_export_hint);
    }
    throw TableError(message);
}

}  // namespace

KernelTable import_ncu_csv(std::string_view text, std::string_view file_label) {
    table_text::require_csv_text(text, file_label);
    text = strip_utf8_bom(text);
    const std::optional<Header> header =
        table_text::find_header(text, file_label, looks_like_ncu_header, is_ncu_header);
    if (!header) {
        no_header(text, file_label);
    }
    NcuImport import(text, file_label, *header);
    std::vector<KernelRow> launches;
    if (header->column("Metric Name") && header->column("Metric Value")) {
        launches = import.long_form();
    } else if (header->column(duration_metric)) {
        launches = import.wide_form();
    } else {
        throw TableError(where(file_label, header->line) +
                         "the ncu header has neither \"Metric Name\"/\"Metric Value\" columns (details "
                         "page) nor a " + std::string(duration_metric) + " column (raw page); " +
                         std::string(ncu_export_hint));
    }
    return table_text::table_from_launches(std::move(launches), file_label);
}

KernelTable import_ncu_csv(const std::filesystem::path& file) {
    return import_ncu_csv(table_text::read_file(file), file.string());
}

}  // namespace forge
