#define BOOST_TEST_MODULE bench_gpu_claim
#include <boost/test/unit_test.hpp>

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <filesystem>
#include <optional>
#include <sstream>
#include <string>

#include "runtime/cuda/gpu_claim.hpp"

// A GPU claimed by one bench cannot be claimed by another process until it is
// released. "Another process" here is a second open of the lock file: flock
// locks belong to the open file, so it conflicts exactly as another process would.
namespace fb = forge::bench;
namespace fs = std::filesystem;

namespace {

struct LockDirectory {
    fs::path path = fs::temp_directory_path() / ("forge-gpu-claim-test-" + std::to_string(::getpid()));
    LockDirectory() { fs::create_directories(path); }
    ~LockDirectory() { fs::remove_all(path); }
};

// Whether another process could take `gpu`'s lock now.
bool free_for_another_process(const std::string& gpu, const fs::path& directory) {
    const int fd = ::open(fb::GpuClaim::lock_file(gpu, directory).c_str(), O_RDONLY | O_CREAT | O_CLOEXEC, 0644);
    BOOST_REQUIRE(fd >= 0);
    const bool taken = ::flock(fd, LOCK_EX | LOCK_NB) == 0;
    ::close(fd);
    return taken;
}

}  // namespace

BOOST_AUTO_TEST_CASE(a_claimed_gpu_is_held_until_the_claim_goes) {
    const LockDirectory directory;
    std::ostringstream log;
    {
        const fb::GpuClaim claim("GPU-0", directory.path, log);
        BOOST_TEST(!free_for_another_process("GPU-0", directory.path));
    }
    BOOST_TEST(free_for_another_process("GPU-0", directory.path));
    BOOST_TEST(log.str().empty());
}

BOOST_AUTO_TEST_CASE(two_gpus_are_claimed_independently) {
    const LockDirectory directory;
    std::ostringstream log;
    const fb::GpuClaim claim("GPU-0", directory.path, log);
    BOOST_TEST(free_for_another_process("GPU-1", directory.path));
}

BOOST_AUTO_TEST_CASE(claims_of_one_gpu_within_a_process_share_the_lock) {
    // Two runtimes of one process on one GPU must not wait for each other forever.
    const LockDirectory directory;
    std::ostringstream log;
    std::optional<fb::GpuClaim> first(std::in_place, "GPU-0", directory.path, log);
    {
        const fb::GpuClaim second("GPU-0", directory.path, log);
        first.reset();
        BOOST_TEST(!free_for_another_process("GPU-0", directory.path));
    }
    BOOST_TEST(free_for_another_process("GPU-0", directory.path));
}

BOOST_AUTO_TEST_CASE(a_gpu_name_becomes_a_plain_file_name) {
    BOOST_TEST(fb::GpuClaim::lock_file("GPU-ab12/../x y", "/tmp").filename().string() == "forge-gpu-GPU-ab12_.._x_y.lock");
}
