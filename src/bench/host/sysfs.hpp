// Reading the machine's small text files (sysfs, procfs): one value per file.
#pragma once

#include <filesystem>
#include <fstream>
#include <string>

namespace forge::bench {

// The file's first line; empty when it cannot be read (the file is optional).
[[nodiscard]] inline std::string first_line_of(const std::filesystem::path& file) {
    std::ifstream in(file);
    std::string line;
    std::getline(in, line);
    return line;
}

}  // namespace forge::bench
