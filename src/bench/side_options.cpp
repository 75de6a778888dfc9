#include "side_options.hpp"

#include <algorithm>
#include <functional>
#include <set>

namespace forge::bench {

namespace {

using ByLanguage = std::map<std::string, std::vector<std::string>>;

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

// "-fopenmp (C), -march=native (CXX)": what `side` has and `other` lacks.
std::string only_in(const ByLanguage& side, const ByLanguage& other) {
    std::string out;
    for (const auto& [language, options] : side) {
        const auto there = other.find(language);
        const std::set<std::string, std::less<>> theirs =
            there == other.end() ? std::set<std::string, std::less<>>{}
                                 : std::set<std::string, std::less<>>(there->second.begin(), there->second.end());
        for (const std::string& option : options) {
            if (!theirs.contains(option)) out += (out.empty() ? "" : ", ") + option + " (" + language + ")";
        }
    }
    return out;
}

}  // namespace

ByLanguage options_by_language(std::string_view lines) {
    ByLanguage out;
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
    const ByLanguage reference = options_by_language(reference_lines);
    const ByLanguage student = options_by_language(student_lines);
    const std::string student_alone = only_in(student, reference);
    const std::string reference_alone = only_in(reference, student);
    if (student_alone.empty() && reference_alone.empty()) return std::nullopt;
    std::string notice = "the sides were compiled with different options (build.reference_options, "
                         "build.student_options):";
    if (!student_alone.empty()) notice += " the student alone has " + student_alone;
    if (!reference_alone.empty()) {
        notice += std::string(student_alone.empty() ? "" : ";") + " the reference alone has " + reference_alone;
    }
    return notice + ": the ratio then measures the options too. An option both sides should have goes to both "
                    "(forge_add_operator's LIBRARIES reach both; target_compile_options on forge_<name>_student "
                    "reaches the student alone, on forge_<name>_bench the reference alone)";
}

}  // namespace forge::bench
