#define BOOST_TEST_MODULE bench_interposed_clock
#include <boost/test/unit_test.hpp>

#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include <nlohmann/json.hpp>

#include "forge/bench/bench.hpp"
#include "forge/bench/run.hpp"
#include "forge/exit_code.hpp"
#include "bench_add_operator.hpp"

// A student linked into the bench defines the C library's functions the clock
// and the scheduler's counters are read with, as a patched timer did to rank
// first on a public GPU leaderboard with a score of 0 (gpu-mode
// reference-kernels #162). Being in the executable, its definitions are the
// ones every caller in the process reaches, std::chrono's clock and the
// harness's own calls included. Its calls do twice the reference's work (an
// honest ratio of about 0.5), and then hide the time they took: the clock is
// set back by it, or the thread's run-queue wait is raised by it, so that the
// harness would take the whole call for time another process took from its CPU.
namespace fb = forge::bench;

namespace {

std::atomic<std::int64_t> clock_set_back_ns{0};
std::atomic<std::int64_t> wait_added_ns{0};

std::int64_t true_monotonic_ns() {
    timespec now{};
    (void)::syscall(SYS_clock_gettime, CLOCK_MONOTONIC, &now);
    return static_cast<std::int64_t>(now.tv_sec) * 1'000'000'000 + now.tv_nsec;
}

// Twice the reference's work, then the time it took hidden through `hidden`.
fb::Bench twice_the_work(std::atomic<std::int64_t>& hidden) {
    fb::Bench b{fb::Backend::host};
    for (int i = 0; i < 3; ++i) b.workload("w" + std::to_string(i), {{"n", 1 << 18}}, 40 + i);
    add_tensors(b);
    b.reference(add);
    b.student([&hidden](fb::Io& io) {
        const std::int64_t start = true_monotonic_ns();
        add(io);
        add(io);
        hidden += true_monotonic_ns() - start;
    });
    return b;
}

double run_ratio(const fb::Bench& bench) {
    const fb::RunResult result = quick_run(bench, add_contract());
    BOOST_TEST_REQUIRE(result.exit_code == forge::exit_code::ok);
    const double ratio = result.eval["performance"]["ratio"].get<double>();
    BOOST_TEST_MESSAGE("the student's ratio: " << ratio << " (twice the reference's work)");
    return ratio;
}

}  // namespace

// The student's own clock_gettime: the true time, less what its calls hid.
extern "C" int clock_gettime(clockid_t clock, timespec* time) noexcept {
    if (::syscall(SYS_clock_gettime, clock, time) != 0) return -1;
    if (clock == CLOCK_MONOTONIC || clock == CLOCK_MONOTONIC_RAW || clock == CLOCK_BOOTTIME) {
        const std::int64_t ns = static_cast<std::int64_t>(time->tv_sec) * 1'000'000'000 + time->tv_nsec -
                                clock_set_back_ns.load();
        time->tv_sec = ns / 1'000'000'000;
        time->tv_nsec = ns % 1'000'000'000;
    }
    return 0;
}

// The student's own pread: a read of /proc/thread-self/schedstat ("<ns on the
// CPU> <ns waiting on a run queue> <times run>") says it waited what its calls hid.
extern "C" ssize_t pread(int fd, void* buffer, size_t size, off_t offset) {
    const long length = ::syscall(SYS_pread64, fd, buffer, size, offset);
    if (length <= 0 || wait_added_ns.load() == 0) return length;
    std::string text(static_cast<const char*>(buffer), static_cast<std::size_t>(length));
    long long on_cpu = 0, waited = 0, runs = 0;
    if (std::sscanf(text.c_str(), "%lld %lld %lld", &on_cpu, &waited, &runs) != 3) return length;
    const int written = std::snprintf(static_cast<char*>(buffer), size, "%lld %lld %lld\n", on_cpu,
                                      waited + static_cast<long long>(wait_added_ns.load()), runs);
    return written > 0 && static_cast<std::size_t>(written) < size ? written : length;
}

BOOST_AUTO_TEST_CASE(a_student_that_sets_the_clock_back_by_its_own_call_is_timed_by_the_true_clock) {
    const double ratio = run_ratio(twice_the_work(clock_set_back_ns));
    BOOST_TEST(clock_set_back_ns.load() > 0);  // the cheat ran
    BOOST_TEST(ratio < 0.75, "twice the reference's work read " << ratio);
    clock_set_back_ns = 0;
}

BOOST_AUTO_TEST_CASE(a_student_that_says_its_call_waited_for_its_cpu_is_not_believed) {
    wait_added_ns = 1;  // from the first call on
    const double ratio = run_ratio(twice_the_work(wait_added_ns));
    BOOST_TEST(wait_added_ns.load() > 1);
    BOOST_TEST(ratio < 0.75, "twice the reference's work read " << ratio);
    wait_added_ns = 0;
}
