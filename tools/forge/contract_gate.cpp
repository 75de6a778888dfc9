#include <iostream>

#include "commands.hpp"
#include "forge/contract/check.hpp"
#include "forge/report/findings_view.hpp"

namespace forge::cli {

std::optional<WindowContract> accepted_contract(const std::string& path) {
    ContractCheck check = check_contract(path);
    if (!check.refused()) return std::move(check.contract);
    std::cout << "forge: the contract " << check.path << " is refused:\n";
    for (const Finding& finding : check.findings) std::cout << format_finding(finding, check.path) << '\n';
    return std::nullopt;
}

std::optional<EvalReport> existing_eval(const std::string& path) {
    std::optional<EvalReport> eval = load_eval(path);
    if (!eval) {
        std::cout << "forge: " << path << " does not exist: the bench did not run, nothing to check (skipped)\n";
    } else if (eval->skipped) {
        std::cout << "forge: " << path << ": the bench was skipped: " << *eval->skipped << " (nothing to check)\n";
        return std::nullopt;
    }
    return eval;
}

bool measured_under(const WindowContract& contract, const EvalReport& eval, std::string_view command) {
    if (eval.measured_under(contract)) return true;
    std::cerr << "forge " << command << ": " << eval.measured_under_another(contract)
              << ": the file changed since the bench ran, or it is another card's; rerun the bench, or pass the "
                 "contract it ran under\n";
    return false;
}

void print_issue(std::ostream& out, const std::string& file, const CreditIssue& issue, std::string_view severity) {
    out << file << ": " << severity << '[' << issue.code << "] (workload" << (issue.workloads.size() > 1 ? "s " : " ");
    for (std::size_t i = 0; i < issue.workloads.size(); ++i) out << (i == 0 ? "" : ", ") << issue.workloads[i];
    out << "): " << issue.message << '\n';
}

}  // namespace forge::cli
