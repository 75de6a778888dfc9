#include "eval_reader.hpp"

#include <fstream>
#include <system_error>

namespace forge::eval_detail {

std::string compose(const std::string& file, const std::optional<SourceLocation>& location, const std::string& key,
                    const std::string& what) {
    std::string out = file;
    if (location) out += ':' + std::to_string(location->line) + ':' + std::to_string(location->column);
    out += ": ";
    if (!key.empty()) out += key + ": ";
    return out + what;
}

std::string describe(const json& value) {
    constexpr std::size_t shown = 40;
    std::string text = value.is_structured() ? "" : value.dump(-1, ' ', false, json::error_handler_t::replace);
    if (text.size() > shown) text = text.substr(0, shown) + "...";
    switch (value.type()) {
        case json::value_t::null: return "null";
        case json::value_t::boolean: return "a boolean (" + text + ")";
        case json::value_t::string: return "a string (" + text + ")";
        case json::value_t::array: return "an array";
        case json::value_t::object: return "an object";
        default: return "a number (" + text + ")";
    }
}

std::optional<std::string> read_json_file(const std::filesystem::path& file, std::string_view expected) {
    std::error_code ec;
    const auto status = std::filesystem::status(file, ec);
    if (status.type() == std::filesystem::file_type::not_found) return std::nullopt;
    const std::string label = file.string();
    if (ec) throw EvalError(label + ": cannot be read: " + ec.message(), label, std::nullopt, {});
    if (std::filesystem::is_directory(status)) {
        throw EvalError(label + ": is a directory, expected " + std::string(expected), label, std::nullopt, {});
    }
    std::ifstream in(file, std::ios::binary);
    std::string text;
    if (in) {
        in.seekg(0, std::ios::end);
        const auto size = in.tellg();
        in.seekg(0, std::ios::beg);
        if (size > 0) text.resize(static_cast<std::size_t>(size));
        in.read(text.data(), static_cast<std::streamsize>(text.size()));
    }
    if (!in) throw EvalError(label + ": cannot be read (permissions?)", label, std::nullopt, {});
    return text;
}

json parse_json_file(std::string_view text, const std::string& file, std::string_view hint) {
    auto parsed = eval_text::parse_bounded(text, eval_max_depth);
    if (auto* error = std::get_if<eval_text::SyntaxError>(&parsed)) {
        throw EvalError(
            compose(file, error->where, {}, "not valid JSON: " + error->what + " (" + std::string(hint) + ")"), file,
            error->where, {});
    }
    return std::move(std::get<json>(parsed));
}

}  // namespace forge::eval_detail
