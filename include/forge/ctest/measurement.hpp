// A figure in a test's output that CTest records as a NamedMeasurement in
// Test.xml, so CDash shows it on the test's page and plots it over builds.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace forge {

// CDash keeps a measurement's name in 70 characters.
inline constexpr std::size_t ctest_measurement_name_limit = 70;

// `<CTestMeasurement type="numeric/double" name="raw_ratio">0.82</CTestMeasurement>`,
// or nothing for a value that is not a finite number (CDash cannot plot it).
// `name` must be a plain identifier (ctest_measurement_name): it is written unescaped.
[[nodiscard]] std::optional<std::string> ctest_measurement(std::string_view name, double value);

// `<CTestMeasurement type="text/string" name="verdict">faster</CTestMeasurement>`:
// shown on the test's page, never plotted. `value` is escaped for XML.
[[nodiscard]] std::string ctest_text_measurement(std::string_view name, std::string_view value);

// `text` as a measurement name: letters, digits, '_', '.' and '-' kept, anything
// else '_', at most `limit` characters (a workload's name is the user's text).
[[nodiscard]] std::string ctest_measurement_name(std::string_view text,
                                                 std::size_t limit = ctest_measurement_name_limit);

}  // namespace forge
