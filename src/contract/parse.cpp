#include "forge/contract/parse.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

#include <toml++/toml.h>

#include "forge/contract/digest.hpp"

#include "key_suggestion.hpp"
#include "nesting_depth.hpp"
#include "python_text.hpp"

namespace forge {
namespace {

// A contract is a few hundred bytes; anything near this is the wrong file, and
// refusing it early bounds the time and memory one check can take.
constexpr std::size_t max_contract_bytes = std::size_t{1} << 20;
// toml++'s own limit for nested arrays and inline tables; dotted keys are held to it too.
constexpr std::size_t max_nesting = 256;

constexpr std::string_view top_keys[] = {"schema_version", "reference", "student", "asymmetry"};
constexpr std::string_view side_keys[] = {"window", "inputs", "outputs"};
constexpr std::string_view entry_keys[] = {"ref_input",  "student_input",        "ref_output",
                                           "student_output", "class",            "produced_by",
                                           "derived_from",   "student_kernel_regex", "ref_kernel_regex",
                                           "note",           "shape",            "dtype"};

std::optional<SourceLocation> location_of(const toml::source_region& region) {
    if (region.begin.line == 0) return std::nullopt;
    return SourceLocation{static_cast<int>(region.begin.line), static_cast<int>(region.begin.column)};
}

std::string_view type_name(const toml::node& node) {
    switch (node.type()) {
        case toml::node_type::table: return "a table";
        case toml::node_type::array: return "an array";
        case toml::node_type::string: return "a string";
        case toml::node_type::integer: return "an integer";
        case toml::node_type::floating_point: return "a float";
        case toml::node_type::boolean: return "a boolean";
        case toml::node_type::date: return "a date";
        case toml::node_type::time: return "a time";
        case toml::node_type::date_time: return "a date-time";
        case toml::node_type::none: break;
    }
    return "nothing";
}

// Python's truthiness, which the Python oracle applies to [reference], [student] and
// [[asymmetry]] (`data.get("reference", {}) or {}`): an empty or zero value counts as absent.
bool python_falsy(const toml::node& node) {
    switch (node.type()) {
        case toml::node_type::table: return node.as_table()->empty();
        case toml::node_type::array: return node.as_array()->empty();
        case toml::node_type::string: return node.as_string()->get().empty();
        case toml::node_type::integer: return node.as_integer()->get() == 0;
        case toml::node_type::floating_point: return node.as_floating_point()->get() == 0.0;
        case toml::node_type::boolean: return !node.as_boolean()->get();
        default: return false;
    }
}

// A key as it reads in a dotted path: bare when TOML allows it, else quoted.
std::string key_text(std::string_view key) {
    const bool bare = !key.empty() && std::all_of(key.begin(), key.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
    });
    if (bare) return std::string(key);
    std::string out = "\"";
    for (char c : key) {
        if (c == '"' || c == '\\') {
            out += '\\';
            out += c;
        } else if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
            static constexpr char digits[] = "0123456789ABCDEF";
            out += "\\u00";
            out += digits[(static_cast<unsigned char>(c) >> 4) & 0xf];
            out += digits[c & 0xf];
        } else {
            out += c;
        }
    }
    return out + "\"";
}

std::string entry_key(int index) { return "asymmetry[" + std::to_string(index) + "]"; }

// A dotted key, joined only when a message needs it.
struct KeyPath {
    std::string_view table;  // "reference", "asymmetry[2]"
    std::string_view key;    // "inputs", "class"

    [[nodiscard]] std::string text() const { return std::string(table) + "." + std::string(key); }
};

// Thrown inside the reader: the first reason the file is refused.
struct Refusal {
    Finding finding;
};

class ContractReader {
public:
    // The `unknown-key` warnings, in file order.
    [[nodiscard]] std::vector<Finding> unknown_keys(const toml::table& root) const {
        std::vector<Finding> out;
        check_keys(root, "", top_keys, out);
        for (std::string_view side : {"reference", "student"}) {
            if (const auto* table = root.get_as<toml::table>(side)) check_keys(*table, std::string(side) + ".", side_keys, out);
        }
        if (const auto* entries = root.get_as<toml::array>("asymmetry")) {
            int index = 0;
            for (const toml::node& entry : *entries) {
                ++index;
                if (const auto* table = entry.as_table()) check_keys(*table, entry_key(index) + ".", entry_keys, out);
            }
        }
        std::stable_sort(out.begin(), out.end(), [](const Finding& a, const Finding& b) {
            const auto key = [](const Finding& f) {
                return f.location ? std::pair{f.location->line, f.location->column} : std::pair{0, 0};
            };
            return key(a) < key(b);
        });
        return out;
    }

    // The oracle's `parse_window_contract`, refusing (throwing Refusal) where it raises,
    // and where the schema wants a string and the file has something else.
    [[nodiscard]] WindowContract read(const toml::table& root) {
        read_schema_version(root);
        const toml::table* reference = side_table(root, "reference");
        const toml::table* student = side_table(root, "student");
        read_entries(root);
        if (reference) read_side(*reference, "reference", contract_.reference_inputs, contract_.reference_outputs,
                                 contract_.reference_window);
        if (student) read_side(*student, "student", contract_.student_inputs, contract_.student_outputs,
                               contract_.student_window);
        return std::move(contract_);
    }

private:
    [[noreturn]] void refuse(std::string_view key, std::optional<SourceLocation> where, std::string_view problem,
                             std::string_view fix) const {
        std::string message{key};
        message += ' ';
        message += problem;
        message += "; ";
        message += fix;
        throw Refusal{Finding{"malformed", Severity::error, std::nullopt, std::move(message), where}};
    }

    [[noreturn]] void refuse_type(std::string_view key, const toml::node& node, std::string_view wanted,
                                  std::string_view fix) const {
        refuse(key, location_of(node.source()), std::string("is ") + std::string(type_name(node)) + ", not " + std::string(wanted), fix);
    }

    void note_location(std::string key, const toml::source_region& region) {
        if (const auto where = location_of(region)) contract_.locations.insert_or_assign(std::move(key), *where);
    }

    void check_keys(const toml::table& table, const std::string& prefix, std::span<const std::string_view> known,
                    std::vector<Finding>& out) const {
        for (const auto& [key, node] : table) {
            const std::string_view name = key.str();
            if (std::find(known.begin(), known.end(), name) != known.end()) continue;
            const std::string subject = prefix + key_text(name);
            const auto where = location_of(key.source());
            std::string message = "unknown key " + subject + " is ignored; ";
            if (const auto suggestion = detail::closest_key(name, known)) {
                message += "did you mean " + prefix + std::string(*suggestion) + "?";
            } else if (prefix.empty() && std::find(std::begin(side_keys), std::end(side_keys), name) != std::end(side_keys)) {
                message += "it belongs under a [reference] or [student] header";
            } else if (prefix.empty() && std::find(std::begin(entry_keys), std::end(entry_keys), name) != std::end(entry_keys)) {
                message += "it belongs in an [[asymmetry]] entry";
            } else {
                message += "the keys here are ";
                for (std::size_t i = 0; i < known.size(); ++i) message += (i ? ", " : "") + std::string(known[i]);
            }
            out.push_back({"unknown-key", Severity::warning, subject, std::move(message), where});
        }
    }

    void read_schema_version(const toml::table& root) {
        const toml::node* version = root.get("schema_version");
        if (!version) return;
        // Python's `version != 1`: 1, 1.0 and true all equal 1.
        const bool one = (version->is_integer() && version->as_integer()->get() == 1) ||
                         (version->is_floating_point() && version->as_floating_point()->get() == 1.0) ||
                         (version->is_boolean() && version->as_boolean()->get());
        if (one) return;
        std::string problem = "is ";
        problem += version->is_string() ? "the string \"" + version->as_string()->get() + "\""
                                        : std::string(type_name(*version));
        if (version->is_integer()) problem = "is " + std::to_string(version->as_integer()->get());
        problem += ", but this ForgeKernel reads schema version 1";
        refuse("schema_version", location_of(version->source()), problem, "write schema_version = 1");
    }

    const toml::table* side_table(const toml::table& root, std::string_view side) {
        const toml::node* node = root.get(side);
        if (!node || python_falsy(*node)) return nullptr;
        if (!node->is_table()) {
            refuse_type(side, *node, "a table",
                        "write [" + std::string(side) + "] with window, inputs and outputs under it");
        }
        note_location(std::string(side), node->source());
        return node->as_table();
    }

    void read_side(const toml::table& table, std::string_view side, std::vector<std::string>& inputs,
                   std::vector<std::string>& outputs, std::string& window) {
        for (const auto& [key, node] : table) {
            const std::string_view name = key.str();
            note_location(std::string(side) + "." + std::string(name), key.source());
            const KeyPath path{side, name};
            if (name == "inputs") {
                inputs = string_list(node, path);
            } else if (name == "outputs") {
                outputs = string_list(node, path);
            } else if (name == "window") {
                window = string_value(node, path);
            }
        }
    }

    // `_str_list`: strings, stripped, empty ones dropped, repeats dropped (first kept).
    std::vector<std::string> string_list(const toml::node& node, const KeyPath& path) const {
        const toml::array* array = node.as_array();
        if (!array) refuse_type(path.text(), node, "an array of strings", list_fix(path.key));
        // Short lists (every real one) are deduplicated by a scan, long ones by a set.
        constexpr std::size_t short_list = 32;
        std::unordered_set<std::string_view> seen;
        std::vector<std::string> out;
        out.reserve(array->size());
        for (const toml::node& item : *array) {
            if (!item.is_string()) {
                refuse(path.text(), location_of(item.source()),
                       "holds " + std::string(type_name(item)) + " where a tensor name belongs", list_fix(path.key));
            }
            const std::string_view name = detail::python_strip(item.as_string()->get());
            if (name.empty()) continue;
            const bool repeated = array->size() <= short_list ? std::find(out.begin(), out.end(), name) != out.end()
                                                              : !seen.insert(name).second;
            if (!repeated) out.emplace_back(name);
        }
        return out;
    }

    static std::string list_fix(std::string_view key) {
        return "list the tensor names as strings, e.g. " + std::string(key) + " = [\"q\", \"k\"]";
    }

    // A string value, stripped as Python's str.strip() does.
    std::string string_value(const toml::node& node, const KeyPath& path) const {
        if (!node.is_string()) {
            refuse_type(path.text(), node, "a string", "quote it, e.g. " + std::string(path.key) + " = " + std::string(example_of(path.key)));
        }
        return std::string(detail::python_strip(node.as_string()->get()));
    }

    static std::string_view example_of(std::string_view key) {
        if (key == "class") return "\"price\" (symmetrize, price or accept)";
        if (key == "produced_by") return "\"forward\" (forward, prep, cache or other)";
        if (key == "derived_from") return "\"k, beta\"";
        if (key == "student_kernel_regex" || key == "ref_kernel_regex") return "\"rebuild_\"";
        if (key == "note") return "\"what the extra work is\"";
        if (key == "dtype") return "\"bf16\"";
        if (key == "window") return "\"the timed call, in words\"";
        return "\"A\"";  // the four kinds: a tensor name
    }

    void read_entries(const toml::table& root) {
        const toml::node* node = root.get("asymmetry");
        if (!node || python_falsy(*node)) return;
        const toml::array* entries = node->as_array();
        if (!entries) refuse_entries(*node);
        for (const toml::node& entry : *entries) {
            if (!entry.is_table()) refuse_entries(entry);
        }
        contract_.asymmetries.reserve(entries->size());
        int index = 0;
        for (const toml::node& entry : *entries) read_entry(*entry.as_table(), ++index);
    }

    [[noreturn]] void refuse_entries(const toml::node& at) const {
        refuse("asymmetry", location_of(at.source()), "must be an array of tables, not " + std::string(type_name(at)),
               "declare each entry as its own [[asymmetry]] table");
    }

    void read_entry(const toml::table& table, int index) {
        const std::string key = entry_key(index);
        const auto where = location_of(table.source());
        note_location(key, table.source());
        Asymmetry entry;
        entry.index = index;
        std::vector<std::string_view> keyed;  // the kinds with a name, as found
        for (const auto& [name_key, node] : table) {
            const std::string_view name = name_key.str();
            note_location(key + "." + std::string(name), name_key.source());
            const KeyPath path{key, name};
            if (const auto kind = kind_from_string(name)) {
                std::string tensor = string_value(node, path);
                if (tensor.empty()) continue;  // the oracle's str(...).strip(): keys nothing
                keyed.push_back(name);
                entry.kind = *kind;
                entry.name = std::move(tensor);
            } else if (name == "shape") {
                entry.shape = read_shape(node, path);
            } else if (std::string* field = text_field(entry, name)) {
                *field = string_value(node, path);
            }
        }
        if (keyed.size() != 1) {
            if (keyed.empty()) {
                refuse(key, where, "names no tensor: an entry is keyed by exactly one of ref_input, student_input, "
                                   "ref_output, student_output",
                       "add the one that says which list the tensor is extra on, e.g. ref_input = \"A\"");
            }
            std::string several = "is keyed by ";
            for (std::size_t i = 0; i < keyed.size(); ++i) several += (i ? " and " : "") + std::string(keyed[i]);
            refuse(key, where, several + ", but an entry is keyed by exactly one kind",
                   "keep one, and declare each other difference in its own [[asymmetry]] entry");
        }
        contract_.asymmetries.push_back(std::move(entry));
    }

    // The entry's string field a key fills, or null for the kinds, shape and unknown keys.
    static std::string* text_field(Asymmetry& entry, std::string_view key) {
        if (key == "class") return &entry.cls;
        if (key == "produced_by") return &entry.produced_by;
        if (key == "derived_from") return &entry.derived_from;
        if (key == "student_kernel_regex") return &entry.student_kernel_regex;
        if (key == "ref_kernel_regex") return &entry.ref_kernel_regex;
        if (key == "note") return &entry.note;
        if (key == "dtype") return &entry.dtype;
        return nullptr;
    }

    std::vector<std::int64_t> read_shape(const toml::node& node, const KeyPath& path) const {
        const std::string_view fix = "write the shape as a list of integers, e.g. shape = [4, 128, 64]";
        const toml::array* array = node.as_array();
        if (!array) refuse_type(path.text(), node, "an array of integers", fix);
        std::vector<std::int64_t> shape;
        shape.reserve(array->size());
        for (const toml::node& item : *array) {
            if (!item.is_integer()) {
                refuse(path.text(), location_of(item.source()),
                       "holds " + std::string(type_name(item)) + " where a dimension belongs", fix);
            }
            shape.push_back(item.as_integer()->get());
        }
        return shape;
    }

    WindowContract contract_;
};

Finding malformed(std::string message, std::optional<SourceLocation> where = std::nullopt) {
    return {"malformed", Severity::error, std::nullopt, std::move(message), where};
}

// Whether `where` (1-based line and column, in code points) is the end of its
// line: toml++ reports a one-line string that reaches its line's end as an
// "unescaped control character" there (the line break), which is most often a
// missing closing quote.
bool at_line_end(std::string_view text, SourceLocation where) {
    std::size_t start = 0;
    for (int line = 1; line < where.line; ++line) {
        start = text.find('\n', start);
        if (start == std::string_view::npos) return false;
        ++start;
    }
    std::string_view line = text.substr(start, text.find('\n', start) - start);
    if (line.ends_with('\r')) line.remove_suffix(1);
    const auto code_points = std::count_if(line.begin(), line.end(), [](char c) { return (c & 0xC0) != 0x80; });
    return where.column == code_points + 1;
}

// Refusals decided before toml++ sees the text: sizes and shapes it should not be fed.
std::optional<Finding> refuse_before_parsing(std::string_view text, std::string_view label) {
    const std::string file{label};
    if (text.size() > max_contract_bytes) {
        return malformed(file + " is larger than " + std::to_string(max_contract_bytes) +
                         " bytes, the most a contract may take (one is a few hundred): "
                         "check that this is the window.toml you meant");
    }
    if (text.starts_with("\xEF\xBB\xBF")) {
        return malformed("the file starts with a UTF-8 byte order mark, which TOML does not allow; "
                         "save it as UTF-8 without a BOM",
                         SourceLocation{1, 1});
    }
    // Every level of nesting takes a '.', '[' or '{': with few of them the scan is moot.
    const auto structural = std::count_if(text.begin(), text.end(), [](char c) { return c == '.' || c == '[' || c == '{'; });
    if (static_cast<std::size_t>(structural) <= max_nesting) return std::nullopt;
    if (const auto deep = detail::find_nesting_deeper_than(text, max_nesting)) {
        return malformed("keys or values nest more than " + std::to_string(max_nesting) +
                             " levels deep; a contract needs three",
                         *deep);
    }
    return std::nullopt;
}

}  // namespace

ParsedContract parse_window_contract(std::string_view text, std::string_view path) {
    const std::string_view label = path.empty() ? window_filename : path;
    ParsedContract out;
    if (auto refusal = refuse_before_parsing(text, label)) {
        out.findings.push_back(std::move(*refusal));
        return out;
    }
    toml::table root;
    try {
        root = toml::parse(text);
    } catch (const toml::parse_error& error) {
        const auto where = location_of(error.source());
        std::string message = "not valid TOML: ";
        message += error.description();
        if (where && error.description().find("control character") != std::string_view::npos &&
            at_line_end(text, *where)) {
            message += " (the line ends inside a string: is its closing quote missing?)";
        }
        message += "; fix the syntax there (TOML 1.0, https://toml.io)";
        out.findings.push_back(malformed(std::move(message), where));
        return out;
    }
    ContractReader reader;
    std::vector<Finding> warnings = reader.unknown_keys(root);
    try {
        out.contract = reader.read(root);
        out.contract->path = std::string(path);
        out.contract->digest = contract_digest(text);
    } catch (Refusal& refusal) {
        out.findings.push_back(std::move(refusal.finding));
    }
    std::move(warnings.begin(), warnings.end(), std::back_inserter(out.findings));
    return out;
}

std::filesystem::path contract_file(const std::filesystem::path& file_or_dir) {
    std::error_code error;
    return std::filesystem::is_directory(file_or_dir, error) ? file_or_dir / window_filename : file_or_dir;
}

namespace {

// The cards up to two levels below `dir` (a project's or repository's root given
// for a card), as the paths to pass instead: "; cards below it: a b (pass those)".
std::string cards_below(const std::filesystem::path& dir) {
    std::error_code error;
    if (!std::filesystem::is_directory(dir, error)) return {};
    std::vector<std::string> cards;
    std::filesystem::recursive_directory_iterator it(
        dir, std::filesystem::directory_options::skip_permission_denied, error);
    for (; !error && it != std::filesystem::recursive_directory_iterator(); it.increment(error)) {
        if (it.depth() >= 1) it.disable_recursion_pending();
        if (it->is_directory(error) && std::filesystem::exists(it->path() / window_filename, error)) {
            cards.push_back(it->path().lexically_normal().string());
        }
    }
    if (cards.empty()) return {};
    std::sort(cards.begin(), cards.end());
    std::string out = "; cards below it: ";
    for (std::size_t i = 0; i < cards.size() && i < 8; ++i) out += (i == 0 ? "" : " ") + cards[i];
    return out + (cards.size() > 8 ? " ..." : "") + " (pass those)";
}

}  // namespace

ParsedContract load_window_contract(const std::filesystem::path& file_or_dir) {
    const std::filesystem::path file = contract_file(file_or_dir);
    const std::string label = file.string();
    ParsedContract out;
    errno = 0;
    const std::unique_ptr<std::FILE, int (*)(std::FILE*)> stream(std::fopen(label.c_str(), "rb"), &std::fclose);
    if (!stream) {
        if (errno == ENOENT || errno == ENOTDIR) {
            out.findings.push_back({"contract-absent", Severity::error, std::nullopt,
                                    label + " does not exist: every operator declares its reference's and its "
                                            "student's timed-call boundaries there; scaffold the card with "
                                            "forge_add_operator(<name>), or copy templates/window.toml and fill it in" +
                                            cards_below(file_or_dir),
                                    std::nullopt});
        } else {
            out.findings.push_back(malformed(label + " cannot be read: " + std::strerror(errno) + "; make it readable"));
        }
        return out;
    }
    // Reading stops one chunk past the limit: an oversized file is refused without reading it all.
    std::string text;
    char chunk[16384];
    while (text.size() <= max_contract_bytes) {
        const std::size_t read = std::fread(chunk, 1, sizeof chunk, stream.get());
        text.append(chunk, read);
        if (read < sizeof chunk) break;
    }
    if (std::ferror(stream.get())) {
        const int error = errno;
        out.findings.push_back(malformed(error == EISDIR ? label + " is a directory; window.toml must be a file"
                                                         : label + " cannot be read: " + std::strerror(error) +
                                                               "; make it readable"));
        return out;
    }
    return parse_window_contract(text, label);
}

}  // namespace forge
