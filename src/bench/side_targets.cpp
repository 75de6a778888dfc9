#include "side_targets.hpp"

#include <algorithm>
#include <array>
#include <sstream>

namespace forge::bench {

namespace {

// An option that chooses instructions: an architecture, or one extension on or off.
bool chooses_instructions(std::string_view option) {
    constexpr std::array<std::string_view, 3> architecture{"-march=", "-mcpu=", "-xHost"};
    constexpr std::array<std::string_view, 10> extension{"avx", "sse", "fma",  "f16c",   "bmi",
                                                         "amx", "sve", "neon", "popcnt", "lzcnt"};
    if (std::any_of(architecture.begin(), architecture.end(),
                    [&](std::string_view prefix) { return option.starts_with(prefix); })) {
        return true;
    }
    if (!option.starts_with("-m")) return false;
    option.remove_prefix(2);
    if (option.starts_with("no-")) option.remove_prefix(3);
    return std::any_of(extension.begin(), extension.end(),
                       [&](std::string_view name) { return option.starts_with(name); });
}

bool has(const std::vector<std::string>& extensions, std::string_view name) {
    return std::find(extensions.begin(), extensions.end(), name) != extensions.end();
}

// The widest vectors a baseline build leaves unused, as people name them; empty when none.
std::string wider_than_baseline(const std::vector<std::string>& cpu) {
    if (has(cpu, "avx512f")) return "AVX-512";
    if (has(cpu, "avx2")) return "AVX2";
    if (has(cpu, "sve2")) return "SVE2";
    if (has(cpu, "sve")) return "SVE";
    return {};
}

}  // namespace

std::vector<std::string> target_options(std::string_view flags, const OptionsByLanguage& side) {
    std::vector<std::string> out;
    const auto add = [&](std::string_view option) {
        if (chooses_instructions(option) && !has(out, option)) out.emplace_back(option);
    };
    std::istringstream words{std::string(flags)};
    for (std::string word; words >> word;) add(word);
    for (const auto& [language, options] : side) {
        for (const std::string& option : options) add(option);
    }
    return out;
}

std::optional<std::string> baseline_target_notice(const std::vector<std::string>& reference_target,
                                                  const std::vector<std::string>& student_target,
                                                  const std::vector<std::string>& cpu_extensions) {
    const std::string wider = wider_than_baseline(cpu_extensions);
    if (wider.empty()) return std::nullopt;
    std::string sides;
    if (reference_target.empty() && student_target.empty()) {
        sides = "both sides were";
    } else if (reference_target.empty()) {
        sides = "the reference was";
    } else if (student_target.empty()) {
        sides = "the student was";
    } else {
        return std::nullopt;
    }
    return sides + " compiled for the architecture's baseline (no -march, -mcpu or -m<extension> among their flags: " +
           "build.reference_target, build.student_target) on a CPU with " + wider +
           " (device.vector_extensions): their compiled code cannot use those vectors, while a library either side "
           "calls may pick them at run time (OpenBLAS, MKL, oneDNN do), and that can decide the ratio. To compare "
           "what this CPU can do, compile both sides for it (-march=native in CMAKE_CXX_FLAGS reaches both)";
}

}  // namespace forge::bench
