#include "forge/eval/eval.hpp"

#include <algorithm>
#include <array>
#include <utility>

#include "forge/eval/eval_keys.hpp"
#include "eval_reader.hpp"

namespace forge {

EvalError::EvalError(std::string message, std::string file_, std::optional<SourceLocation> location_, std::string key_)
    : std::runtime_error(std::move(message)), file(std::move(file_)), location(location_), key(std::move(key_)) {}

bool EvalReport::measured_under(const WindowContract& held_to) const noexcept {
    return !contract_digest || held_to.digest.empty() || *contract_digest == held_to.digest;
}

std::string EvalReport::measured_under_another(const WindowContract& held_to) const {
    return path + " was measured under another window.toml than " + held_to.path + " (" +
           contract_digest.value_or("no digest") + " then, " + held_to.digest + " now)";
}

std::string EvalReport::failure() const {
    if (!problems.empty()) {
        std::string out = problems.front();
        if (problems.size() > 1) out += " (and " + std::to_string(problems.size() - 1) + " more problem(s))";
        return out;
    }
    if (correctness_passed == false) return "its correctness check failed (correctness.passed is false)";
    if (!measured) return "it wrote no measurements (performance is null)";
    return {};
}

bool holds_eval_keys(const nlohmann::json& root) {
    constexpr std::array eval_keys{eval_key::schema_version, eval_key::operator_name, eval_key::backend,
                                   eval_key::contract,       eval_key::skipped,       eval_key::correctness,
                                   eval_key::performance};
    return root.is_object() &&
           std::any_of(eval_keys.begin(), eval_keys.end(), [&](std::string_view key) { return root.contains(key); });
}

EvalReport parse_eval(std::string_view text, std::string_view path) {
    const std::string file(path);
    nlohmann::json root = eval_detail::parse_json_file(text, file, "the bench writes eval.json whole; rerun it");
    return eval_detail::Reader(text, file).read(std::move(root));
}

std::optional<EvalReport> load_eval(const std::filesystem::path& file) {
    const std::optional<std::string> text = eval_detail::read_json_file(file, "the bench's eval.json");
    if (!text) return std::nullopt;
    return parse_eval(*text, file.string());
}

}  // namespace forge
