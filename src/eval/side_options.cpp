#include "forge/eval/side_options.hpp"

#include <functional>
#include <set>

namespace forge {

namespace {

// "-fopenmp (C), -march=native (CXX)": what `side` has and `other` lacks.
std::string only_in(const OptionsByLanguage& side, const OptionsByLanguage& other) {
    std::string out;
    for (const auto& [language, options] : side) {
        std::set<std::string, std::less<>> theirs;
        if (const auto there = other.find(language); there != other.end()) {
            theirs.insert(there->second.begin(), there->second.end());
        }
        for (const std::string& option : options) {
            if (!theirs.contains(option)) out += (out.empty() ? "" : ", ") + option + " (" + language + ")";
        }
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
