// Figures as reports print them.
#pragma once

#include <cstdio>
#include <optional>
#include <string>

namespace forge {

// `value` with `decimals` digits after the point; "-" when absent.
inline std::string fixed(std::optional<double> value, int decimals) {
    if (!value) return "-";
    char text[64];
    std::snprintf(text, sizeof text, "%.*f", decimals, *value);
    return text;
}

inline std::string percent(double fraction) { return fixed(fraction * 100.0, 1) + "%"; }

}  // namespace forge
