#define BOOST_TEST_MODULE contract_rules
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "forge/contract/parse.hpp"
#include "forge/contract/rules.hpp"

using forge::Finding;

namespace {

// A declared contract: the reference receives q, k, A and produces o, lse; the
// student receives q, k, g and produces o, aux. Entries are appended.
constexpr std::string_view lists = "schema_version = 1\n"
                                   "[reference]\n"
                                   "inputs = [\"q\", \"k\", \"A\"]\n"
                                   "outputs = [\"o\", \"lse\"]\n"
                                   "[student]\n"
                                   "inputs = [\"q\", \"k\", \"g\"]\n"
                                   "outputs = [\"o\", \"aux\"]\n";

// Entries that declare every difference above, cleanly.
constexpr std::string_view clean_entries = "[[asymmetry]]\nref_input = \"A\"\nclass = \"price\"\n"
                                           "derived_from = \"g\"\nstudent_kernel_regex = \"solve_\"\n"
                                           "[[asymmetry]]\nref_output = \"lse\"\nclass = \"accept\"\n"
                                           "[[asymmetry]]\nstudent_output = \"aux\"\nclass = \"accept\"\n";

struct Checked {
    std::string text;
    std::vector<Finding> findings;
    std::vector<Finding> warnings;
};

Checked check(std::string text) {
    const forge::ParsedContract parsed = forge::parse_window_contract(text);
    BOOST_REQUIRE_MESSAGE(parsed.contract.has_value(), "the test's contract must parse: " << text);
    Checked out{std::move(text), forge::window_findings(*parsed.contract), forge::window_warnings(*parsed.contract)};
    return out;
}

Checked check_entries(std::string_view entries) { return check(std::string(lists) + std::string(clean_entries) + std::string(entries)); }

// The 1-based line where `needle` first occurs at or after `from`.
int line_of(std::string_view text, std::string_view needle, std::string_view after = {}) {
    const std::size_t start = after.empty() ? 0 : text.find(after);
    BOOST_REQUIRE(start != std::string_view::npos);
    const std::size_t at = text.find(needle, start);
    BOOST_REQUIRE(at != std::string_view::npos);
    return 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(at), '\n'));
}

std::vector<std::string> codes(const std::vector<Finding>& findings) {
    std::vector<std::string> out;
    for (const Finding& f : findings) out.push_back(f.code);
    return out;
}

const Finding* with_code(const std::vector<Finding>& findings, std::string_view code) {
    const auto it =
        std::find_if(findings.begin(), findings.end(), [&](const Finding& f) { return f.code == code; });
    return it == findings.end() ? nullptr : &*it;
}

// Exactly one finding with `code`, about `subject`, on `line`.
void expect_one(const std::vector<Finding>& findings, std::string_view code, std::string_view subject, int line) {
    BOOST_TEST(std::count_if(findings.begin(), findings.end(), [&](const Finding& f) { return f.code == code; }) == 1,
               code);
    const Finding* f = with_code(findings, code);
    BOOST_REQUIRE_MESSAGE(f != nullptr, "no " << code);
    BOOST_TEST(f->subject.value_or("") == subject, code);
    BOOST_REQUIRE_MESSAGE(f->location.has_value(), code << " has no location");
    BOOST_TEST(f->location->line == line, code);
}

void expect_none(const std::vector<Finding>& findings, std::string_view code) {
    BOOST_TEST(with_code(findings, code) == nullptr, code << " raised");
}

}  // namespace

BOOST_AUTO_TEST_CASE(a_declared_consistent_contract_has_nothing_to_say) {
    const Checked c = check_entries("");
    BOOST_TEST(c.findings.empty(), codes(c.findings).size() << " findings");
    BOOST_TEST(c.warnings.empty());
}

BOOST_AUTO_TEST_CASE(empty_lists_are_reported_alone) {
    const std::string text = "[reference]\ninputs = []\noutputs = [\"o\"]\n[student]\ninputs = [\"q\"]\n"
                             "[[asymmetry]]\nref_input = \"nowhere\"\nclass = \"bogus\"\n";
    const Checked c = check(text);
    // Only the empty lists: the Python oracle returns before looking at any entry.
    BOOST_REQUIRE((codes(c.findings) == std::vector<std::string>{"list-empty", "list-empty"}));
    BOOST_TEST(c.findings[0].subject.value() == "[reference].inputs");
    BOOST_TEST(c.findings[0].location->line == 2);
    BOOST_TEST(c.findings[1].subject.value() == "[student].outputs");
    // No outputs key: the [student] table is where it belongs.
    BOOST_TEST(c.findings[1].location->line == 4);
    BOOST_TEST(c.warnings.empty());  // nothing is priced on an undeclared contract
    const Checked placeholder = check("schema_version = 1\n");
    BOOST_TEST(placeholder.findings.size() == 4u);
    BOOST_TEST(!placeholder.findings[0].location.has_value());
}

BOOST_AUTO_TEST_CASE(a_duplicate_entry_is_reported_once_and_not_checked_again) {
    const Checked c = check_entries("[[asymmetry]]\nref_input = \"A\"\nclass = \"bogus\"\n");
    expect_one(c.findings, "entry-duplicate", "ref_input=A", line_of(c.text, "[[asymmetry]]", "aux\"\nclass"));
    expect_none(c.findings, "class-invalid");
    // The same name under another kind is a different entry.
    const Checked other = check_entries("[[asymmetry]]\nstudent_input = \"A\"\nclass = \"accept\"\n");
    expect_none(other.findings, "entry-duplicate");
}

BOOST_AUTO_TEST_CASE(an_entry_must_name_something_on_its_own_list) {
    const Checked c = check_entries("[[asymmetry]]\nref_input = \"g\"\nclass = \"accept\"\n");
    expect_one(c.findings, "entry-not-listed", "ref_input=g", line_of(c.text, "ref_input = \"g\""));
    const Checked listed = check_entries("[[asymmetry]]\nstudent_input = \"g\"\nclass = \"accept\"\n");
    expect_none(listed.findings, "entry-not-listed");
}

BOOST_AUTO_TEST_CASE(an_invalid_class_stops_the_entry_checks) {
    const Checked c = check_entries(
        "[[asymmetry]]\nstudent_input = \"g\"\nclass = \"prices\"\nproduced_by = \"magic\"\nshape = [1]\n");
    expect_one(c.findings, "class-invalid", "student_input=g", line_of(c.text, "class = \"prices\""));
    BOOST_TEST(with_code(c.findings, "class-invalid")->message.find("(did you mean price?)") != std::string::npos);
    expect_none(c.findings, "produced-by-invalid");
    expect_none(c.findings, "prep-decl-misplaced");
    // No class at all: the entry's table is where the fix goes.
    const Checked missing = check_entries("[[asymmetry]]\nstudent_input = \"g\"\n");
    expect_one(missing.findings, "class-invalid", "student_input=g",
               line_of(missing.text, "[[asymmetry]]\nstudent_input = \"g\""));
    BOOST_TEST(with_code(missing.findings, "class-invalid")->message.find("has no class; give it one") !=
               std::string::npos);
    for (std::string_view cls : {"symmetrize", "price", "accept"}) {
        expect_none(check_entries("[[asymmetry]]\nstudent_input = \"g\"\nclass = \"" + std::string(cls) + "\"\n").findings,
                    "class-invalid");
    }
}

BOOST_AUTO_TEST_CASE(outputs_cannot_be_symmetrized) {
    const std::string entry = "[[asymmetry]]\nref_output = \"lse\"\nclass = \"symmetrize\"\n";
    std::string text = std::string(lists) + "[[asymmetry]]\nref_input = \"A\"\nclass = \"accept\"\nderived_from = \"g\"\n" +
                       "[[asymmetry]]\nstudent_output = \"aux\"\nclass = \"accept\"\n" + entry;
    const Checked c = check(text);
    expect_one(c.findings, "output-symmetrize", "ref_output=lse", line_of(c.text, "class = \"symmetrize\""));
    // The Python oracle's README, difference 4: the oracle also asks for shape and dtype; so do we.
    expect_one(c.findings, "prep-shape-missing", "ref_output=lse", line_of(c.text, "[[asymmetry]]\nref_output"));
    expect_one(c.findings, "prep-dtype-missing", "ref_output=lse", line_of(c.text, "[[asymmetry]]\nref_output"));
    expect_none(check_entries("").findings, "output-symmetrize");
}

BOOST_AUTO_TEST_CASE(an_output_both_sides_produce_needs_no_entry) {
    const Checked c = check_entries("[[asymmetry]]\nstudent_output = \"o\"\nclass = \"price\"\n");
    expect_one(c.findings, "output-both-sides", "student_output=o", line_of(c.text, "student_output = \"o\""));
    expect_none(c.findings, "entry-not-listed");  // o is on [student].outputs
    expect_none(check_entries("").findings, "output-both-sides");
}

BOOST_AUTO_TEST_CASE(symmetrize_needs_both_sides_and_price_needs_one) {
    const Checked one_side = check_entries(
        "[[asymmetry]]\nstudent_input = \"g\"\nclass = \"symmetrize\"\nshape = [4]\ndtype = \"fp32\"\n");
    expect_one(one_side.findings, "symmetrize-one-side", "student_input=g",
               line_of(one_side.text, "class = \"symmetrize\""));
    const Checked both = check_entries("[[asymmetry]]\nref_input = \"q\"\nclass = \"accept\"\n");
    expect_one(both.findings, "input-both-sides", "ref_input=q",
               line_of(both.text, "class = \"accept\"", "ref_input = \"q\""));
    const Checked fine = check_entries(
        "[[asymmetry]]\nref_input = \"q\"\nclass = \"symmetrize\"\nshape = [4]\ndtype = \"fp32\"\n");
    expect_none(fine.findings, "symmetrize-one-side");
    expect_none(fine.findings, "input-both-sides");
    BOOST_TEST(fine.findings.empty());
}

BOOST_AUTO_TEST_CASE(produced_by_must_be_known_when_given) {
    const Checked c = check_entries("[[asymmetry]]\nstudent_input = \"g\"\nclass = \"accept\"\nproduced_by = \"oven\"\n");
    expect_one(c.findings, "produced-by-invalid", "student_input=g", line_of(c.text, "produced_by"));
    BOOST_TEST(with_code(c.findings, "produced-by-invalid")->message.find("did you mean") == std::string::npos);
    const Checked typo =
        check_entries("[[asymmetry]]\nstudent_input = \"g\"\nclass = \"accept\"\nproduced_by = \"froward\"\n");
    BOOST_TEST(with_code(typo.findings, "produced-by-invalid")->message.find("(did you mean forward?)") !=
               std::string::npos);
    for (std::string_view producer : {"forward", "prep", "cache", "other"}) {
        expect_none(check_entries("[[asymmetry]]\nstudent_input = \"g\"\nclass = \"accept\"\nproduced_by = \"" +
                                  std::string(producer) + "\"\n")
                        .findings,
                    "produced-by-invalid");
    }
}

BOOST_AUTO_TEST_CASE(a_prep_produced_symmetrize_entry_declares_shape_and_dtype) {
    const Checked c = check_entries("[[asymmetry]]\nref_input = \"q\"\nclass = \"symmetrize\"\nshape = []\n");
    const int entry = line_of(c.text, "[[asymmetry]]\nref_input = \"q\"");
    expect_one(c.findings, "prep-shape-missing", "ref_input=q", entry);  // an empty shape declares nothing
    expect_one(c.findings, "prep-dtype-missing", "ref_input=q", entry);
    // A warm cache is not a tensor the prep step hands over.
    const Checked cache =
        check_entries("[[asymmetry]]\nref_input = \"q\"\nclass = \"symmetrize\"\nproduced_by = \"cache\"\n");
    BOOST_TEST(cache.findings.empty());
}

BOOST_AUTO_TEST_CASE(only_prep_produced_symmetrize_entries_carry_shape_or_dtype) {
    const Checked shape = check_entries("[[asymmetry]]\nstudent_input = \"g\"\nclass = \"accept\"\nshape = [4, 4]\n");
    expect_one(shape.findings, "prep-decl-misplaced", "student_input=g", line_of(shape.text, "shape ="));
    const Checked dtype = check_entries("[[asymmetry]]\nstudent_input = \"g\"\nclass = \"accept\"\ndtype = \"bf16\"\n");
    expect_one(dtype.findings, "prep-decl-misplaced", "student_input=g", line_of(dtype.text, "dtype ="));
    const Checked cache = check_entries(
        "[[asymmetry]]\nref_input = \"q\"\nclass = \"symmetrize\"\nproduced_by = \"cache\"\ndtype = \"bf16\"\n");
    expect_one(cache.findings, "prep-decl-misplaced", "ref_input=q", line_of(cache.text, "dtype ="));
    // An empty shape is no declaration.
    expect_none(check_entries("[[asymmetry]]\nstudent_input = \"g\"\nclass = \"accept\"\nshape = []\n").findings,
                "prep-decl-misplaced");
}

BOOST_AUTO_TEST_CASE(the_regex_belongs_to_the_side_that_pays) {
    // ref_input: the student pays, so ref_kernel_regex is the wrong key.
    const Checked c = check_entries(
        "[[asymmetry]]\nref_input = \"q\"\nclass = \"symmetrize\"\nshape = [1]\ndtype = \"fp32\"\n"
        "ref_kernel_regex = \"x\"\n");
    expect_one(c.findings, "regex-wrong-side", "ref_input=q", line_of(c.text, "ref_kernel_regex"));
    // student_input: the reference pays.
    const Checked s = check_entries("[[asymmetry]]\nstudent_input = \"g\"\nclass = \"price\"\n"
                                    "student_kernel_regex = \"x\"\nref_kernel_regex = \"y\"\n");
    expect_one(s.findings, "regex-wrong-side", "student_input=g", line_of(s.text, "student_kernel_regex = \"x\""));
    expect_none(s.findings, "regex-not-price");
}

BOOST_AUTO_TEST_CASE(only_price_entries_carry_a_regex) {
    const Checked c = check_entries("[[asymmetry]]\nstudent_input = \"g\"\nclass = \"accept\"\nref_kernel_regex = \"(\"\n");
    expect_one(c.findings, "regex-not-price", "student_input=g", line_of(c.text, "ref_kernel_regex"));
    expect_none(c.findings, "regex-invalid");  // not compiled unless priced
}

BOOST_AUTO_TEST_CASE(the_payers_regex_must_compile_as_python_would) {
    const Checked c = check_entries("[[asymmetry]]\nstudent_input = \"g\"\nclass = \"price\"\nref_kernel_regex = \"k(\"\n");
    expect_one(c.findings, "regex-invalid", "student_input=g", line_of(c.text, "ref_kernel_regex"));
    BOOST_TEST(with_code(c.findings, "regex-invalid")->message.find("unterminated subpattern") != std::string::npos);
    for (std::string_view valid : {"a{", "(?P<x>k)(?P=x)", "x{,3}"}) {
        expect_none(check_entries("[[asymmetry]]\nstudent_input = \"g\"\nclass = \"price\"\nref_kernel_regex = '" +
                                  std::string(valid) + "'\n")
                        .findings,
                    "regex-invalid");
    }
    const Checked perl = check_entries("[[asymmetry]]\nstudent_input = \"g\"\nclass = \"price\"\nref_kernel_regex = '\\q'\n");
    expect_one(perl.findings, "regex-invalid", "student_input=g", line_of(perl.text, "ref_kernel_regex"));
}

BOOST_AUTO_TEST_CASE(every_difference_in_inputs_needs_an_entry_both_ways) {
    const std::string text = std::string(lists) + "[[asymmetry]]\nref_output = \"lse\"\nclass = \"accept\"\n";
    const Checked c = check(text);
    expect_one(c.findings, "ref-input-undeclared", "A", line_of(text, "inputs = [\"q\", \"k\", \"A\"]"));
    expect_one(c.findings, "student-input-undeclared", "g", line_of(text, "inputs = [\"q\", \"k\", \"g\"]"));
    expect_one(c.findings, "student-output-undeclared", "aux", line_of(text, "outputs = [\"o\", \"aux\"]"));
    expect_none(c.findings, "ref-output-undeclared");
    const Checked outputs = check(std::string(lists) + "[[asymmetry]]\nstudent_output = \"aux\"\nclass = \"accept\"\n");
    expect_one(outputs.findings, "ref-output-undeclared", "lse", line_of(outputs.text, "outputs = [\"o\", \"lse\"]"));
}

BOOST_AUTO_TEST_CASE(derived_from_explains_the_raw_form_on_the_other_side) {
    const std::string outputs = "[[asymmetry]]\nref_output = \"lse\"\nclass = \"accept\"\n"
                                "[[asymmetry]]\nstudent_output = \"aux\"\nclass = \"accept\"\n";
    // A ref_input entry explains the student's raw inputs...
    const Checked student_side = check(std::string(lists) + outputs +
                                       "[[asymmetry]]\nref_input = \"A\"\nclass = \"accept\"\nderived_from = \"k,\\tg\"\n");
    BOOST_TEST(student_side.findings.empty());
    // ... and a student_input entry explains the reference's.
    const Checked reference_side = check(std::string(lists) + outputs +
                                         "[[asymmetry]]\nstudent_input = \"g\"\nclass = \"accept\"\nderived_from = \"A\"\n");
    BOOST_TEST(reference_side.findings.empty());
    // Output entries explain nothing.
    const Checked none = check(std::string(lists) + "[[asymmetry]]\nref_output = \"lse\"\nclass = \"accept\"\nderived_from = \"A g\"\n"
                                                    "[[asymmetry]]\nstudent_output = \"aux\"\nclass = \"accept\"\n");
    expect_one(none.findings, "ref-input-undeclared", "A", 3);
    expect_one(none.findings, "student-input-undeclared", "g", 6);
}

BOOST_AUTO_TEST_CASE(findings_keep_the_oracles_order) {
    const Checked c = check(std::string(lists) +
                            "[[asymmetry]]\nref_input = \"zz\"\nclass = \"accept\"\nproduced_by = \"x\"\n"
                            "[[asymmetry]]\nref_input = \"zz\"\nclass = \"accept\"\n");
    BOOST_TEST((codes(c.findings) ==
                std::vector<std::string>{"entry-not-listed", "produced-by-invalid", "entry-duplicate",
                                         "ref-input-undeclared", "student-input-undeclared",
                                         "ref-output-undeclared", "student-output-undeclared"}));
}

BOOST_AUTO_TEST_CASE(price_without_the_payers_regex_is_a_warning) {
    const Checked c = check_entries("[[asymmetry]]\nstudent_input = \"g\"\nclass = \"price\"\n"
                                    "student_kernel_regex = \"wrong side\"\n");
    BOOST_REQUIRE(c.warnings.size() == 1u);
    const Finding& w = c.warnings[0];
    BOOST_TEST(w.code == "price-unpriced");
    BOOST_TEST(!w.is_error());
    BOOST_TEST(w.subject.value() == "student_input=g");
    BOOST_TEST(w.location->line == line_of(c.text, "class = \"price\"", "student_input = \"g\""));
    BOOST_TEST(w.message.find("ref_kernel_regex") != std::string::npos);
    // Priced entries and other classes say nothing.
    BOOST_TEST(check_entries("").warnings.empty());
    // The oracle warns for every price entry, a duplicate included.
    const Checked twice = check_entries("[[asymmetry]]\nstudent_input = \"g\"\nclass = \"price\"\n"
                                        "[[asymmetry]]\nstudent_input = \"g\"\nclass = \"price\"\n");
    BOOST_TEST(twice.warnings.size() == 2u);
}

BOOST_AUTO_TEST_CASE(contracts_built_in_code_have_no_locations) {
    forge::WindowContract contract;
    contract.reference_inputs = {"q"};
    contract.student_inputs = {"q", "g"};
    contract.reference_outputs = {"o"};
    contract.student_outputs = {"o"};
    const std::vector<Finding> findings = forge::window_findings(contract);
    BOOST_REQUIRE(findings.size() == 1u);
    BOOST_TEST(findings[0].code == "student-input-undeclared");
    BOOST_TEST(findings[0].subject.value() == "g");
    BOOST_TEST(!findings[0].location.has_value());
}
