#include <iostream>

#include "commands.hpp"
#include "forge/exit_code.hpp"
#include "forge/prep/prep_check.hpp"

namespace forge::cli {

namespace {

void print_problem(const PrepProblem& problem, const std::string& eval_path) {
    std::cout << eval_path << ": error[" << problem.code << ']';
    if (problem.subject) std::cout << ' ' << *problem.subject;
    std::cout << ": " << problem.message;
    if (!problem.workloads.empty()) {
        std::cout << " (workload" << (problem.workloads.size() > 1 ? "s " : " ");
        for (std::size_t i = 0; i < problem.workloads.size(); ++i) {
            std::cout << (i == 0 ? "" : ", ") << problem.workloads[i];
        }
        std::cout << ')';
    }
    std::cout << '\n';
}

}  // namespace

int run_prep(const PrepOptions& options) {
    const std::optional<WindowContract> contract = accepted_contract(options.contract);
    if (!contract) return exit_code::refused;
    const std::optional<EvalReport> eval = existing_eval(options.eval);
    if (!eval) return exit_code::skipped;
    if (!measured_under(*contract, *eval, "prep")) return exit_code::usage;

    const std::vector<PrepProblem> problems = check_prep(*contract, *eval);
    if (options.output.format == Format::json) {
        std::cout << problems_json(problems).dump(2) << '\n';
    } else if (problems.empty()) {
        const std::size_t held = contract->prep_entries().size();
        std::cout << "forge prep: held: " << held << " prep tensor(s) as declared, correctness "
                  << (eval->correctness_passed ? (*eval->correctness_passed ? "passed" : "failed") : "not reported")
                  << '\n';
    } else {
        for (const PrepProblem& problem : problems) print_problem(problem, eval->path);
    }
    return problems.empty() ? exit_code::ok : exit_code::problems;
}

}  // namespace forge::cli
