#include <iostream>

#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "forge/contract/check.hpp"
#include "forge/exit_code.hpp"
#include "forge/report/findings_view.hpp"

namespace forge::cli {

int run_check(const CheckOptions& options) {
    nlohmann::json contracts = nlohmann::json::array();
    std::size_t refused = 0;
    std::size_t warnings = 0;
    for (const std::string& path : options.paths) {
        const ContractCheck check = check_contract(path);
        if (check.refused()) ++refused;
        for (const Finding& finding : check.findings) {
            if (!finding.is_error()) ++warnings;
        }
        if (options.output.format == Format::json) {
            contracts.push_back(to_json(check));
            continue;
        }
        for (const Finding& finding : check.findings) std::cout << format_finding(finding, check.path) << '\n';
    }
    if (options.output.format == Format::json) {
        std::cout << nlohmann::json{{"contracts", std::move(contracts)}}.dump(2) << '\n';
    } else {
        std::cout << "forge check: " << options.paths.size() << " contract(s), " << refused << " refused, "
                  << warnings << " warning(s)\n";
    }
    return refused == 0 ? exit_code::ok : exit_code::refused;
}

}  // namespace forge::cli
