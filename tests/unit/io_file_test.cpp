#define BOOST_TEST_MODULE io_file
#include <boost/test/unit_test.hpp>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <thread>

#include "forge/io/file.hpp"

namespace fs = std::filesystem;

namespace {

struct ScratchDir {
    fs::path path = fs::temp_directory_path() / ("forge-io-test-" + std::to_string(::getpid()));
    ScratchDir() { fs::create_directories(path); }
    ~ScratchDir() { fs::remove_all(path); }
};

std::size_t entries_in(const fs::path& dir) {
    return static_cast<std::size_t>(std::distance(fs::directory_iterator(dir), fs::directory_iterator()));
}

}  // namespace

BOOST_AUTO_TEST_CASE(write_then_read_back) {
    ScratchDir dir;
    const fs::path file = dir.path / "eval.json";
    forge::write_file_atomically(file, "{\"a\": 1}\n");
    forge::write_file_atomically(file, "{\"a\": 2}\n");
    BOOST_TEST(forge::read_file(file) == "{\"a\": 2}\n");
    BOOST_TEST(entries_in(dir.path) == 1u);  // no temporary file left behind
}

BOOST_AUTO_TEST_CASE(errors_name_the_file) {
    ScratchDir dir;
    try {
        (void)forge::read_file(dir.path / "absent.json");
        BOOST_FAIL("reading an absent file must throw");
    } catch (const forge::FileError& e) {
        BOOST_TEST(std::string(e.what()).find("absent.json") != std::string::npos);
    }
    BOOST_CHECK_THROW(forge::write_file_atomically(dir.path / "no" / "such" / "dir.json", "x"), forge::FileError);
    BOOST_CHECK_THROW((void)forge::read_file(dir.path), forge::FileError);
}

// A writer killed in the middle of a write leaves the old file whole.
BOOST_AUTO_TEST_CASE(an_interrupted_write_leaves_the_old_file) {
    ScratchDir dir;
    const fs::path file = dir.path / "eval.json";
    const std::string old_content = "{\"old\": true}\n";
    forge::write_file_atomically(file, old_content);

    const pid_t writer = ::fork();
    BOOST_REQUIRE(writer >= 0);
    if (writer == 0) {
        const std::string huge(std::size_t{1} << 28, 'x');  // long enough to be caught mid-write
        forge::write_file_atomically(file, huge);
        ::_exit(0);
    }
    // Wait until the temporary file exists and is growing, then kill the writer.
    for (int i = 0; i < 2000 && entries_in(dir.path) < 2; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    ::kill(writer, SIGKILL);
    int status = 0;
    ::waitpid(writer, &status, 0);
    BOOST_TEST(WIFSIGNALED(status));
    BOOST_TEST(forge::read_file(file) == old_content);
}
