#define BOOST_TEST_MODULE contract_check
#include <boost/test/unit_test.hpp>

#include <filesystem>
#include <string>
#include <vector>

#include "forge/contract/check.hpp"

namespace fs = std::filesystem;
using forge::ContractCheck;
using forge::Finding;

namespace {

const fs::path data_dir = fs::path(FORGE_TEST_DATA_DIR) / "contract";

std::vector<std::string> codes(const ContractCheck& check) {
    std::vector<std::string> out;
    for (const Finding& f : check.findings) out.push_back(f.code);
    return out;
}

constexpr std::string_view declared_lists = "[reference]\ninputs = [\"q\", \"A\"]\noutputs = [\"o\"]\n"
                                            "[student]\ninputs = [\"q\"]\noutputs = [\"o\"]\n";

}  // namespace

BOOST_AUTO_TEST_CASE(a_clean_contract_passes) {
    for (const fs::path& path : {data_dir, data_dir / "window.toml"}) {
        const ContractCheck check = forge::check_contract(path);
        BOOST_TEST(check.path == (data_dir / "window.toml").string());
        BOOST_TEST(check.findings.empty());
        BOOST_TEST(check.declared());
        BOOST_TEST(!check.refused());
        BOOST_TEST(check.contract.has_value());
    }
}

BOOST_AUTO_TEST_CASE(the_scaffolded_placeholder_is_refused_as_undeclared) {
    const ContractCheck check = forge::check_contract(data_dir / "placeholder");
    BOOST_TEST((codes(check) == std::vector<std::string>{"list-empty", "list-empty", "list-empty", "list-empty"}));
    BOOST_TEST(check.contract.has_value());
    BOOST_TEST(!check.declared());
    BOOST_TEST(check.refused());
}

BOOST_AUTO_TEST_CASE(an_absent_contract_is_refused) {
    const ContractCheck check = forge::check_contract(data_dir / "no-such-card");
    BOOST_TEST((codes(check) == std::vector<std::string>{"contract-absent"}));
    BOOST_TEST(!check.contract.has_value());
    BOOST_TEST(check.refused());
    BOOST_TEST(check.path == (data_dir / "no-such-card").string());
}

BOOST_AUTO_TEST_CASE(a_malformed_contract_is_refused_without_rules) {
    const ContractCheck check = forge::check_contract_text("[reference]\ninputs = [1]\n", "ops/x/window.toml");
    BOOST_TEST((codes(check) == std::vector<std::string>{"malformed"}));
    BOOST_TEST(!check.contract.has_value());
    BOOST_TEST(!check.declared());
    BOOST_TEST(check.refused());
    BOOST_TEST(check.path == "ops/x/window.toml");
}

BOOST_AUTO_TEST_CASE(warnings_alone_do_not_refuse) {
    const ContractCheck check = forge::check_contract_text(
        std::string(declared_lists) + "[[asymmetry]]\nref_input = \"A\"\nclass = \"price\"\nnotes = \"typo\"\n",
        "window.toml");
    BOOST_TEST((codes(check) == std::vector<std::string>{"unknown-key", "price-unpriced"}));
    BOOST_TEST(check.declared());
    BOOST_TEST(!check.refused());
}

BOOST_AUTO_TEST_CASE(errors_come_first_then_warnings) {
    const ContractCheck check = forge::check_contract_text(
        std::string(declared_lists) +
            "[[asymmetry]]\nref_input = \"A\"\nclass = \"price\"\ncolor = 1\n"
            "[[asymmetry]]\nref_input = \"A\"\nclass = \"accept\"\n",
        "window.toml");
    BOOST_TEST((codes(check) == std::vector<std::string>{"entry-duplicate", "unknown-key", "price-unpriced"}));
    BOOST_TEST(check.refused());
}

BOOST_AUTO_TEST_CASE(an_unknown_key_never_changes_the_verdict) {
    const std::string clean = std::string(declared_lists) + "[[asymmetry]]\nref_input = \"A\"\nclass = \"accept\"\n";
    const ContractCheck without = forge::check_contract_text(clean, "window.toml");
    const ContractCheck with = forge::check_contract_text("schema_versoin = 2\n" + clean + "studnet_kernel_regex = \"(\"\n",
                                                          "window.toml");
    BOOST_TEST(without.findings.empty());
    BOOST_TEST((codes(with) == std::vector<std::string>{"unknown-key", "unknown-key"}));
    BOOST_TEST(with.refused() == without.refused());
}

// The placeholder's four empty lists, in the order the file declares them
// (the rules find them reference inputs, student inputs, reference outputs, ...).
BOOST_AUTO_TEST_CASE(errors_come_in_file_order) {
    const ContractCheck check = forge::check_contract_text(
        "schema_version = 1\n[reference]\ninputs = []\noutputs = []\n[student]\ninputs = []\noutputs = []\n",
        "window.toml");
    std::vector<std::size_t> lines;
    for (const forge::Finding& finding : check.findings) lines.push_back(finding.location ? finding.location->line : 0);
    BOOST_TEST((lines == std::vector<std::size_t>{3, 4, 6, 7}));
}
