#include "forge/ctest/launcher.hpp"

#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <iostream>

namespace forge {

namespace {

volatile std::sig_atomic_t launcher_pid = 0;

// A first SIGINT only makes srun print its status: every signal that asks this
// process to stop asks the launcher to stop (SIGTERM), SIGINT included.
extern "C" void forward_to_launcher(int signal_number) {
    if (launcher_pid > 0) ::kill(static_cast<pid_t>(launcher_pid), signal_number == SIGINT ? SIGTERM : signal_number);
}

constexpr std::array forwarded_signals = {SIGTERM, SIGINT, SIGHUP, SIGQUIT};

bool write_all(int fd, const void* data, std::size_t size) {
    const auto* bytes = static_cast<const char*>(data);
    while (size > 0) {
        const ssize_t written = ::write(fd, bytes, size);
        if (written < 0 && errno == EINTR) continue;
        if (written <= 0) return false;
        bytes += written;
        size -= static_cast<std::size_t>(written);
    }
    return true;
}

bool read_all(int fd, void* data, std::size_t size) {
    auto* bytes = static_cast<char*>(data);
    while (size > 0) {
        const ssize_t got = ::read(fd, bytes, size);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) return false;
        bytes += got;
        size -= static_cast<std::size_t>(got);
    }
    return true;
}

int exit_status_of(int wait_status) {
    if (WIFEXITED(wait_status)) return WEXITSTATUS(wait_status);
    if (WIFSIGNALED(wait_status)) return 128 + WTERMSIG(wait_status);
    return 127;
}

// The watcher: the launcher's parent, outside the tree of processes CTest
// kills. It sends this process the launcher's pid, then its exit status; when
// this process dies first (`alive` reads end of file), it sends the launcher
// SIGTERM and waits for it to end its job.
[[noreturn]] void watch(char** argv, int alive, int report) {
    const pid_t launcher = ::fork();
    if (launcher == 0) {
        ::close(alive);
        ::close(report);
        ::execvp(argv[0], argv);
        std::cerr << "forge launch: cannot run '" << argv[0] << "': " << std::strerror(errno) << '\n';
        ::_exit(127);
    }
    if (launcher < 0 || !write_all(report, &launcher, sizeof launcher)) ::_exit(127);
    // Polled every 0.1 s; a launcher told to stop gets 60 s to end its job
    // (srun waits for the job's processes), then SIGKILL: no watcher lingers.
    constexpr int ticks_before_kill = 600;
    int ticks_since_told = -1;
    int status = 0;
    for (;;) {
        const pid_t ended = ::waitpid(launcher, &status, WNOHANG);
        if (ended == launcher) break;
        if (ended < 0 && errno != EINTR) ::_exit(127);
        pollfd watched{.fd = alive, .events = POLLIN, .revents = 0};
        if (ticks_since_told < 0 && ::poll(&watched, 1, 100) > 0) {
            ::kill(launcher, SIGTERM);  // this process's test was killed: end the job
            ticks_since_told = 0;
        } else if (ticks_since_told >= 0) {
            ::usleep(100 * 1000);
            if (++ticks_since_told == ticks_before_kill) ::kill(launcher, SIGKILL);
        }
    }
    const int exit_status = exit_status_of(status);
    (void)write_all(report, &exit_status, sizeof exit_status);
    ::_exit(0);
}

}  // namespace

int run_under_launcher(const std::vector<std::string>& command) {
    if (command.empty()) {
        std::cerr << "forge launch: no command to run (forge launch -- LAUNCHER... BENCH...)\n";
        return 127;
    }
    std::vector<char*> argv;
    argv.reserve(command.size() + 1);
    for (const std::string& argument : command) argv.push_back(const_cast<char*>(argument.c_str()));
    argv.push_back(nullptr);

    // alive: written by no one, held open by this process alone; report: the watcher's pid and status.
    std::array<int, 2> alive{};
    std::array<int, 2> report{};
    if (::pipe(alive.data()) != 0 || ::pipe(report.data()) != 0) {
        std::cerr << "forge launch: cannot make a pipe: " << std::strerror(errno) << '\n';
        return 127;
    }
    // Forked twice and in a session of its own, the watcher is no descendant of
    // this process: CTest's timeout kills this process and its descendants with
    // SIGKILL, which would reach a launcher before it could end its job.
    const pid_t middle = ::fork();
    if (middle == 0) {
        ::close(alive[1]);
        ::close(report[0]);
        ::setsid();
        if (::fork() == 0) watch(argv.data(), alive[0], report[1]);
        ::_exit(0);
    }
    ::close(alive[0]);
    ::close(report[1]);
    if (middle < 0) {
        std::cerr << "forge launch: cannot start '" << command.front() << "': " << std::strerror(errno) << '\n';
        return 127;
    }
    int middle_status = 0;
    while (::waitpid(middle, &middle_status, 0) < 0 && errno == EINTR) {
    }

    pid_t launcher = 0;
    if (!read_all(report[0], &launcher, sizeof launcher)) {
        std::cerr << "forge launch: cannot start '" << command.front() << "'\n";
        return 127;
    }
    launcher_pid = launcher;
    struct sigaction action {};
    action.sa_handler = forward_to_launcher;
    sigemptyset(&action.sa_mask);
    for (const int signal_number : forwarded_signals) ::sigaction(signal_number, &action, nullptr);

    int exit_status = 0;
    if (!read_all(report[0], &exit_status, sizeof exit_status)) {
        std::cerr << "forge launch: lost '" << command.front() << "' (its watcher ended without its status)\n";
        return 127;
    }
    return exit_status;
}

}  // namespace forge
