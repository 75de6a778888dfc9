// A GPU held for one process's timing: an exclusive lock on a file named by the
// GPU, so two benches never time on one GPU at once, whoever started them
// (`ctest -j` without a resource spec, two ctest runs, a user at a shell).
// CTest's RESOURCE_LOCK cannot do this: it holds even when a resource spec has
// already given each bench a GPU of its own, so it would serialise those too.
#pragma once

#include <filesystem>
#include <memory>
#include <ostream>
#include <string>

namespace forge::bench {

class GpuClaim {
public:
    // Blocks until no other process holds `gpu` (e.g. the GPU's UUID), saying so
    // on `log` while it waits. The lock file lives in `lock_directory`. Claims of
    // one GPU within a process share the lock. Throws BenchError when the lock
    // file cannot be opened.
    GpuClaim(const std::string& gpu, const std::filesystem::path& lock_directory, std::ostream& log);
    ~GpuClaim();
    GpuClaim(const GpuClaim&) = delete;
    GpuClaim& operator=(const GpuClaim&) = delete;

    // The lock file of `gpu` (any character but [A-Za-z0-9_-] becomes '_').
    [[nodiscard]] static std::filesystem::path lock_file(const std::string& gpu,
                                                         const std::filesystem::path& lock_directory);

    struct Lock;

private:
    std::shared_ptr<Lock> lock_;
};

}  // namespace forge::bench
