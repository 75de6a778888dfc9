#include "forge/contract/check.hpp"

#include <algorithm>
#include <iterator>
#include <utility>

#include "forge/contract/parse.hpp"
#include "forge/contract/rules.hpp"

namespace forge {

bool ContractCheck::refused() const noexcept {
    return std::any_of(findings.begin(), findings.end(), [](const Finding& f) { return f.is_error(); });
}

namespace {

void append(std::vector<Finding>& to, std::vector<Finding>&& from) {
    std::move(from.begin(), from.end(), std::back_inserter(to));
}

// Errors first (the refusal, or the rules' findings), then the warnings: unknown
// keys, then what the contract cannot yet price.
ContractCheck checked(ParsedContract parsed, std::string path) {
    ContractCheck out;
    out.path = std::move(path);
    std::vector<Finding> parse_warnings;
    for (Finding& finding : parsed.findings) {
        (finding.is_error() ? out.findings : parse_warnings).push_back(std::move(finding));
    }
    if (parsed.contract) {
        append(out.findings, window_findings(*parsed.contract));
        append(out.findings, std::move(parse_warnings));
        append(out.findings, window_warnings(*parsed.contract));
        out.contract = std::move(parsed.contract);
    } else {
        append(out.findings, std::move(parse_warnings));
    }
    return out;
}

}  // namespace

ContractCheck check_contract(const std::filesystem::path& file_or_dir) {
    return checked(load_window_contract(file_or_dir), contract_file(file_or_dir).string());
}

ContractCheck check_contract_text(std::string_view text, std::string_view path) {
    return checked(parse_window_contract(text, path), std::string(path));
}

}  // namespace forge
