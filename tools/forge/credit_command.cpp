#include <algorithm>
#include <iostream>
#include <stdexcept>
#include <string>
#include <string_view>

#include "forge/credit/credit.hpp"
#include "forge/credit/gate.hpp"
#include "forge/ctest/credit_measurements.hpp"
#include "forge/eval/table_file.hpp"
#include "forge/exit_code.hpp"
#include "forge/report/credit_view.hpp"
#include "commands.hpp"

namespace forge::cli {

namespace {

// Puts each "WORKLOAD=FILE" table of `side` in its workload of `eval`, in place
// of the bench's own; the coverage rule then holds the file's profiler digest
// to the bench's timed reading like any table. Says on `notes` what came from
// where. Throws EvalError for a file that cannot be read, std::invalid_argument
// for a workload the eval does not have.
void use_tables(EvalReport& eval, Side side, const std::vector<std::string>& specs, std::ostream* notes) {
    for (const std::string& spec : specs) {
        const auto equals = spec.find('=');
        std::string workload = equals == std::string::npos ? "" : spec.substr(0, equals);
        const std::string file = equals == std::string::npos ? spec : spec.substr(equals + 1);
        if (workload.empty() && eval.workloads.size() == 1) workload = eval.workloads[0].name;
        const auto it = std::find_if(eval.workloads.begin(), eval.workloads.end(),
                                     [&](const WorkloadReading& w) { return w.name == workload; });
        if (it == eval.workloads.end()) {
            std::string names;
            for (const WorkloadReading& w : eval.workloads) names += (names.empty() ? "" : ", ") + w.name;
            throw std::invalid_argument("--" + std::string(to_string(side)) + "-table " + spec + ": " +
                                        (workload.empty() ? "name the workload (WORKLOAD=FILE)"
                                                          : "no workload '" + workload + "'") +
                                        "; " + eval.path + " has " + (names.empty() ? "none" : names));
        }
        const SideReading table = load_table_file(file);
        SideReading& reading = side == Side::student ? it->student : it->reference;
        reading.kernels = table.kernels;
        reading.profiler = table.profiler;
        if (notes) *notes << "forge credit: the " << to_string(side) << "'s table in workload " << workload << " is "
                          << file << " (imported), held to the bench's timed reading\n";
    }
}

// What crosses one window and not the other, in words: who pays is plain only
// beside it (a student handed int8 weights made at export pays nothing; the
// reference, working from the fp32 ones, does).
std::string_view what_crosses(Kind kind) {
    switch (kind) {
        case Kind::ref_input: return "the reference receives it, the student makes it in its own call";
        case Kind::student_input: return "the student receives it, made before its call; the reference works from "
                                         "its own inputs instead";
        case Kind::ref_output: return "the reference also writes it, the student does not";
        case Kind::student_output: break;
    }
    return "the student also writes it, the reference does not";
}

// The work the contract accepts, which no credit ever takes out: named, so that
// a raw ratio is read knowing what it still carries and who pays for it.
void print_accepted(std::ostream& out, const WindowContract& contract) {
    for (const Asymmetry& entry : contract.asymmetries) {
        if (entry.cls != class_accept) continue;
        out << "accepted, never credited: " << entry.subject() << ", paid by the " << to_string(entry.payer()) << " ("
            << what_crosses(entry.kind) << "): that work stays in the raw and the credited ratio"
            << (entry.note.empty() ? "" : " (" + entry.note + ")") << '\n';
    }
}

}  // namespace

int run_credit(const CreditOptions& options) {
    const std::optional<WindowContract> contract = accepted_contract(options.contract);
    if (!contract) return exit_code::refused;
    std::optional<EvalReport> eval = existing_eval(options.eval);
    if (!eval) return exit_code::skipped;
    if (!measured_under(*contract, *eval, "credit")) return exit_code::usage;
    if (eval->a_a) {
        std::cerr << "forge credit: " << options.eval << " is an A/A run (performance.a_a: the " << eval->a_a->side
                  << " timed against itself): its ratio is the card's noise floor, not the card's; give forge credit "
                     "the card's own eval.json\n";
        return exit_code::usage;
    }
    std::ostream* notes = options.output.format == Format::text ? &std::cout : nullptr;
    try {
        use_tables(*eval, Side::student, options.student_tables, notes);
        use_tables(*eval, Side::reference, options.reference_tables, notes);
    } catch (const std::invalid_argument& e) {
        std::cerr << "forge credit: " << e.what() << '\n';
        return exit_code::usage;
    }

    const RunCredit run = credit_run(*contract, *eval);
    switch (options.output.format) {
        case Format::json: std::cout << to_json(run).dump(2) << '\n'; break;
        case Format::markdown: render_credit_markdown(std::cout, *eval, run); break;
        case Format::text:
            render_credit_text(std::cout, *eval, run, options.output.colour);
            print_accepted(std::cout, *contract);
            break;
        case Format::html:  // refused when the command line is parsed: the page is `forge report`'s
            throw std::logic_error("forge credit renders no HTML");
    }
    // A failed bench's figures are no verdict: none go to the dashboard.
    if (eval->failed()) {
        std::cerr << "forge credit: " << eval->path << ": the bench failed: " << eval->failure()
                  << "\n  Fix what the bench reports and rerun it; until then it has no ratio to credit.\n";
        return exit_code::problems;
    }
    if (options.ctest) {
        for (const std::string& line : credit_measurements(*eval, run)) std::cout << line << '\n';
    }
    // Priced regexes that matched nothing on a run that succeeded fail the credit test.
    const std::vector<CreditIssue> unmatched = unmatched_regexes(run);
    for (const CreditIssue& issue : unmatched) print_issue(std::cerr, eval->path, issue, "error");
    if (!unmatched.empty()) return exit_code::problems;

    if (!options.gate) return exit_code::ok;
    if (!run.raw_ratio) {
        std::cerr << "forge credit: --gate " << *options.gate << ": " << eval->path
                  << " has no raw ratio to hold to it (no performance.ratio, no workload readings)\n";
        return exit_code::problems;
    }
    const GateDecision decision = gate_decision(*options.gate, *run.raw_ratio, eval->ratio_ci);
    // Standard output stays the chosen format's alone (JSON parses).
    std::ostream& held = options.output.format == Format::text ? std::cout : std::cerr;
    switch (decision.outcome) {
        case GateOutcome::pass: held << "forge credit: gate held: " << decision.message << '\n'; return exit_code::ok;
        case GateOutcome::fail:
            std::cerr << "forge credit: gate failed: " << decision.message << '\n';
            return exit_code::problems;
        case GateOutcome::near_tie:
            std::cerr << "forge credit: near-tie: " << decision.message << '\n';
            return exit_code::near_tie;
    }
    return exit_code::problems;
}

}  // namespace forge::cli
