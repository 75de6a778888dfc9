#include "forge/io/file.hpp"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

#include <fstream>
#include <sstream>
#include <sys/stat.h>
#include <utility>

namespace forge {

namespace {

[[noreturn]] void fail(const std::filesystem::path& file, std::string_view what, int error) {
    throw FileError(file.string() + ": cannot " + std::string{what} + ": " + std::strerror(error));
}

// Closes the descriptor and removes the temporary file unless released.
class TemporaryFile {
public:
    explicit TemporaryFile(const std::filesystem::path& beside)
        : path_(beside.string() + ".tmp." + std::to_string(::getpid()) + ".XXXXXX") {
        fd_ = ::mkstemp(path_.data());
        if (fd_ < 0) fail(beside, "create a temporary file beside it", errno);
    }
    TemporaryFile(const TemporaryFile&) = delete;
    TemporaryFile& operator=(const TemporaryFile&) = delete;
    ~TemporaryFile() {
        if (fd_ >= 0) ::close(fd_);
        if (!released_) ::unlink(path_.c_str());
    }

    [[nodiscard]] int fd() const noexcept { return fd_; }
    [[nodiscard]] const std::string& path() const noexcept { return path_; }
    int close() noexcept { return ::close(std::exchange(fd_, -1)); }
    void release() noexcept { released_ = true; }

private:
    std::string path_;
    int fd_ = -1;
    bool released_ = false;
};

}  // namespace

std::string read_file(const std::filesystem::path& file) {
    std::error_code ec;
    if (std::filesystem::is_directory(file, ec)) fail(file, "read it", EISDIR);
    std::ifstream in(file, std::ios::binary);
    if (!in) fail(file, "open it", errno);
    std::ostringstream content;
    content << in.rdbuf();
    if (in.bad()) fail(file, "read it", errno);
    return std::move(content).str();
}

void write_file_atomically(const std::filesystem::path& file, std::string_view content) {
    TemporaryFile temporary(file);
    for (std::string_view rest = content; !rest.empty();) {
        const ssize_t written = ::write(temporary.fd(), rest.data(), rest.size());
        if (written < 0) {
            if (errno == EINTR) continue;
            fail(file, "write it", errno);
        }
        rest.remove_prefix(static_cast<std::size_t>(written));
    }
    // The new file keeps the usual permissions (mkstemp creates 0600).
    const mode_t mask = ::umask(0);
    ::umask(mask);
    if (::fchmod(temporary.fd(), 0666 & ~mask) != 0) fail(file, "set its permissions", errno);
    if (::fsync(temporary.fd()) != 0) fail(file, "flush it to disk", errno);
    if (temporary.close() != 0) fail(file, "close it", errno);
    if (::rename(temporary.path().c_str(), file.c_str()) != 0) fail(file, "replace it", errno);
    temporary.release();
}

}  // namespace forge
