#define BOOST_TEST_MODULE vectors
// The reference's verdicts (tests/vectors/*.jsonl, written by generate.py from
// run_oracle.py) must be ForgeKernel's: same codes and subjects, same numbers.
// A disagreement prints the case's input and both answers on a few lines; the
// first FORGE_VECTORS_SHOW (default 20) per file in full, the rest counted by tag.
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "forge/contract/check.hpp"
#include "forge/contract/finding.hpp"

namespace {

using nlohmann::json;

const std::filesystem::path vectors_dir{FORGE_VECTORS_DIR};

std::vector<json> read_vectors(const std::string& file) {
    const std::filesystem::path path = vectors_dir / file;
    std::ifstream in(path);
    BOOST_REQUIRE_MESSAGE(in, "cannot open " << path.string() << " (written by tests/vectors/generate.py)");
    std::vector<json> out;
    std::string line;
    for (int number = 1; std::getline(in, line); ++number) {
        if (line.empty()) continue;
        json vec = json::parse(line, nullptr, /*allow_exceptions=*/false);
        BOOST_REQUIRE_MESSAGE(vec.is_object(), path.string() << ":" << number << ": not a JSON object");
        out.push_back(std::move(vec));
    }
    return out;
}

std::size_t shown_limit() {
    const char* env = std::getenv("FORGE_VECTORS_SHOW");
    return env != nullptr ? static_cast<std::size_t>(std::strtoul(env, nullptr, 10)) : 20;
}

// Cases whose answer differs from the reference's, reported compactly.
class Disagreements {
public:
    explicit Disagreements(std::string file) : file_(std::move(file)) {}

    void add(const json& vec, const std::string& input, const std::string& expected, const std::string& actual) {
        const std::string tag = vec.value("tag", std::string{"-"});
        ++by_tag_[tag.substr(0, tag.find(':'))];
        if (++count_ > limit_) return;
        std::ostringstream out;
        out << vec.value("id", std::string{"?"}) << " (" << tag << ")";
        if (vec.contains("difference")) out << " [" << vec["difference"].get<std::string>() << "]";
        out << "\n  input:    " << input << "\n  expected: " << expected << "\n  actual:   " << actual;
        BOOST_ERROR(out.str());
    }

    void report(std::size_t total) const {
        std::ostringstream out;
        out << file_ << ": " << count_ << " of " << total << " cases disagree with the reference";
        if (count_ > limit_) out << " (" << count_ - limit_ << " not shown; set FORGE_VECTORS_SHOW)";
        for (const auto& [tag, n] : by_tag_) out << "\n  " << tag << ": " << n;
        BOOST_CHECK_MESSAGE(count_ == 0, out.str());
    }

private:
    std::string file_;
    std::size_t limit_ = shown_limit();
    std::size_t count_ = 0;
    std::map<std::string, std::size_t> by_tag_;
};

std::string joined(const std::vector<std::string>& items) {
    std::string out = "[";
    for (const std::string& item : items) out += (out.size() > 1 ? ", " : "") + item;
    return out + "]";
}

// "code[subject]", warnings marked "/w": the unit a multiset of findings compares.
std::string finding_item(std::string_view code, std::string_view severity, const std::optional<std::string>& subject) {
    std::string out{code};
    if (subject) out += "[" + *subject + "]";
    if (severity == "warning") out += "/w";
    return out;
}

std::optional<std::string> optional_string(const json& value) {
    return value.is_null() ? std::nullopt : std::optional<std::string>{value.get<std::string>()};
}

}  // namespace

BOOST_AUTO_TEST_CASE(findings_match_the_reference) {
    const std::vector<json> vectors = read_vectors("findings.jsonl");
    BOOST_TEST(vectors.size() >= 1000u);
    Disagreements bad("findings.jsonl");
    for (const json& vec : vectors) {
        const json& expect = vec["expect"];
        std::vector<std::string> want;
        bool want_refused = false;
        for (const json& f : expect["findings"]) {
            const std::string severity = f["severity"].get<std::string>();
            want.push_back(finding_item(f["code"].get<std::string>(), severity, optional_string(f["subject"])));
            want_refused = want_refused || severity == "error";
        }
        std::sort(want.begin(), want.end());

        std::vector<std::string> got;
        std::string detail;
        bool agrees = false;
        try {
            const forge::ContractCheck check =
                vec["toml"].is_null() ? forge::check_contract(vectors_dir / "no-such-card")
                                      : forge::check_contract_text(vec["toml"].get<std::string>(), "window.toml");
            for (const forge::Finding& f : check.findings) {
                got.push_back(finding_item(f.code, forge::to_string(f.severity), f.subject));
                detail += "\n    " + got.back() + ": " + f.message;
            }
            std::sort(got.begin(), got.end());
            agrees = got == want && check.declared() == expect["declared"].get<bool>() &&
                     check.refused() == want_refused;
            detail = joined(got) + " declared=" + (check.declared() ? "true" : "false") +
                     " refused=" + (check.refused() ? "true" : "false") + detail;
        } catch (const std::exception& e) {
            detail = std::string{"threw: "} + e.what();
        }
        if (!agrees) {
            bad.add(vec, vec["toml"].dump(),
                    joined(want) + " declared=" + (expect["declared"].get<bool>() ? "true" : "false") +
                        " refused=" + (want_refused ? "true" : "false"),
                    detail);
        }
    }
    bad.report(vectors.size());
}
