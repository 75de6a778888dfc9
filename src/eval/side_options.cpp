#include "forge/eval/side_options.hpp"

#include <algorithm>
#include <functional>
#include <set>
#include <utility>

namespace forge {

namespace {

// "-fopenmp (C), -march=native (C, CXX)": what `side` has and `other` lacks,
// each option once with the languages it has it in.
std::string only_in(const OptionsByLanguage& side, const OptionsByLanguage& other) {
    std::vector<std::pair<std::string, std::vector<std::string>>> languages_of;
    for (const auto& [language, options] : side) {
        std::set<std::string, std::less<>> theirs;
        if (const auto there = other.find(language); there != other.end()) {
            theirs.insert(there->second.begin(), there->second.end());
        }
        for (const std::string& option : options) {
            if (theirs.contains(option)) continue;
            auto entry = std::find_if(languages_of.begin(), languages_of.end(),
                                      [&](const auto& each) { return each.first == option; });
            if (entry == languages_of.end()) entry = languages_of.insert(entry, {option, {}});
            // An option given twice in one language is listed once.
            if (entry->second.empty() || entry->second.back() != language) entry->second.push_back(language);
        }
    }
    std::string out;
    for (const auto& [option, languages] : languages_of) {
        std::string named;
        for (const std::string& language : languages) named += (named.empty() ? "" : ", ") + language;
        out += (out.empty() ? "" : ", ") + option + " (" + named + ")";
    }
    return out;
}

}  // namespace

std::string options_one_side_has_alone(const OptionsByLanguage& reference, const OptionsByLanguage& student) {
    const std::string student_alone = only_in(student, reference);
    const std::string reference_alone = only_in(reference, student);
    std::string out;
    if (!student_alone.empty()) out = "the student alone has " + student_alone;
    if (!reference_alone.empty()) {
        out += (out.empty() ? "" : "; ") + std::string("the reference alone has ") + reference_alone;
    }
    return out;
}

}  // namespace forge
