#include "side_options.hpp"

#include <algorithm>
#include <vector>

namespace forge::bench {

namespace {

// Each piece of `text` between `separator`s, empty ones left out.
std::vector<std::string_view> pieces(std::string_view text, char separator) {
    std::vector<std::string_view> out;
    while (!text.empty()) {
        const std::size_t end = std::min(text.find(separator), text.size());
        if (end > 0) out.push_back(text.substr(0, end));
        text.remove_prefix(std::min(end + 1, text.size()));
    }
    return out;
}

}  // namespace

OptionsByLanguage options_by_language(std::string_view lines) {
    OptionsByLanguage out;
    for (const std::string_view line : pieces(lines, '\n')) {
        const std::size_t equals = line.find('=');
        if (equals == std::string_view::npos) continue;
        std::vector<std::string>& options = out[std::string(line.substr(0, equals))];
        for (const std::string_view option : pieces(line.substr(equals + 1), '\t')) options.emplace_back(option);
    }
    return out;
}

std::optional<std::string> side_options_notice(std::string_view reference_lines, std::string_view student_lines) {
    if (reference_lines.empty() || student_lines.empty()) return std::nullopt;
    const std::string alone =
        options_one_side_has_alone(options_by_language(reference_lines), options_by_language(student_lines));
    if (alone.empty()) return std::nullopt;
    return "the sides were compiled with different options (build.reference_options, build.student_options): " +
           alone +
           ": the ratio then measures the options too. An option both sides should have goes to both "
           "(forge_add_operator's LIBRARIES reach both; target_compile_options on forge_<name>_student reaches the "
           "student alone, on forge_<name>_reference the reference alone)";
}

}  // namespace forge::bench
