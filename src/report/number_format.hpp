// Figures as reports print them.
#pragma once

#include <cmath>
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

// A rate (GFLOP/s, GB/s) with at least three significant digits and one
// decimal: 0.954, 12.3, 812.4; one decimal alone would show 0.9535 and 0.9473
// as 1.0 and 0.9, a 10% gap where there is 0.6%.
inline std::string rate(std::optional<double> value) {
    if (!value) return "-";
    int decimals = 1;
    for (double magnitude = std::fabs(*value); magnitude > 0.0 && magnitude < 10.0 && decimals < 6; magnitude *= 10.0) {
        ++decimals;
    }
    return fixed(value, decimals);
}

inline std::string percent(double fraction) { return fixed(fraction * 100.0, 1) + "%"; }

}  // namespace forge
