// The Python oracle's `_kind_findings`, `window_findings` and `window_warnings`, rule
// for rule and in the same order, as findings with stable codes and subjects.
#include "forge/contract/rules.hpp"

#include <algorithm>
#include <array>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_set>

#include "forge/contract/python_regex.hpp"
#include "key_suggestion.hpp"

namespace forge {
namespace {

constexpr std::string_view producers[] = {"forward", "prep", "cache", "other"};
constexpr std::string_view classes[] = {class_symmetrize, class_price, class_accept};

bool is_class(std::string_view cls) noexcept {
    return std::find(std::begin(classes), std::end(classes), cls) != std::end(classes);
}

bool is_producer(std::string_view producer) noexcept {
    return std::find(std::begin(producers), std::end(producers), producer) != std::end(producers);
}

// " (did you mean price?)" for a value a small edit from a known one; "" otherwise.
std::string suggestion(std::string_view typed, std::span<const std::string_view> known) {
    const std::optional<std::string_view> closest = detail::closest_key(typed, known);
    return closest ? " (did you mean " + std::string(*closest) + "?)" : "";
}

// One of the four lists: what findings call it, and where the file declares it.
struct ListName {
    std::string_view label;  // "[reference].inputs", the `list-empty` subject
    std::string_view key;    // "reference.inputs", its location key
};

constexpr ListName reference_inputs{"[reference].inputs", "reference.inputs"};
constexpr ListName student_inputs{"[student].inputs", "student.inputs"};
constexpr ListName reference_outputs{"[reference].outputs", "reference.outputs"};
constexpr ListName student_outputs{"[student].outputs", "student.outputs"};

using NameSet = std::unordered_set<std::string_view>;

NameSet name_set(const std::vector<std::string>& names) { return {names.begin(), names.end()}; }

std::size_t kind_index(Kind kind) noexcept { return static_cast<std::size_t>(kind); }

// The contract's lists as sets, and which list is an entry's own and which the other side's.
class Lists {
public:
    explicit Lists(const WindowContract& contract)
        : sets_{name_set(contract.reference_inputs), name_set(contract.student_inputs),
                name_set(contract.reference_outputs), name_set(contract.student_outputs)} {}

    // The names on the list entries of `kind` are extra on (ref_input: [reference].inputs),
    // and on the list they are missing from (ref_input: [student].inputs).
    [[nodiscard]] const NameSet& list(Kind kind) const noexcept { return sets_[kind_index(kind)]; }
    [[nodiscard]] const NameSet& other(Kind kind) const noexcept {
        switch (kind) {
            case Kind::ref_input: return sets_[kind_index(Kind::student_input)];
            case Kind::student_input: return sets_[kind_index(Kind::ref_input)];
            case Kind::ref_output: return sets_[kind_index(Kind::student_output)];
            case Kind::student_output: return sets_[kind_index(Kind::ref_output)];
        }
        return sets_[0];
    }

    static ListName own_name(Kind kind) noexcept {
        switch (kind) {
            case Kind::ref_input: return reference_inputs;
            case Kind::student_input: return student_inputs;
            case Kind::ref_output: return reference_outputs;
            case Kind::student_output: return student_outputs;
        }
        return reference_inputs;
    }

    static ListName other_name(Kind kind) noexcept {
        switch (kind) {
            case Kind::ref_input: return student_inputs;
            case Kind::student_input: return reference_inputs;
            case Kind::ref_output: return student_outputs;
            case Kind::student_output: return reference_outputs;
        }
        return student_inputs;
    }

private:
    std::array<NameSet, 4> sets_;  // indexed like Kind: reference inputs, student inputs, ...
};

Side other_side(Side side) noexcept { return side == Side::student ? Side::reference : Side::student; }

// Findings about one [[asymmetry]] entry.
class EntryRules {
public:
    EntryRules(const WindowContract& contract, const Asymmetry& entry, std::vector<Finding>& out)
        : contract_(contract), entry_(entry), out_(out), subject_(entry.subject()),
          where_("[[asymmetry]] " + subject_), table_key_("asymmetry[" + std::to_string(entry.index) + "]") {}

    // `_kind_findings`.
    void check(const Lists& lists) {
        const Kind kind = entry_.kind;
        const std::string_view kind_key = to_string(kind);
        const ListName own = Lists::own_name(kind);
        const ListName other = Lists::other_name(kind);
        const bool symmetrize = entry_.cls == class_symmetrize;

        if (!lists.list(kind).contains(entry_.name)) {
            add("entry-not-listed", kind_key,
                "names '" + entry_.name + "', which is not in " + std::string(own.label) + "; add it there, or "
                "correct the name");
        }
        if (!is_class(entry_.cls)) {
            add("class-invalid", "class",
                entry_.cls.empty() ? "has no class; give it one: class = \"symmetrize\", \"price\" or \"accept\""
                                   : "has class = '" + entry_.cls + "'" + suggestion(entry_.cls, classes) +
                                         "; it must be symmetrize, price or accept");
            return;
        }
        const bool on_other = lists.other(kind).contains(entry_.name);
        if (!is_input(kind)) {
            if (symmetrize) {
                add("output-symmetrize", "class",
                    "is an output classed symmetrize, which outputs cannot be (an output both sides produce needs "
                    "no entry); class it price or accept");
            } else if (on_other) {
                add("output-both-sides", kind_key,
                    "is class " + entry_.cls + " but both sides produce it; remove the entry");
            }
        } else {
            if (symmetrize && !on_other) {
                add("symmetrize-one-side", "class",
                    "is class symmetrize but only one side receives it; add it to " + std::string(other.label) +
                        ", or class it price or accept");
            }
            if (!symmetrize && on_other) {
                add("input-both-sides", "class",
                    "is class " + entry_.cls + " but both sides receive it; class it symmetrize, or remove it from " +
                        std::string(other.label));
            }
        }
        if (!entry_.produced_by.empty() && !is_producer(entry_.produced_by)) {
            add("produced-by-invalid", "produced_by",
                "has produced_by = '" + entry_.produced_by + "'" + suggestion(entry_.produced_by, producers) +
                    "; it must be forward, prep, cache or other");
        }
        check_prep_declaration();
        check_regexes();
    }

private:
    void add(std::string_view code, std::string_view key, const std::string& problem) {
        const std::string location_key = key.empty() ? table_key_ : table_key_ + "." + std::string(key);
        out_.push_back({std::string(code), Severity::error, subject_, where_ + " " + problem,
                        contract_.location_of(location_key)});
    }

    // A prep-produced symmetrize entry fences what the student may receive from
    // outside its window, so it must say what that is; no other entry may.
    void check_prep_declaration() {
        const bool has_shape = entry_.shape && !entry_.shape->empty();
        if (entry_.prep_checked()) {
            if (!has_shape) {
                add("prep-shape-missing", "",
                    "is symmetrize but declares no shape; the bench's prep step is held to it: add shape = [...] "
                    "as the student's timed call receives the tensor");
            }
            if (entry_.dtype.empty()) {
                add("prep-dtype-missing", "",
                    "is symmetrize but declares no dtype; the bench's prep step is held to it: add dtype = \"bf16\" "
                    "(or fp32, ...)");
            }
        } else if (has_shape || !entry_.dtype.empty()) {
            add("prep-decl-misplaced", has_shape ? "shape" : "dtype",
                "carries shape/dtype but is not a prep-produced symmetrize entry; only symmetrized inputs are held "
                "to a prep declaration: remove them");
        }
    }

    void check_regexes() {
        const Side payer = entry_.payer();
        const std::string_view own_key = regex_key(payer);
        const std::string_view wrong_key = regex_key(other_side(payer));
        if (!entry_.wrong_side_regex().empty()) {
            add("regex-wrong-side", wrong_key,
                "carries " + std::string(wrong_key) + " but the " + std::string(to_string(payer)) +
                    " side pays for it; use " + std::string(own_key));
        }
        if (entry_.regex().empty()) return;
        if (entry_.cls != class_price) {
            add("regex-not-price", own_key,
                "carries " + std::string(own_key) + " but is class " + entry_.cls +
                    "; only price entries are credited: remove it, or class the entry price");
        } else if (const auto error = python_regex_error(entry_.regex())) {
            add("regex-invalid", own_key,
                "has " + std::string(own_key) + " = '" + entry_.regex() + "', which is not a valid regex (" + *error +
                    "); write it in Python re syntax");
        }
    }

    const WindowContract& contract_;
    const Asymmetry& entry_;
    std::vector<Finding>& out_;
    std::string subject_;
    std::string where_;
    std::string table_key_;
};

// A tensor on one side's list that the other side lacks, with nothing declaring it.
Finding undeclared(std::string_view code, const std::string& name, const WindowContract& contract, ListName list,
                   std::string message) {
    return {std::string(code), Severity::error, name, std::move(message), contract.location_of(list.key)};
}

}  // namespace

std::vector<Finding> window_findings(const WindowContract& contract) {
    std::vector<Finding> out;
    const std::pair<const std::vector<std::string>&, ListName> lists[] = {
        {contract.reference_inputs, reference_inputs},
        {contract.student_inputs, student_inputs},
        {contract.reference_outputs, reference_outputs},
        {contract.student_outputs, student_outputs},
    };
    for (const auto& [names, list] : lists) {
        if (!names.empty()) continue;
        const bool reference = list.key.starts_with("reference");
        out.push_back({"list-empty", Severity::error, std::string(list.label),
                       std::string(list.label) + " is empty; list every tensor the " +
                           (reference ? "reference" : "student") + "'s timed call " +
                           (list.key.ends_with("inputs") ? "receives" : "produces") + ", by " +
                           (reference ? "the reference API's own names" : "the names of the student function's parameters"),
                       contract.location_of(list.key)});
    }
    if (!out.empty()) return out;

    const Lists sets(contract);
    std::array<NameSet, 4> seen;  // entry names per kind
    std::unordered_set<std::string> explained_reference_inputs;
    std::unordered_set<std::string> explained_student_inputs;
    for (const Asymmetry& entry : contract.asymmetries) {
        if (!seen[kind_index(entry.kind)].insert(entry.name).second) {
            out.push_back({"entry-duplicate", Severity::error, entry.subject(),
                           "[[asymmetry]] " + entry.subject() + " is declared twice; keep one entry",
                           contract.location_of("asymmetry[" + std::to_string(entry.index) + "]")});
            continue;
        }
        EntryRules(contract, entry, out).check(sets);
        if (entry.kind == Kind::ref_input) {
            for (std::string& name : entry.derived_names()) explained_student_inputs.insert(std::move(name));
        } else if (entry.kind == Kind::student_input) {
            for (std::string& name : entry.derived_names()) explained_reference_inputs.insert(std::move(name));
        }
    }

    const auto declared = [&](Kind kind) -> const NameSet& { return seen[kind_index(kind)]; };
    for (const std::string& name : contract.reference_inputs) {
        if (sets.list(Kind::student_input).contains(name) || declared(Kind::ref_input).contains(name) ||
            explained_reference_inputs.contains(name)) {
            continue;
        }
        out.push_back(undeclared("ref-input-undeclared", name, contract, reference_inputs,
                                 "reference input '" + name + "' is not a student input and has no [[asymmetry]] "
                                 "ref_input entry; declare it (class symmetrize, price or accept), or name it in a "
                                 "student_input entry's derived_from"));
    }
    for (const std::string& name : contract.student_inputs) {
        if (sets.list(Kind::ref_input).contains(name) || declared(Kind::student_input).contains(name) ||
            explained_student_inputs.contains(name)) {
            continue;
        }
        out.push_back(undeclared("student-input-undeclared", name, contract, student_inputs,
                                 "student input '" + name + "' is not a reference input and has no [[asymmetry]] "
                                 "student_input entry, so the reference computes it inside its window; declare it "
                                 "(class price or accept), or name it in a ref_input entry's derived_from"));
    }
    for (const std::string& name : contract.reference_outputs) {
        if (sets.list(Kind::student_output).contains(name) || declared(Kind::ref_output).contains(name)) continue;
        out.push_back(undeclared("ref-output-undeclared", name, contract, reference_outputs,
                                 "reference output '" + name + "' is not produced by the student and has no "
                                 "[[asymmetry]] ref_output entry; declare it (class price or accept)"));
    }
    for (const std::string& name : contract.student_outputs) {
        if (sets.list(Kind::ref_output).contains(name) || declared(Kind::student_output).contains(name)) continue;
        out.push_back(undeclared("student-output-undeclared", name, contract, student_outputs,
                                 "student output '" + name + "' is not produced by the reference and has no "
                                 "[[asymmetry]] student_output entry; declare it (class price or accept)"));
    }
    return out;
}

std::vector<Finding> window_warnings(const WindowContract& contract) {
    std::vector<Finding> out;
    if (!contract.declared()) return out;
    for (const Asymmetry& entry : contract.asymmetries) {
        if (!entry.unpriced()) continue;
        const std::string_view key = regex_key(entry.payer());
        const std::string table = "asymmetry[" + std::to_string(entry.index) + "]";
        out.push_back({"price-unpriced", Severity::warning, entry.subject(),
                       "[[asymmetry]] " + entry.subject() + " is class price but has no " + std::string(key) +
                           ", so its work is not priced: the credited ratio leaves it in (and is not computed "
                           "where no entry is priced) until the " + std::string(to_string(entry.payer())) +
                           " side's launches doing that work are named: add " + std::string(key) +
                           " (see that side's per-kernel table)",
                       contract.location_of(table + ".class")});
    }
    return out;
}

}  // namespace forge
