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

// A ratio's interval, "[0.927, 0.988]": each end to 3 decimals, or as many more
// (up to 6) as keep an end that is not 1 from reading 1; the verdict says on
// which side of 1 the interval lies, and "[0.927, 1.000] slower" contradicts it.
inline std::string interval(double low, double high) {
    const auto end = [](double value) {
        std::string text = fixed(value, 3);
        for (int decimals = 4; value != 1.0 && std::stod(text) == 1.0 && decimals <= 6; ++decimals) {
            text = fixed(value, decimals);
        }
        return text;
    };
    // Appended, not "[" + std::string&&: GCC 12 at -O3 reads that insert as an overlapping copy (-Wrestrict).
    std::string out = "[";
    out.append(end(low)).append(", ").append(end(high)).append("]");
    return out;
}

// GB/s with its share of the device's peak DRAM bandwidth, where known: "812.4 (20% of peak)".
inline std::string bandwidth(std::optional<double> gbps, std::optional<double> peak_fraction) {
    std::string out = rate(gbps);
    if (gbps && peak_fraction) out.append(" (").append(fixed(*peak_fraction * 100.0, 0)).append("% of peak)");
    return out;
}

inline std::string percent(double fraction) { return fixed(fraction * 100.0, 1) + "%"; }

}  // namespace forge
