#define BOOST_TEST_MODULE contract_parse
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <vector>

#include <unistd.h>

#include "forge/contract/digest.hpp"
#include "forge/contract/parse.hpp"

namespace fs = std::filesystem;
using forge::Finding;
using forge::Kind;
using forge::ParsedContract;

namespace {

const fs::path data_dir = fs::path(FORGE_TEST_DATA_DIR) / "contract";

// The 1-based line of the first line of `text` that contains `needle`.
int line_of(std::string_view text, std::string_view needle) {
    const auto at = text.find(needle);
    BOOST_REQUIRE(at != std::string_view::npos);
    return 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(at), '\n'));
}

const Finding* find_code(const ParsedContract& parsed, std::string_view code) {
    const auto it = std::find_if(parsed.findings.begin(), parsed.findings.end(),
                                 [&](const Finding& f) { return f.code == code; });
    return it == parsed.findings.end() ? nullptr : &*it;
}

// The file is refused: one `malformed` error, no subject, no contract. A copy: the
// argument is often a temporary.
Finding refused(const ParsedContract& parsed) {
    BOOST_REQUIRE(!parsed.contract.has_value());
    const Finding* malformed = find_code(parsed, "malformed");
    BOOST_REQUIRE(malformed != nullptr);
    BOOST_TEST(malformed->is_error());
    BOOST_TEST(!malformed->subject.has_value());
    BOOST_TEST(std::count_if(parsed.findings.begin(), parsed.findings.end(),
                             [](const Finding& f) { return f.is_error(); }) == 1);
    return *malformed;
}

bool mentions(const Finding& finding, std::string_view text) {
    return finding.message.find(text) != std::string::npos;
}

// A finding is shown as `file:line:col: severity[code]: message` (format_finding):
// a located message leaves its file and line to that prefix, an unlocated one names its file.
void places_itself_once(const Finding& finding, std::string_view file) {
    if (finding.location) {
        BOOST_TEST(!mentions(finding, file), finding.message);
        BOOST_TEST(!mentions(finding, " line "), finding.message);
    } else {
        BOOST_TEST(mentions(finding, file), finding.message);
    }
}

// A declared contract with room for one entry's keys.
std::string with_entry(std::string_view entry_keys) {
    return "schema_version = 1\n"
           "[reference]\ninputs = [\"q\", \"A\"]\noutputs = [\"o\"]\n"
           "[student]\ninputs = [\"q\"]\noutputs = [\"o\"]\n"
           "[[asymmetry]]\n" +
           std::string(entry_keys);
}

// A fresh directory per test, removed afterwards.
struct TempDir {
    fs::path path;
    TempDir() {
        static int count = 0;
        path = fs::temp_directory_path() /
               ("forge-contract-parse-" + std::to_string(::getpid()) + "-" + std::to_string(++count));
        fs::create_directories(path);
    }
    ~TempDir() {
        std::error_code ignored;
        fs::remove_all(path, ignored);
    }
};

void write(const fs::path& file, std::string_view text) {
    std::ofstream out(file, std::ios::binary);
    out.write(text.data(), static_cast<std::streamsize>(text.size()));
}

}  // namespace

BOOST_AUTO_TEST_CASE(reads_a_declared_contract) {
    const ParsedContract parsed = forge::load_window_contract(data_dir);
    BOOST_REQUIRE(parsed.contract.has_value());
    BOOST_TEST(parsed.findings.empty());
    const forge::WindowContract& c = *parsed.contract;
    BOOST_TEST(c.path == (data_dir / "window.toml").string());
    BOOST_TEST(c.reference_window == "bwd call only (autograd path)");
    BOOST_TEST((c.student_inputs == std::vector<std::string>{"q", "k", "v", "g", "A", "beta", "do"}));
    BOOST_TEST((c.reference_outputs == std::vector<std::string>{"dq", "dk", "dv", "dbeta", "dg"}));
    BOOST_REQUIRE(c.asymmetries.size() == 2u);
    const forge::Asymmetry& priced = c.asymmetries[0];
    BOOST_TEST((priced.kind == Kind::ref_input));
    BOOST_TEST(priced.name == "g_cumsum");
    BOOST_TEST(priced.index == 1);
    BOOST_TEST(priced.student_kernel_regex == "chunk_cumsum");
    BOOST_TEST(priced.derived_from == "g");
    const forge::Asymmetry& prep = c.asymmetries[1];
    BOOST_TEST((prep.shape == std::vector<std::int64_t>{4, 16, 64, 64}));
    BOOST_TEST(prep.dtype == "bf16");
    BOOST_TEST(prep.index == 2);
}

BOOST_AUTO_TEST_CASE(records_where_things_are) {
    std::ifstream in(data_dir / "window.toml");
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const ParsedContract parsed = forge::parse_window_contract(text, "card/window.toml");
    BOOST_REQUIRE(parsed.contract.has_value());
    const forge::WindowContract& c = *parsed.contract;
    BOOST_TEST(c.path == "card/window.toml");
    BOOST_TEST(c.location_of("reference")->line == line_of(text, "[reference]"));
    BOOST_TEST(c.location_of("reference")->column == 1);
    BOOST_TEST(c.location_of("student")->line == line_of(text, "[student]"));
    const int student_inputs = line_of(text, "inputs = [\"q\", \"k\", \"v\", \"g\",");
    BOOST_TEST(c.location_of("student.inputs")->line == student_inputs);
    BOOST_TEST(c.location_of("reference.outputs")->line == line_of(text, "outputs = [\"dq\", \"dk\", \"dv\", \"dbeta\""));
    BOOST_TEST(c.location_of("asymmetry[1]")->line == line_of(text, "[[asymmetry]]"));
    BOOST_TEST(c.location_of("asymmetry[2].shape")->line == line_of(text, "shape ="));
    BOOST_TEST(c.location_of("asymmetry[2].dtype")->column == 1);
    BOOST_TEST(c.location_of("asymmetry[1].student_kernel_regex")->line == line_of(text, "student_kernel_regex"));
    // A key an entry lacks falls back to the entry's table.
    BOOST_TEST(c.location_of("asymmetry[2].ref_kernel_regex")->line == c.location_of("asymmetry[2]")->line);
}

BOOST_AUTO_TEST_CASE(lists_are_stripped_deduplicated_and_empties_dropped) {
    const ParsedContract parsed = forge::parse_window_contract(
        "[reference]\ninputs = [\" q \", \"k\", \"q\", \"\", \"  \", \"\\u00a0k\\u3000\", \"v\"]\n"
        "window = \"  bwd \\t\"\n");
    BOOST_REQUIRE(parsed.contract.has_value());
    BOOST_TEST((parsed.contract->reference_inputs == std::vector<std::string>{"q", "k", "v"}));
    BOOST_TEST(parsed.contract->reference_window == "bwd");
}

BOOST_AUTO_TEST_CASE(entry_values_are_stripped_the_python_way) {
    // U+2003 and U+0085 are whitespace to Python's str.strip(); U+200B is not.
    const ParsedContract parsed =
        forge::parse_window_contract(with_entry("ref_input = \"\\u2003A \"\nclass = \" price\\u0085\"\n"
                                                "student_kernel_regex = \" k1_ \"\ndtype = \"\\u200bbf16\"\n"));
    BOOST_REQUIRE(parsed.contract.has_value());
    const forge::Asymmetry& a = parsed.contract->asymmetries.at(0);
    BOOST_TEST(a.name == "A");
    BOOST_TEST(a.cls == "price");
    BOOST_TEST(a.student_kernel_regex == "k1_");
    BOOST_TEST(a.dtype == "\u200bbf16");
}

BOOST_AUTO_TEST_CASE(placeholder_parses_and_is_not_declared) {
    const ParsedContract parsed = forge::load_window_contract(data_dir / "placeholder" / "window.toml");
    BOOST_REQUIRE(parsed.contract.has_value());
    BOOST_TEST(!parsed.contract->declared());
    // Missing tables are empty lists too, not a refusal.
    const ParsedContract bare = forge::parse_window_contract("schema_version = 1\n");
    BOOST_REQUIRE(bare.contract.has_value());
    BOOST_TEST(!bare.contract->declared());
    BOOST_TEST(bare.findings.empty());
}

BOOST_AUTO_TEST_CASE(schema_version_is_compared_as_python_compares_numbers) {
    // The Python oracle's `version != 1`: 1, 1.0 and true are all one.
    for (std::string_view accepted : {"schema_version = 1", "schema_version = 1.0", "schema_version = true", ""}) {
        BOOST_TEST(forge::parse_window_contract(accepted).contract.has_value(), accepted);
    }
    for (std::string_view wrong : {"schema_version = 2", "schema_version = \"1\"", "schema_version = 0",
                                   "schema_version = false", "schema_version = 1.5", "schema_version = [1]"}) {
        const Finding& f = refused(forge::parse_window_contract(wrong));
        BOOST_TEST(mentions(f, "schema_version"), wrong);
        BOOST_TEST(mentions(f, "write schema_version = 1"), wrong);
        BOOST_TEST(f.location->line == 1);
    }
}

BOOST_AUTO_TEST_CASE(falsy_tables_count_as_absent_like_the_oracle) {
    for (std::string_view text : {"reference = []", "reference = 0", "reference = \"\"", "reference = false",
                                  "student = {}", "asymmetry = {}", "asymmetry = 0", "asymmetry = []",
                                  "[asymmetry]"}) {
        const ParsedContract parsed = forge::parse_window_contract(text);
        BOOST_TEST(parsed.contract.has_value(), text);
    }
}

BOOST_AUTO_TEST_CASE(wrong_table_types_are_malformed) {
    struct Case {
        std::string_view text;
        std::string_view key;
    };
    for (const Case& c : {Case{"reference = 5", "reference"}, Case{"student = \"x\"", "student"},
                          Case{"reference = [1]", "reference"}, Case{"asymmetry = \"x\"", "asymmetry"},
                          Case{"asymmetry = [1]", "asymmetry"}, Case{"asymmetry = [[]]", "asymmetry"},
                          Case{"[asymmetry]\nref_input = \"A\"", "asymmetry"}}) {
        const Finding& f = refused(forge::parse_window_contract(c.text));
        BOOST_TEST(mentions(f, c.key), c.text);
        places_itself_once(f, "window.toml");
    }
}

BOOST_AUTO_TEST_CASE(non_strings_where_strings_belong_are_malformed_naming_key_and_line) {
    // The Python oracle's README, difference 2: the oracle coerces these with str(); ForgeKernel refuses.
    struct Case {
        std::string_view keys;
        std::string_view key;  // as the message names it
    };
    for (const Case& c : {Case{"ref_input = \"A\"\nclass = 1\n", "asymmetry[1].class"},
                          Case{"ref_input = 5\nclass = \"price\"\n", "asymmetry[1].ref_input"},
                          Case{"student_input = [\"A\"]\nclass = \"price\"\n", "asymmetry[1].student_input"},
                          Case{"ref_input = \"A\"\nclass = \"price\"\nproduced_by = true\n", "asymmetry[1].produced_by"},
                          Case{"ref_input = \"A\"\nclass = \"price\"\nderived_from = [\"k\"]\n", "asymmetry[1].derived_from"},
                          Case{"ref_input = \"A\"\nclass = \"price\"\nstudent_kernel_regex = 1\n",
                               "asymmetry[1].student_kernel_regex"},
                          Case{"ref_input = \"A\"\nclass = \"price\"\nref_kernel_regex = 1.5\n",
                               "asymmetry[1].ref_kernel_regex"},
                          Case{"ref_input = \"A\"\nclass = \"price\"\nnote = {a = 1}\n", "asymmetry[1].note"},
                          Case{"ref_input = \"A\"\nclass = \"symmetrize\"\ndtype = 16\n", "asymmetry[1].dtype"}}) {
        const std::string text = with_entry(c.keys);
        const Finding& f = refused(forge::parse_window_contract(text, "ops/x/window.toml"));
        places_itself_once(f, "ops/x/window.toml");
        BOOST_TEST(mentions(f, c.key), f.message);
        BOOST_TEST(mentions(f, "quote it"), f.message);
        const std::string key_name{c.key.substr(c.key.find('.') + 1)};
        BOOST_REQUIRE(f.location.has_value());
        BOOST_TEST(f.location->line == line_of(text, "\n" + key_name + " =") + 1, c.key);
    }
    const std::string window = "[student]\nwindow = 3\n";
    const Finding& f = refused(forge::parse_window_contract(window));
    BOOST_TEST(mentions(f, "student.window"));
    BOOST_TEST(f.location->line == 2);
}

BOOST_AUTO_TEST_CASE(lists_must_hold_strings) {
    for (std::string_view text : {"[reference]\ninputs = [\"q\", 1]\n", "[reference]\ninputs = \"q\"\n",
                                  "[student]\noutputs = [[\"o\"]]\n", "[student]\noutputs = {o = 1}\n"}) {
        const Finding& f = refused(forge::parse_window_contract(text));
        BOOST_TEST(f.location->line == 2, text);
        BOOST_TEST((mentions(f, "reference.inputs") || mentions(f, "student.outputs")), f.message);
        BOOST_TEST(mentions(f, "as strings"), f.message);
    }
}

BOOST_AUTO_TEST_CASE(an_entry_keyed_by_none_or_several_kinds_is_malformed) {
    const std::string none = with_entry("class = \"price\"\n");
    const Finding& f = refused(forge::parse_window_contract(none));
    BOOST_TEST(mentions(f, "asymmetry[1]"));
    BOOST_TEST(mentions(f, "exactly one"));
    BOOST_TEST(f.location->line == line_of(none, "[[asymmetry]]"));
    // A kind that strips to nothing keys nothing (the oracle's str(...).strip()).
    refused(forge::parse_window_contract(with_entry("ref_input = \"  \"\nclass = \"price\"\n")));
    const Finding& several =
        refused(forge::parse_window_contract(with_entry("ref_input = \"A\"\nstudent_input = \"B\"\n")));
    BOOST_TEST(mentions(several, "ref_input and student_input"));
    // Only one kind with a name: the empty one does not count.
    BOOST_TEST(forge::parse_window_contract(with_entry("ref_input = \"A\"\nstudent_output = \"\"\nclass = \"price\"\n"))
                   .contract.has_value());
}

BOOST_AUTO_TEST_CASE(shape_must_be_a_list_of_integers) {
    for (std::string_view shape : {"shape = [4, \"8\"]", "shape = [4, true]", "shape = [4.0]", "shape = 4",
                                   "shape = \"4,8\"", "shape = [[4]]"}) {
        const std::string text = with_entry("ref_input = \"A\"\nclass = \"symmetrize\"\n" + std::string(shape) + "\n");
        const Finding& f = refused(forge::parse_window_contract(text));
        BOOST_TEST(mentions(f, "asymmetry[1].shape"), shape);
        BOOST_TEST(f.location->line == line_of(text, "shape"), shape);
    }
    const ParsedContract empty = forge::parse_window_contract(with_entry("ref_input = \"A\"\nshape = []\n"));
    BOOST_REQUIRE(empty.contract.has_value());
    BOOST_TEST(empty.contract->asymmetries[0].shape->empty());
}

BOOST_AUTO_TEST_CASE(toml_syntax_errors_name_line_and_column) {
    const Finding& f = refused(forge::parse_window_contract("schema_version = 1\n[reference\n", "w/window.toml"));
    BOOST_TEST(f.location->line == 2);
    BOOST_TEST(f.location->column > 1);
    places_itself_once(f, "w/window.toml");
    BOOST_TEST(mentions(f, "not valid TOML"));
    BOOST_TEST(!mentions(f, "closing quote"));
    // Duplicate keys are a TOML error too.
    BOOST_TEST(refused(forge::parse_window_contract("a = 1\na = 2\n")).location->line == 2);
}

BOOST_AUTO_TEST_CASE(a_string_missing_its_closing_quote_is_named_as_such) {
    // toml++ calls it an unescaped control character: the line break the string reached.
    for (std::string_view text : {"[reference]\nwindow = \"one call\ninputs = [\"q\"]\n",
                                  "[reference]\r\nwindow = \"caf\u00e9 call\r\ninputs = [\"q\"]\r\n",
                                  "[reference]\ninputs = [\"q]\noutputs = [\"o\"]\n"}) {
        const Finding& f = refused(forge::parse_window_contract(text));
        BOOST_TEST(f.location->line == 2, text);
        BOOST_TEST(mentions(f, "is its closing quote missing?"), f.message);
    }
}

BOOST_AUTO_TEST_CASE(unknown_keys_warn_with_a_suggestion_and_change_nothing) {
    const std::string text = "schema_versoin = 1\n"
                             "[reference]\nwindw = \"w\"\ninputs = [\"q\", \"A\"]\noutputs = [\"o\"]\n"
                             "[student]\ninputs = [\"q\"]\noutputs = [\"o\"]\n"
                             "[[asymmetry]]\nref_input = \"A\"\nclass = \"price\"\n"
                             "[[asymmetry]]\nref_input = \"q\"\nclass = \"price\"\nstudnet_kernel_regex = \"k1_\"\n"
                             "colour = \"blue\"\n";
    const ParsedContract parsed = forge::parse_window_contract(text);
    BOOST_REQUIRE(parsed.contract.has_value());
    BOOST_REQUIRE(parsed.findings.size() == 4u);
    struct Expected {
        std::string_view subject;
        std::string_view suggestion;
    };
    const Expected expected[] = {{"schema_versoin", "did you mean schema_version?"},
                                 {"reference.windw", "did you mean reference.window?"},
                                 {"asymmetry[2].studnet_kernel_regex", "did you mean asymmetry[2].student_kernel_regex?"},
                                 {"asymmetry[2].colour", "the keys here are"}};
    for (std::size_t i = 0; i < 4; ++i) {
        const Finding& f = parsed.findings[i];
        BOOST_TEST(f.code == "unknown-key");
        BOOST_TEST(!f.is_error());
        BOOST_TEST(*f.subject == expected[i].subject);
        BOOST_TEST(mentions(f, expected[i].suggestion), f.message);
        const std::string key{expected[i].subject.substr(expected[i].subject.rfind('.') + 1)};
        BOOST_TEST(f.location->line == line_of(text, key), key);
        places_itself_once(f, "window.toml");
    }
    // The typo'd regex key is ignored: the entry stays unpriced.
    BOOST_TEST(parsed.contract->asymmetries[1].student_kernel_regex.empty());
}

BOOST_AUTO_TEST_CASE(unknown_keys_come_with_a_refusal_too) {
    // The typo is why the entry names no tensor: say both.
    const ParsedContract parsed = forge::parse_window_contract(with_entry("ref_inptu = \"A\"\nclass = \"price\"\n"));
    refused(parsed);
    const Finding* hint = find_code(parsed, "unknown-key");
    BOOST_REQUIRE(hint != nullptr);
    BOOST_TEST(*hint->subject == "asymmetry[1].ref_inptu");
    BOOST_TEST(mentions(*hint, "did you mean asymmetry[1].ref_input?"));
}

BOOST_AUTO_TEST_CASE(keys_that_belong_elsewhere_say_where) {
    const ParsedContract parsed = forge::parse_window_contract("inputs = [\"q\"]\nclass = \"price\"\n\"odd key\" = 1\n");
    BOOST_REQUIRE(parsed.findings.size() == 3u);
    BOOST_TEST(mentions(parsed.findings[0], "under a [reference] or [student] header"));
    BOOST_TEST(mentions(parsed.findings[1], "in an [[asymmetry]] entry"));
    BOOST_TEST(*parsed.findings[2].subject == "\"odd key\"");
}

BOOST_AUTO_TEST_CASE(hostile_input_is_refused_quickly_and_safely) {
    const std::string cases[] = {
        "a = " + std::string(300000, '['),
        "a = " + std::string(300000, '{'),
        std::string(300000, '['),
        "a" + std::string(100000, '.') + " = 1",
        [] {
            std::string deep = "a";
            for (int i = 0; i < 100000; ++i) deep += ".a";
            return deep + " = 1\n";
        }(),
        [] {
            std::string deep = "[a";
            for (int i = 0; i < 100000; ++i) deep += ".a";
            return deep + "]\n";
        }(),
        [] {
            std::string deep = "[[a";
            for (int i = 0; i < 100000; ++i) deep += ".\"a\"";
            return deep + "]]\n";
        }(),
        [] {
            std::string deep = "x = ";
            for (int i = 0; i < 200; ++i) deep += "{a.b.c = ";
            return deep;
        }(),
        "note = \"" + std::string(30u << 20, 'x') + "\"\n",
        std::string("schema_version = 1\0\n", 20),
        std::string("schema_version = 1\n\0", 20),
        "a = \"\xff\xfe\"\n",
        "# \xc3\n",
        "\xef\xbb\xbfschema_version = 1\n",
        [] {
            std::string garbage;
            for (int i = 0; i < 4096; ++i) garbage += static_cast<char>((i * 131 + 7) & 0xff);
            return garbage;
        }(),
    };
    for (const std::string& text : cases) {
        const ParsedContract parsed = forge::parse_window_contract(text);
        const Finding& f = refused(parsed);
        places_itself_once(f, "window.toml");
    }
}

BOOST_AUTO_TEST_CASE(strings_do_not_hide_or_fake_nesting) {
    // Dots and brackets inside strings and comments are not structure.
    std::string text = "note = \"" + std::string(1000, '.') + std::string(1000, '[') + "\"\n# " +
                       std::string(1000, '{') + "\nx = '''" + std::string(1000, '.') + "'''\n";
    BOOST_TEST(forge::parse_window_contract(text).contract.has_value());
    // A multi-line string ending in extra quotes does not swallow what follows.
    std::string deep = "x = \"\"\"a\"\"\"\"\"\n";
    deep += "a";
    for (int i = 0; i < 1000; ++i) deep += ".a";
    deep += " = 1\n";
    refused(forge::parse_window_contract(deep));
}

BOOST_AUTO_TEST_CASE(loads_from_a_directory_or_a_file) {
    TempDir dir;
    write(dir.path / "window.toml", "[reference]\ninputs = [\"q\"]\n");
    for (const fs::path& path : {dir.path, dir.path / "window.toml"}) {
        const ParsedContract parsed = forge::load_window_contract(path);
        BOOST_REQUIRE(parsed.contract.has_value());
        BOOST_TEST(parsed.contract->path == (dir.path / "window.toml").string());
    }
    BOOST_TEST(forge::contract_file(dir.path) == dir.path / "window.toml");
    BOOST_TEST(forge::contract_file(dir.path / "other.toml") == dir.path / "other.toml");
}

BOOST_AUTO_TEST_CASE(an_absent_contract_says_how_to_declare_one) {
    TempDir dir;
    for (const fs::path& path : {dir.path, dir.path / "window.toml", dir.path / "no-such-card"}) {
        const ParsedContract parsed = forge::load_window_contract(path);
        BOOST_TEST(!parsed.contract.has_value());
        BOOST_REQUIRE(parsed.findings.size() == 1u);
        const Finding& f = parsed.findings[0];
        BOOST_TEST(f.code == "contract-absent");
        BOOST_TEST(f.is_error());
        BOOST_TEST(!f.subject.has_value());
        BOOST_TEST(mentions(f, "forge_add_operator"));
        BOOST_TEST(mentions(f, "templates/window.toml"));
    }
}

BOOST_AUTO_TEST_CASE(an_unreadable_contract_is_malformed) {
    TempDir dir;
    fs::create_directories(dir.path / "card" / "window.toml");
    const Finding& f = refused(forge::load_window_contract(dir.path / "card"));
    BOOST_TEST(mentions(f, "is a directory"));

    const fs::path big = dir.path / "big" / "window.toml";
    fs::create_directories(big.parent_path());
    write(big, "note = \"" + std::string(30u << 20, 'x') + "\"\n");
    BOOST_TEST(mentions(refused(forge::load_window_contract(big)), "larger than"));
}

BOOST_AUTO_TEST_CASE(a_parsed_contract_carries_its_texts_digest) {
    BOOST_TEST(forge::contract_digest("123456789") == "crc32:cbf43926");  // CRC-32's check value
    const std::string text = with_entry("ref_input = \"A\"\nclass = \"price\"\n");
    const ParsedContract parsed = forge::parse_window_contract(text);
    BOOST_REQUIRE(parsed.contract.has_value());
    BOOST_TEST(parsed.contract->digest == forge::contract_digest(text));
    // A comment changes it too: the digest is of the file, not of its meaning.
    BOOST_TEST(forge::parse_window_contract(text + "# edited\n").contract->digest != parsed.contract->digest);
}

