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

// Findings in the order a reader meets their places in the file; those without
// a place (about the file as a whole) first.
void in_file_order(std::vector<Finding>::iterator first, std::vector<Finding>::iterator last) {
    std::stable_sort(first, last, [](const Finding& a, const Finding& b) {
        if (!a.location || !b.location) return !a.location && b.location;
        return std::pair{a.location->line, a.location->column} < std::pair{b.location->line, b.location->column};
    });
}

// Errors first (the refusal, or the rules' findings) in file order, then the
// warnings: unknown keys, then what the contract cannot yet price.
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
    const auto warnings = std::stable_partition(out.findings.begin(), out.findings.end(),
                                                [](const Finding& f) { return f.is_error(); });
    in_file_order(out.findings.begin(), warnings);
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
