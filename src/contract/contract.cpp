#include "forge/contract/contract.hpp"

#include <algorithm>
#include <iterator>
#include <unordered_set>

#include "python_text.hpp"

namespace forge {

std::string_view to_string(Severity severity) noexcept {
    return severity == Severity::error ? "error" : "warning";
}

std::string_view to_string(Side side) noexcept {
    return side == Side::reference ? "reference" : "student";
}

std::string_view to_string(Kind kind) noexcept {
    switch (kind) {
        case Kind::ref_input: return "ref_input";
        case Kind::student_input: return "student_input";
        case Kind::ref_output: return "ref_output";
        case Kind::student_output: return "student_output";
    }
    return "ref_input";
}

std::optional<Kind> kind_from_string(std::string_view text) noexcept {
    for (Kind kind : all_kinds) {
        if (to_string(kind) == text) return kind;
    }
    return std::nullopt;
}

Side payer(Kind kind) noexcept {
    return kind == Kind::ref_input || kind == Kind::student_output ? Side::student : Side::reference;
}

bool is_input(Kind kind) noexcept { return kind == Kind::ref_input || kind == Kind::student_input; }

std::string_view regex_key(Side payer) noexcept {
    return payer == Side::student ? "student_kernel_regex" : "ref_kernel_regex";
}

const std::string& Asymmetry::regex() const noexcept {
    return payer() == Side::student ? student_kernel_regex : ref_kernel_regex;
}

const std::string& Asymmetry::wrong_side_regex() const noexcept {
    return payer() == Side::student ? ref_kernel_regex : student_kernel_regex;
}

bool Asymmetry::prep_checked() const noexcept {
    return cls == class_symmetrize && produced_by != "cache";
}

bool Asymmetry::priced() const noexcept { return cls == class_price && !regex().empty(); }

bool Asymmetry::unpriced() const noexcept { return cls == class_price && regex().empty(); }

std::vector<std::string> Asymmetry::derived_names() const {
    return detail::split_python_names(derived_from);
}

std::string Asymmetry::subject() const {
    std::string out{to_string(kind)};
    out += '=';
    out += name;
    return out;
}

bool WindowContract::declared() const noexcept {
    return !reference_inputs.empty() && !student_inputs.empty() && !reference_outputs.empty() &&
           !student_outputs.empty();
}

namespace {

std::vector<std::string> missing_from(const std::vector<std::string>& names,
                                      const std::vector<std::string>& have) {
    const std::unordered_set<std::string> present(have.begin(), have.end());
    std::vector<std::string> out;
    std::copy_if(names.begin(), names.end(), std::back_inserter(out),
                 [&](const std::string& name) { return !present.contains(name); });
    return out;
}

template <typename Pred>
std::vector<const Asymmetry*> select(const std::vector<Asymmetry>& entries, Pred pred) {
    std::vector<const Asymmetry*> out;
    for (const Asymmetry& a : entries) {
        if (pred(a)) out.push_back(&a);
    }
    return out;
}

}  // namespace

std::vector<std::string> WindowContract::missing_on_student() const {
    return missing_from(reference_inputs, student_inputs);
}

std::vector<std::string> WindowContract::extra_on_student() const {
    return missing_from(student_inputs, reference_inputs);
}

std::vector<std::string> WindowContract::outputs_missing_on_student() const {
    return missing_from(reference_outputs, student_outputs);
}

std::vector<std::string> WindowContract::outputs_extra_on_student() const {
    return missing_from(student_outputs, reference_outputs);
}

const Asymmetry* WindowContract::entry(Kind kind, std::string_view name) const noexcept {
    for (const Asymmetry& a : asymmetries) {
        if (a.kind == kind && a.name == name) return &a;
    }
    return nullptr;
}

std::vector<const Asymmetry*> WindowContract::priced_entries() const {
    return select(asymmetries, [](const Asymmetry& a) { return a.priced(); });
}

std::vector<const Asymmetry*> WindowContract::unpriced_entries() const {
    return select(asymmetries, [](const Asymmetry& a) { return a.unpriced(); });
}

std::vector<const Asymmetry*> WindowContract::prep_entries() const {
    return select(asymmetries, [](const Asymmetry& a) { return a.prep_checked(); });
}

std::optional<SourceLocation> WindowContract::location_of(std::string_view key) const {
    while (!key.empty()) {
        if (auto it = locations.find(key); it != locations.end()) return it->second;
        const auto dot = key.find_last_of('.');
        if (dot == std::string_view::npos) break;
        key = key.substr(0, dot);
    }
    return std::nullopt;
}

}  // namespace forge
