// A figure in a test's output that CTest records as a NamedMeasurement in
// Test.xml, so CDash plots it over time.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace forge {

// `<CTestMeasurement type="numeric/double" name="raw_ratio">0.82</CTestMeasurement>`,
// or nothing for a value that is not a finite number (CDash cannot plot it).
// `name` must be a plain identifier: it is written into XML unescaped.
[[nodiscard]] std::optional<std::string> ctest_measurement(std::string_view name, double value);

}  // namespace forge
