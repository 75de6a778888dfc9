#include "forge/ctest/measurement.hpp"

#include <cmath>
#include <cstdio>

namespace forge {

std::optional<std::string> ctest_measurement(std::string_view name, double value) {
    if (!std::isfinite(value)) return std::nullopt;
    char number[32];
    std::snprintf(number, sizeof number, "%.6g", value);
    std::string out = "<CTestMeasurement type=\"numeric/double\" name=\"";
    out += name;
    out += "\">";
    out += number;
    out += "</CTestMeasurement>";
    return out;
}

}  // namespace forge
