#define BOOST_TEST_MODULE table_csv
#include <boost/test/unit_test.hpp>

#include <string>
#include <vector>

#include "forge/table/csv.hpp"
#include "forge/table/kernel_table.hpp"

using forge::CsvReader;
using forge::CsvRecord;

namespace {

// Every record of `text`, as owned strings, with its line.
std::vector<std::pair<std::size_t, std::vector<std::string>>> read_all(std::string_view text) {
    CsvReader reader(text, "t.csv");
    CsvRecord record;
    std::vector<std::pair<std::size_t, std::vector<std::string>>> out;
    while (reader.next(record)) {
        out.emplace_back(record.line, std::vector<std::string>(record.fields.begin(), record.fields.end()));
    }
    return out;
}

using Fields = std::vector<std::string>;

std::string error_of(std::string_view text) {
    try {
        read_all(text);
    } catch (const forge::TableError& error) {
        return error.what();
    }
    return "";
}

}  // namespace

BOOST_AUTO_TEST_CASE(quoted_fields_keep_commas_quotes_and_line_breaks) {
    const auto records = read_all("a,\"b, c\",\"say \"\"hi\"\"\"\n\"two\nlines\",x\nlast,\"\"\n");
    BOOST_TEST_REQUIRE(records.size() == 3u);
    BOOST_TEST((records[0].second == Fields{"a", "b, c", "say \"hi\""}));
    BOOST_TEST((records[1].second == Fields{"two\nlines", "x"}));
    BOOST_TEST((records[2].second == Fields{"last", ""}));
    // Line numbers count the line break inside the quoted field.
    BOOST_TEST(records[0].first == 1u);
    BOOST_TEST(records[1].first == 2u);
    BOOST_TEST(records[2].first == 4u);
}

BOOST_AUTO_TEST_CASE(crlf_lf_and_a_byte_order_mark) {
    const auto records = read_all("\xEF\xBB\xBF\"ID\",\"Name\"\r\n1,\"a\r\nb\"\r\n2,c\n3,d");
    BOOST_TEST_REQUIRE(records.size() == 4u);
    BOOST_TEST((records[0].second == Fields{"ID", "Name"}));
    BOOST_TEST((records[1].second == Fields{"1", "a\r\nb"}));
    BOOST_TEST((records[2].second == Fields{"2", "c"}));
    BOOST_TEST(records[2].first == 4u);
    BOOST_TEST((records[3].second == Fields{"3", "d"}));  // no line end at the end of the text
}

BOOST_AUTO_TEST_CASE(a_lone_carriage_return_is_data) {
    const auto records = read_all("a\rb,c\r\n");
    BOOST_TEST_REQUIRE(records.size() == 1u);
    BOOST_TEST((records[0].second == Fields{"a\rb", "c"}));
}

BOOST_AUTO_TEST_CASE(empty_lines_short_rows_and_trailing_commas) {
    CsvReader reader("a,b,c\n\nx,\n", "t.csv");
    CsvRecord record;
    BOOST_TEST_REQUIRE(reader.next(record));
    BOOST_TEST(!record.blank());
    BOOST_TEST_REQUIRE(reader.next(record));
    BOOST_TEST(record.blank());
    BOOST_TEST(record.line == 2u);
    BOOST_TEST_REQUIRE(reader.next(record));
    BOOST_TEST(record.fields.size() == 2u);  // "x," is two fields, the second empty
    BOOST_TEST(record.field(1).empty());
    BOOST_TEST(record.field(7).empty());  // beyond a short row: no value, no crash
    BOOST_TEST(!reader.next(record));
    BOOST_TEST(!CsvReader("", "t.csv").next(record));
}

BOOST_AUTO_TEST_CASE(fields_with_doubled_quotes_stay_valid_together) {
    // Several long unescaped fields in one record: each must still read right
    // after the later ones were gathered.
    std::string line;
    Fields expected;
    for (int i = 0; i < 20; ++i) {
        const std::string body(50 + i, static_cast<char>('a' + i));
        line += (i ? "," : "") + std::string("\"") + body + "\"\"q\"\"\"";
        expected.push_back(body + "\"q\"");
    }
    const auto records = read_all(line + "\n");
    BOOST_TEST_REQUIRE(records.size() == 1u);
    BOOST_TEST((records[0].second == expected));
}

BOOST_AUTO_TEST_CASE(a_quote_inside_an_unquoted_field_is_literal_and_spaces_after_a_closing_quote_pass) {
    const auto records = read_all("ab\"c,\"d\"  ,e\n");
    BOOST_TEST_REQUIRE(records.size() == 1u);
    BOOST_TEST((records[0].second == Fields{"ab\"c", "d", "e"}));
}

BOOST_AUTO_TEST_CASE(an_unclosed_quote_names_the_file_and_the_line_it_opened_on) {
    const std::string message = error_of("a,b\nc,\"never\nclosed\n");
    BOOST_TEST(message.find("t.csv:2:") == 0u, message);
    BOOST_TEST(message.find("truncated") != std::string::npos, message);
}

BOOST_AUTO_TEST_CASE(text_after_a_closing_quote_is_refused_with_its_line) {
    const std::string message = error_of("a\n\"x\"y,z\n");
    BOOST_TEST(message.find("t.csv:2:") == 0u, message);
    BOOST_TEST(message.find("doubled") != std::string::npos, message);
}

BOOST_AUTO_TEST_CASE(line_numbers_start_where_the_caller_says) {
    CsvReader reader("x\ny\n", "t.csv", 108);
    CsvRecord record;
    BOOST_TEST_REQUIRE(reader.next(record));
    BOOST_TEST(record.line == 108u);
    BOOST_TEST_REQUIRE(reader.next(record));
    BOOST_TEST(record.line == 109u);
}

BOOST_AUTO_TEST_CASE(line_cursor_strips_line_ends_and_counts) {
    forge::LineCursor cursor("one\r\ntwo \"quote\n\nlast");
    forge::TextLine line;
    std::vector<std::string> texts;
    std::vector<std::size_t> numbers;
    while (cursor.next(line)) {
        texts.emplace_back(line.text);
        numbers.push_back(line.number);
    }
    BOOST_TEST((texts == std::vector<std::string>{"one", "two \"quote", "", "last"}));
    BOOST_TEST((numbers == std::vector<std::size_t>{1, 2, 3, 4}));
}

BOOST_AUTO_TEST_CASE(the_byte_order_mark_is_stripped_once) {
    BOOST_TEST(forge::strip_utf8_bom("\xEF\xBB\xBFID") == "ID");
    BOOST_TEST(forge::strip_utf8_bom("ID") == "ID");
}
