#include "rules/declarations.hpp"

#include <algorithm>
#include <exception>
#include <utility>

#include "forge/bench/rng.hpp"

namespace forge::bench {

namespace {

std::string joined(const std::vector<std::string>& names) {
    std::string text;
    for (const std::string& name : names) text += (text.empty() ? "" : ", ") + name;
    return text.empty() ? "none" : text;
}

// What window.toml says the prep step produces, against what this bench does.
std::vector<std::string> prep_declaration_problems(const BenchDefinition& bench, const WindowContract& contract,
                                                   const Workload& workload, const std::vector<std::string>& made) {
    std::vector<std::string> problems;
    for (const Asymmetry* entry : contract.prep_entries()) {
        if (!bench.prep_step()) {
            problems.push_back("workload '" + workload.name + "': window.toml symmetrizes '" + entry->name +
                               "' (produced by prep) but the bench has no prep step: give it one with Bench::prep");
        } else if (contains(made, entry->name)) {
            problems.push_back("workload '" + workload.name + "': window.toml says the prep step produces '" +
                               entry->name + "', but the bench's inputs() made it: produce it in the prep step");
        }
    }
    return problems;
}

}  // namespace

std::uint64_t variant_seed(const Workload& workload, int variant) {
    // Variant 0 is the workload's own seed, so its inputs are the ones it names.
    return variant == 0 ? workload.seed : workload.seed ^ (0x9E3779B97F4A7C15ULL * static_cast<std::uint64_t>(variant));
}

std::string side_name(Side side) { return std::string(to_string(side)); }

const std::vector<std::string>& declared_inputs(const WindowContract& contract, Side side) {
    return side == Side::reference ? contract.reference_inputs : contract.student_inputs;
}

const std::vector<std::string>& declared_outputs(const WindowContract& contract, Side side) {
    return side == Side::reference ? contract.reference_outputs : contract.student_outputs;
}

bool contains(const std::vector<std::string>& names, std::string_view name) {
    return std::find(names.begin(), names.end(), name) != names.end();
}

[[noreturn]] void fail_in(const Workload& workload, const std::string& message) {
    throw BenchError("workload '" + workload.name + "': " + message);
}

std::map<std::string, TensorSpec> declared_output_specs(const BenchDefinition& bench, const WindowContract& contract,
                                                        const Workload& workload) {
    std::map<std::string, TensorSpec> specs;
    for (TensorSpec& spec : bench.declare_outputs()(workload)) {
        if (specs.count(spec.name) != 0) fail_in(workload, "outputs() declares '" + spec.name + "' twice");
        const bool declared = contains(contract.reference_outputs, spec.name) ||
                              contains(contract.student_outputs, spec.name);
        if (!declared) {
            fail_in(workload, "outputs() declares '" + spec.name + "', which window.toml lists as an output of "
                              "neither side; remove it from outputs() or declare it in window.toml");
        }
        specs.emplace(spec.name, std::move(spec));
    }
    for (Side s : sides) {
        for (const std::string& name : declared_outputs(contract, s)) {
            if (specs.count(name) == 0) {
                fail_in(workload, "window.toml declares '" + name + "' in [" + side_name(s) +
                                      "].outputs but the bench's outputs() gives no shape for it; add it there");
            }
        }
    }
    for (const auto& entry : bench.accumulating_outputs()) {
        if (specs.count(entry.first) == 0) {
            fail_in(workload, "Bench::accumulates names '" + entry.first + "', which the bench's outputs() does not "
                              "declare: name one of its outputs");
        }
    }
    return specs;
}

Tensors make_host_inputs(const BenchDefinition& bench, const Workload& workload, std::uint64_t seed) {
    Rng rng(seed);
    Tensors made;
    bench.make_inputs()(workload, rng, made);
    for (const Tensor& tensor : made) {
        if (tensor.place() != Place::host) fail_in(workload, "inputs() made '" + tensor.name() + "' outside host memory");
    }
    return made;
}

std::string unmade_input(Side side, const std::string& name, const std::vector<std::string>& made,
                         const std::vector<std::string>& prep_produced) {
    return "window.toml declares '" + name + "' in [" + side_name(side) + "].inputs, but the bench's inputs() did "
           "not make it and its prep step did not produce it (made: " + joined(made) + "; prep produced: " +
           joined(prep_produced) + ")";
}

// Per workload, in order: its outputs, and its inputs made on the host and
// dropped at once (one workload's at a time, as the run holds them). Stops at
// the first workload with a problem: the others would mostly repeat it. An input the prep step may produce is checked in the run, after the prep step.
std::vector<std::string> declaration_problems(const BenchDefinition& bench, const WindowContract& contract) {
    for (const Workload& workload : bench.workloads()) {
        std::vector<std::string> problems;
        try {
            (void)declared_output_specs(bench, contract, workload);
            std::vector<std::string> made;
            for (const Tensor& tensor : make_host_inputs(bench, workload, variant_seed(workload, 0))) {
                made.push_back(tensor.name());
            }
            problems = prep_declaration_problems(bench, contract, workload, made);
            for (Side s : sides) {
                for (const std::string& name : declared_inputs(contract, s)) {
                    if (!contains(made, name) && !bench.prep_step()) fail_in(workload, unmade_input(s, name, made, {}));
                }
            }
        } catch (const std::exception& e) {
            problems.push_back(e.what());
        }
        if (!problems.empty()) return problems;
    }
    return {};
}

}  // namespace forge::bench
