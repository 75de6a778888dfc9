#include "forge/report/findings_view.hpp"

namespace forge {

std::string format_finding(const Finding& finding, std::string_view path) {
    std::string out{path};
    if (finding.location) {
        out += ':' + std::to_string(finding.location->line) + ':' + std::to_string(finding.location->column);
    }
    out += ": ";
    out += to_string(finding.severity);
    out += '[' + finding.code + "]: " + finding.message;
    return out;
}

nlohmann::json to_json(const Finding& finding) {
    nlohmann::json out = {
        {"code", finding.code},
        {"severity", to_string(finding.severity)},
        {"subject", nullptr},
        {"message", finding.message},
        {"line", nullptr},
        {"column", nullptr},
    };
    if (finding.subject) out["subject"] = *finding.subject;
    if (finding.location) {
        out["line"] = finding.location->line;
        out["column"] = finding.location->column;
    }
    return out;
}

nlohmann::json to_json(const ContractCheck& check) {
    nlohmann::json findings = nlohmann::json::array();
    for (const Finding& finding : check.findings) findings.push_back(to_json(finding));
    // The entries a prep step must produce, so the build can hold the card to
    // having one (prep-step-missing) without parsing TOML in CMake.
    nlohmann::json prep_entries = nlohmann::json::array();
    if (check.contract) {
        for (const Asymmetry* entry : check.contract->prep_entries()) {
            const std::optional<SourceLocation> where =
                check.contract->location_of("asymmetry[" + std::to_string(entry->index) + "]");
            prep_entries.push_back({{"subject", entry->subject()},
                                    {"name", entry->name},
                                    {"line", where ? nlohmann::json(where->line) : nlohmann::json()},
                                    {"column", where ? nlohmann::json(where->column) : nlohmann::json()}});
        }
    }
    return {{"path", check.path},
            {"declared", check.declared()},
            {"findings", std::move(findings)},
            {"prep_entries", std::move(prep_entries)}};
}

}  // namespace forge
