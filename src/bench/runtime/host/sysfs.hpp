// Reading the machine's small text files (sysfs, procfs): one value per file.
#pragma once

#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

namespace forge::bench {

// The file's first line; empty when it cannot be read (the file is optional).
[[nodiscard]] inline std::string first_line_of(const std::filesystem::path& file) {
    std::ifstream in(file);
    std::string line;
    std::getline(in, line);
    return line;
}

// The selected word of a sysfs choice list ("always [madvise] never" ->
// "madvise"); empty when none is bracketed.
[[nodiscard]] inline std::string selected_choice(std::string_view line) {
    const auto open = line.find('[');
    const auto close = line.find(']', open);
    if (open == std::string_view::npos || close == std::string_view::npos) return {};
    return std::string(line.substr(open + 1, close - open - 1));
}

}  // namespace forge::bench
