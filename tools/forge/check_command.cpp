#include <iostream>

#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "forge/contract/check.hpp"
#include "forge/eval/table_file.hpp"
#include "forge/exit_code.hpp"
#include "forge/report/findings_view.hpp"

namespace forge::cli {

namespace {

bool holds_regexes(const CheckOptions& options) {
    return !options.eval.empty() || !options.student_table.empty() || !options.reference_table.empty();
}

// The tables to hold the regexes to, as an eval: the given eval.json, or one
// workload made of the given table files. nullopt (said on stderr) when the
// eval records no measurement.
std::optional<EvalReport> tables_of(const CheckOptions& options) {
    if (!options.eval.empty()) {
        std::optional<EvalReport> eval = load_eval(options.eval);
        if (!eval) throw EvalError(options.eval + ": no such eval.json (run the bench first, or give its path)",
                                   options.eval, std::nullopt, {});
        if (eval->skipped || !eval->measured) {
            std::cerr << "forge check: " << options.eval << " has no kernel tables: "
                      << (eval->skipped ? "the bench was skipped: " + *eval->skipped : eval->failure())
                      << "; give another eval, or table files (--student-table, --reference-table)\n";
            return std::nullopt;
        }
        return eval;
    }
    EvalReport tables;
    tables.path = !options.student_table.empty() ? options.student_table : options.reference_table;
    WorkloadReading workload;
    workload.name = "tables";
    if (!options.student_table.empty()) workload.student = load_table_file(options.student_table);
    if (!options.reference_table.empty()) workload.reference = load_table_file(options.reference_table);
    tables.workloads.push_back(std::move(workload));
    tables.measured = true;
    return tables;
}

// What was not checked: the sides whose priced regexes had no table.
std::vector<std::string> unchecked_sides(const WindowContract& contract, const EvalReport& tables, bool table_files) {
    std::vector<std::string> out;
    for (const Side side : {Side::student, Side::reference}) {
        bool priced = false;
        for (const Asymmetry* entry : contract.priced_entries()) priced = priced || entry->payer() == side;
        if (!priced) continue;
        std::string missing;
        for (const WorkloadReading& w : tables.workloads) {
            const SideReading& reading = w.side(side);
            if (!reading.kernels || reading.kernels->kernels.empty()) missing += (missing.empty() ? "" : ", ") + w.name;
        }
        if (missing.empty()) continue;
        const std::string name(to_string(side));
        out.push_back("the " + name + "'s priced regexes were not held to a table: " +
                      (table_files ? "give --" + name + "-table" : "the eval has no " + name + " table in " + missing));
    }
    return out;
}

struct RegexCheck {
    std::vector<CreditIssue> unmatched;
    std::vector<CreditIssue> warnings;
    std::vector<std::string> unchecked;
};

RegexCheck hold_regexes(const WindowContract& contract, const EvalReport& tables, bool table_files) {
    const RunCredit run = credit_run(contract, tables);
    return {unmatched_regexes(run), credit_warnings(run), unchecked_sides(contract, tables, table_files)};
}

}  // namespace

int run_check(const CheckOptions& options) {
    if (holds_regexes(options) && options.paths.size() != 1) {
        std::cerr << "forge check: --eval and the table options hold one contract's regexes: give one contract, not "
                  << options.paths.size() << '\n';
        return exit_code::usage;
    }
    nlohmann::json contracts = nlohmann::json::array();
    std::size_t refused = 0;
    std::size_t warnings = 0;
    std::size_t unmatched = 0;
    for (const std::string& path : options.paths) {
        const ContractCheck check = check_contract(path);
        if (check.refused()) ++refused;
        for (const Finding& finding : check.findings) {
            if (!finding.is_error()) ++warnings;
        }
        std::optional<RegexCheck> regexes;
        if (holds_regexes(options) && !check.refused()) {
            const std::optional<EvalReport> tables = tables_of(options);
            if (!tables) return exit_code::usage;
            regexes = hold_regexes(*check.contract, *tables, options.eval.empty());
            unmatched += regexes->unmatched.size();
        }
        if (options.output.format == Format::json) {
            nlohmann::json entry = to_json(check);
            if (regexes) {
                entry["regexes"] = {{"unmatched", to_json(regexes->unmatched)},
                                    {"warnings", to_json(regexes->warnings)},
                                    {"unchecked", regexes->unchecked}};
            }
            contracts.push_back(std::move(entry));
            continue;
        }
        for (const Finding& finding : check.findings) std::cout << format_finding(finding, check.path) << '\n';
        if (!regexes) continue;
        for (const CreditIssue& issue : regexes->unmatched) print_issue(std::cout, check.path, issue, "error");
        for (const CreditIssue& issue : regexes->warnings) print_issue(std::cout, check.path, issue, "warning");
        for (const std::string& side : regexes->unchecked) {
            std::cout << check.path << ": note: " << side << '\n';
        }
    }
    if (options.output.format == Format::json) {
        std::cout << nlohmann::json{{"contracts", std::move(contracts)}}.dump(2) << '\n';
    } else {
        std::cout << "forge check: " << options.paths.size() << " contract(s), " << refused << " refused, "
                  << warnings << " warning(s)";
        if (holds_regexes(options)) std::cout << ", " << unmatched << " priced regex problem(s) against the tables";
        std::cout << '\n';
    }
    if (refused > 0) return exit_code::refused;
    return unmatched == 0 ? exit_code::ok : exit_code::problems;
}

}  // namespace forge::cli
