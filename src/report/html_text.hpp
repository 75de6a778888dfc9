// Text and numbers as the HTML report writes them. Internal to src/report.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace forge::html {

// `text` safe in an element's content and in a quoted attribute value: names and
// messages come from files anyone can write.
inline std::string escape(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (const char c : text) {
        switch (c) {
            case '&': out += "&amp;"; break;
            case '<': out += "&lt;"; break;
            case '>': out += "&gt;"; break;
            case '"': out += "&quot;"; break;
            case '\'': out += "&#39;"; break;
            default: out += c;
        }
    }
    return out;
}

// A number for a data- attribute: the shortest text that reads back as the same
// double, so a reader of the page gets the eval's value, not a rounded one.
inline std::string exact(double value) { return nlohmann::json(value).dump(); }

// ` name="value"` for a data- attribute: the exact number, or nothing when absent.
inline std::string number_attribute(std::string_view name, const std::optional<double>& value) {
    if (!value) return {};
    std::string attribute = " ";
    attribute += name;
    attribute += "=\"";
    attribute += exact(*value);
    attribute += '"';
    return attribute;
}

}  // namespace forge::html
