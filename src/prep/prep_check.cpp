#include "forge/prep/prep_check.hpp"

#include <cstdint>
#include <unordered_map>
#include <unordered_set>

#include "forge/eval/eval_keys.hpp"
#include "forge/eval/python_value.hpp"
#include "forge/prep/dtype.hpp"

namespace forge {

namespace {

using nlohmann::json;
using Entries = std::vector<const Asymmetry*>;

std::string in_quotes(std::string_view name) {
    std::string out(1, '\'');
    out += name;
    out += '\'';
    return out;
}

std::string joined(const std::vector<std::string>& items, std::string_view separator = ", ") {
    std::string out;
    for (const auto& item : items) {
        if (!out.empty()) out += separator;
        out += item;
    }
    return out;
}

std::string shape_text(const std::vector<std::int64_t>& shape) {
    std::vector<std::string> parts;
    parts.reserve(shape.size());
    for (auto n : shape) parts.push_back(std::to_string(n));
    std::string out(1, '[');
    out += joined(parts);
    out += ']';
    return out;
}

const json* member(const json& object, std::string_view key) {
    const auto it = object.find(key);
    return it == object.end() ? nullptr : &*it;
}

// [int(s) for s in (reported or [])]: a string is read character by
// character and an object by its keys, as Python iterates them. nullopt where
// int() raises.
std::optional<std::vector<std::int64_t>> reported_shape(const json* reported) {
    std::vector<std::int64_t> out;
    if (!reported || !python_truthy(*reported)) return out;
    if (reported->is_array()) {
        for (const json& item : *reported) {
            const auto n = python_int(item);
            if (!n) return std::nullopt;
            out.push_back(*n);
        }
        return out;
    }
    if (reported->is_string()) {
        for (char c : reported->get_ref<const std::string&>()) {
            if (c < '0' || c > '9') return std::nullopt;
            out.push_back(c - '0');
        }
        return out;
    }
    if (reported->is_object()) {
        for (const auto& item : reported->items()) {
            const auto n = python_int(json(item.key()));
            if (!n) return std::nullopt;
            out.push_back(*n);
        }
        return out;
    }
    return std::nullopt;  // a number or true: not iterable
}

PrepProblem unreported(const std::string& names) {
    return {std::string(prep_code::unreported),
            std::nullopt,
            "the bench reported no prep block: the symmetrized inputs (" + names +
                ") must be produced outside the timed windows by the bench's prep step, and what it "
                "produced reported in eval.json under performance.prep (outputs: {name: {shape, dtype}})",
            {}};
}

// The Python oracle's _check_prep_block: one prep block (one workload's).
std::vector<PrepProblem> check_block(const Entries& entries, const json& block, const std::string& names) {
    const json* outputs = block.is_object() ? member(block, eval_key::outputs) : nullptr;
    if (!outputs || !outputs->is_object()) return {unreported(names)};
    std::vector<PrepProblem> out;

    if (const json* mutated = member(block, eval_key::mutated); mutated && mutated->is_array() && !mutated->empty()) {
        std::vector<std::string> tensors;
        for (const json& name : *mutated) tensors.push_back(python_str(name));
        const std::string subject = joined(tensors);
        out.push_back({std::string(prep_code::mutated),
                       subject,
                       "the timed call mutated the prep tensor(s) " + subject +
                           ": they are handed to every timed call and must stay read-only (state kept there makes "
                           "every call after the first a copy); copy them inside the timed call instead",
                       {}});
    }

    for (const Asymmetry* a : entries) {
        const json* got = member(*outputs, a->name);
        if (!got || !got->is_object()) {
            std::vector<std::string> produced;
            for (const auto& item : outputs->items())
                produced.push_back(item.key());  // sorted, as the oracle lists them
            out.push_back({std::string(prep_code::missing),
                           a->name,
                           "prep did not produce " + in_quotes(a->name) + " (declared symmetrize; it produced " +
                               (produced.empty() ? std::string("nothing") : joined(produced)) +
                               "): produce it in the prep step, or correct window.toml",
                           {}});
            continue;
        }
        const json* reported = member(*got, eval_key::shape);
        const auto shape = reported_shape(reported);
        if (!shape) {
            out.push_back({std::string(prep_code::shape),
                           a->name,
                           "prep reported " + in_quotes(a->name) + " with shape " + python_str(*reported) +
                               ", which is not a list of integers: the bench must report each prep output's shape "
                               "as its list of dimensions",
                           {}});
        } else if (a->shape && !a->shape->empty() && *shape != *a->shape) {
            out.push_back({std::string(prep_code::shape),
                           a->name,
                           "prep produced " + in_quotes(a->name) + " with shape " + shape_text(*shape) + ", declared " +
                               shape_text(*a->shape) +
                               ": make the prep step produce the declared shape, or correct "
                               "window.toml (a declared shape holds for every workload: a tensor whose "
                               "shape follows the workload needs workloads that agree on it)",
                           {}});
        }
        const json* dtype = member(*got, eval_key::dtype);
        const json reported_dtype = dtype ? *dtype : json();
        if (!a->dtype.empty() && normalize_dtype(reported_dtype) != normalize_dtype(a->dtype)) {
            out.push_back({std::string(prep_code::dtype),
                           a->name,
                           "prep produced " + in_quotes(a->name) + " with dtype " + python_repr(reported_dtype) +
                               ", declared " + in_quotes(a->dtype) +
                               (known_dtype(a->dtype)
                                    ? ": make the prep step produce the declared dtype, or correct window.toml"
                                    : ", which is no dtype forge knows: correct window.toml to one of " +
                                          known_dtypes() + " (or a torch name such as float32)"),
                           {}});
        }
    }

    std::unordered_set<std::string_view> declared;
    for (const Asymmetry* a : entries) declared.insert(a->name);
    for (const auto& item : outputs->items()) {
        if (declared.contains(item.key())) continue;
        const json& got = item.value();
        const auto shown = [&](std::string_view key) {
            const json* value = got.is_object() ? member(got, key) : nullptr;
            return value ? python_str(*value) : std::string("None");
        };
        out.push_back({std::string(prep_code::undeclared),
                       item.key(),
                       "prep produced an undeclared tensor " + in_quotes(item.key()) + " (shape " +
                           shown(eval_key::shape) + ", dtype " + shown(eval_key::dtype) +
                           "): the timed call may only receive what window.toml symmetrizes; declare it on both "
                           "sides, or stop producing it",
                       {}});
    }
    return out;
}

std::string grouping_key(const PrepProblem& p) {
    std::string key = p.code;
    key += '\0';
    key += p.subject ? 's' : 'n';  // no subject differs from every name
    if (p.subject) key += *p.subject;
    key += '\0';
    key += p.message;
    return key;
}

}  // namespace

std::vector<PrepProblem> check_prep_report(const WindowContract& contract, const nlohmann::json& prep_block) {
    if (!contract.declared()) return {};
    const Entries entries = contract.prep_entries();
    if (entries.empty()) return {};
    std::vector<std::string> entry_names;
    for (const Asymmetry* a : entries) entry_names.push_back(a->name);
    const std::string names = joined(entry_names);

    const json* subs = prep_block.is_object() ? member(prep_block, eval_key::workloads) : nullptr;
    if (!subs || !subs->is_array() || subs->empty()) return check_block(entries, prep_block, names);

    // A multi-workload bench runs the prep step once per workload: every
    // workload's block is held, and the same problem on several is said once.
    std::vector<PrepProblem> out;
    std::unordered_map<std::string, std::size_t> seen;
    bool any_block = false;
    for (std::size_t i = 0; i < subs->size(); ++i) {
        const json& sub = (*subs)[i];
        if (!sub.is_object()) continue;
        any_block = true;
        const json* name = member(sub, eval_key::name);
        const std::string tag = name ? python_str(*name) : std::to_string(i);
        for (PrepProblem& problem : check_block(entries, sub, names)) {
            const auto [it, fresh] = seen.try_emplace(grouping_key(problem), out.size());
            if (fresh) out.push_back(std::move(problem));
            out[it->second].workloads.push_back(tag);
        }
    }
    if (!any_block) return {unreported(names)};
    return out;
}

std::vector<PrepProblem> check_prep(const WindowContract& contract, const EvalReport& eval) {
    std::vector<PrepProblem> out;
    const bool failed = eval.correctness_passed == false;
    if (failed) {
        // What the bench caught, where it says: a refused call fails the run as
        // surely as outputs that differ, and the fix is another.
        std::string why = "the student's outputs differ from the reference's";
        if (!eval.problems.empty()) {
            why = "the bench reported: " + eval.problems.front();
            if (eval.problems.size() > 1) why += " (and " + std::to_string(eval.problems.size() - 1) + " more)";
        }
        out.push_back({std::string(prep_code::eval_incorrect),
                       std::nullopt,
                       "the bench's correctness check failed (correctness.passed is false): " + why +
                           "; its times mean nothing until it passes",
                       {}});
    }
    auto prep = check_prep_report(contract, eval.prep);
    for (PrepProblem& problem : prep) {
        if (failed && problem.code == prep_code::unreported) {
            problem.message += " (a bench that fails may stop before it reports one: its failure is above)";
        }
    }
    out.insert(out.end(), std::make_move_iterator(prep.begin()), std::make_move_iterator(prep.end()));
    return out;
}

nlohmann::json to_json(const PrepProblem& problem) {
    return {{"code", problem.code},
            {"subject", problem.subject ? json(*problem.subject) : json()},
            {"message", problem.message},
            {"workloads", problem.workloads}};
}

nlohmann::json problems_json(std::span<const PrepProblem> problems) {
    json list = json::array();
    for (const auto& p : problems) list.push_back(to_json(p));
    return {{"problems", std::move(list)}};
}

}  // namespace forge
