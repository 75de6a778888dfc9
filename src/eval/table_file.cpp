#include "forge/eval/table_file.hpp"

#include "eval_reader.hpp"

namespace forge {

SideReading parse_table_file(std::string_view text, std::string_view path) {
    const std::string file(path);
    const nlohmann::json root =
        eval_detail::parse_json_file(text, file, "write it again with `forge table import ... -o FILE`");
    return eval_detail::Reader(text, file).table_file(root);
}

SideReading load_table_file(const std::filesystem::path& file) {
    const std::optional<std::string> text =
        eval_detail::read_json_file(file, "a kernel table from `forge table import`");
    const std::string label = file.string();
    if (!text)
        throw EvalError(label + ": no such table file (write one with `forge table import ... -o " + label + "`)",
                        label, std::nullopt, {});
    return parse_table_file(*text, label);
}

}  // namespace forge
