#include "forge/ctest/measurement.hpp"

#include <cmath>
#include <cstdio>

namespace forge {

namespace {

std::string element(std::string_view type, std::string_view name, std::string_view value) {
    std::string out = "<CTestMeasurement type=\"";
    out += type;
    out += "\" name=\"";
    out += name;
    out += "\">";
    out += value;
    out += "</CTestMeasurement>";
    return out;
}

bool plain(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.' ||
           c == '-';
}

}  // namespace

std::optional<std::string> ctest_measurement(std::string_view name, double value) {
    if (!std::isfinite(value)) return std::nullopt;
    char number[32];
    std::snprintf(number, sizeof number, "%.6g", value);
    return element("numeric/double", name, number);
}

std::string ctest_text_measurement(std::string_view name, std::string_view value) {
    std::string escaped;
    for (const char c : value) {
        switch (c) {
            case '&': escaped += "&amp;"; break;
            case '<': escaped += "&lt;"; break;
            case '>': escaped += "&gt;"; break;
            default: escaped += c;
        }
    }
    return element("text/string", name, escaped);
}

std::string ctest_measurement_name(std::string_view text, std::size_t limit) {
    std::string out;
    for (const char c : text.substr(0, limit)) out += plain(c) ? c : '_';
    return out;
}

}  // namespace forge
