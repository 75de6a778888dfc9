#include "harness/findings.hpp"

#include "rules/declarations.hpp"

namespace forge::bench {

std::string finding_key(Side side, std::string_view what) {
    return std::string(side == Side::reference ? "reference: " : "student: ") + std::string(what);
}

void Findings::fail(const std::string& message) const { fail_in(workload_, message); }

void Findings::notice(const std::string& message) {
    record_.notices.push_back("workload '" + workload_.name + "': " + message);
}

void Findings::problem(const std::string& message) {
    record_.problems.push_back("workload '" + workload_.name + "': " + message);
}

void Findings::run_notice(const std::string& message) { record_.notices.push_back(message); }

bool Findings::once(std::string_view key) { return said_.emplace(key).second; }

bool Findings::once_per_run(std::string_view key) { return record_.said_once.emplace(key).second; }

bool Findings::said(std::string_view key) const { return said_.contains(key) || record_.said_once.contains(key); }

}  // namespace forge::bench
