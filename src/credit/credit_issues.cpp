#include <map>

#include "forge/credit/credit.hpp"

namespace forge {

namespace {

// Every workload's reasons (or warnings) of `code`, grouped by message text: a
// contract's regex usually fails the same way in every workload.
template <typename Pick>
std::vector<CreditIssue> grouped(const RunCredit& run, std::string_view code, Pick reasons_of) {
    std::vector<CreditIssue> out;
    std::map<std::string, std::size_t, std::less<>> index_of;
    for (const WorkloadCredit& workload : run.workloads) {
        if (!workload.credit) continue;
        for (const CreditReason& reason : reasons_of(*workload.credit)) {
            if (reason.code != code) continue;
            const auto [it, fresh] = index_of.try_emplace(reason.message, out.size());
            if (fresh) out.push_back({reason.code, reason.message, {}});
            out[it->second].workloads.push_back(workload.name);
        }
    }
    return out;
}

}  // namespace

std::vector<CreditIssue> unmatched_regexes(const RunCredit& run) {
    return grouped(run, credit_code::regex_unmatched, [](const Credit& credit) -> const auto& { return credit.why; });
}

std::vector<CreditIssue> credit_warnings(const RunCredit& run) {
    return grouped(run, credit_code::match_implausible,
                   [](const Credit& credit) -> const auto& { return credit.warnings; });
}

nlohmann::json to_json(const std::vector<CreditIssue>& issues) {
    nlohmann::json out = nlohmann::json::array();
    for (const CreditIssue& issue : issues) {
        out.push_back({{"code", issue.code}, {"message", issue.message}, {"workloads", issue.workloads}});
    }
    return out;
}

}  // namespace forge
