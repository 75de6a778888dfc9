#include "runtime/cuda/gpu_claim.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <map>
#include <mutex>

#include "forge/bench/tensor.hpp"

namespace forge::bench {

// One open lock file, flock'ed exclusively. flock belongs to the open file: a
// second open in this process would wait for the first, hence one per GPU here.
struct GpuClaim::Lock {
    int fd = -1;
    ~Lock() {
        if (fd >= 0) ::close(fd);  // closing releases the lock
    }
};

namespace {

std::mutex held_locks_mutex;
std::map<std::filesystem::path, std::weak_ptr<GpuClaim::Lock>> held_locks;

}  // namespace

std::filesystem::path GpuClaim::lock_file(const std::string& gpu, const std::filesystem::path& lock_directory) {
    std::string name = "forge-gpu-" + gpu + ".lock";
    for (char& c : name) {
        const bool plain = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' ||
                           c == '_' || c == '.';
        if (!plain) c = '_';
    }
    return lock_directory / name;
}

GpuClaim::GpuClaim(const std::string& gpu, const std::filesystem::path& lock_directory, std::ostream& log) {
    const std::filesystem::path path = lock_file(gpu, lock_directory);
    const std::lock_guard guard(held_locks_mutex);
    if (std::shared_ptr<Lock> shared = held_locks[path].lock()) {
        lock_ = std::move(shared);
        return;
    }
    auto lock = std::make_shared<Lock>();
    // Read-only and world-readable: flock needs no write access, so another user's
    // bench can take the same file's lock.
    lock->fd = ::open(path.c_str(), O_RDONLY | O_CREAT | O_CLOEXEC, 0644);
    if (lock->fd < 0) {
        throw BenchError("cannot open the GPU lock file " + path.string() + ": " + std::strerror(errno) +
                         " (set TMPDIR to a writable directory)");
    }
    if (::flock(lock->fd, LOCK_EX | LOCK_NB) != 0) {
        log << "[forge bench] waiting for GPU " << gpu << ": another process is timing on it (" << path.string()
            << ")" << std::endl;
        int result = 0;
        while ((result = ::flock(lock->fd, LOCK_EX)) != 0 && errno == EINTR) {
        }
        if (result != 0) throw BenchError("cannot lock " + path.string() + ": " + std::strerror(errno));
    }
    held_locks[path] = lock;
    lock_ = std::move(lock);
}

GpuClaim::~GpuClaim() {
    const std::lock_guard guard(held_locks_mutex);
    lock_.reset();
}

}  // namespace forge::bench
