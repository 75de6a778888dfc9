// Reading and writing whole files, with errors that name the file.
#pragma once

#include <filesystem>
#include <stdexcept>
#include <string>
#include <string_view>

namespace forge {

struct FileError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// The file's bytes. Throws FileError naming the file and the OS's reason.
[[nodiscard]] std::string read_file(const std::filesystem::path& file);

// Writes `content` to a temporary file beside `file`, flushes it to disk, then renames
// it over `file`: a reader (or an interrupted writer) sees the old file or the new
// one, never a partial one. Throws FileError; the old file is untouched on failure.
void write_file_atomically(const std::filesystem::path& file, std::string_view content);

}  // namespace forge
