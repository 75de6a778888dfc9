// The CPUs other processes kept busy during a run, from /proc/stat less the
// bench's own CPU time.
#define BOOST_TEST_MODULE bench_other_processes
#include <boost/test/unit_test.hpp>

#include <chrono>
#include <thread>

#include <sys/wait.h>
#include <unistd.h>

#include "runtime/host/other_processes.hpp"

namespace fb = forge::bench;

namespace {

constexpr double ticks_per_s = 100.0;

fb::ProcessorUse use(std::uint64_t busy_ticks, double own_cpu_s, double wall_s) {
    fb::ProcessorUse out;
    out.machine.busy = busy_ticks;
    out.own_cpu_s = own_cpu_s;
    out.wall_s = wall_s;
    return out;
}

}  // namespace

BOOST_AUTO_TEST_CASE(busy_ticks_are_user_nice_system_irq_and_softirq) {
    // user nice system idle iowait irq softirq steal
    const auto all = fb::parse_cpu_times("cpu  100 20 30 5000 40 5 6 70 0 0\n", -1);
    BOOST_TEST_REQUIRE(all.has_value());
    BOOST_TEST(all->busy == 100u + 20u + 30u + 5u + 6u);  // not idle, iowait or steal
}

BOOST_AUTO_TEST_CASE(the_bench_s_own_time_is_not_another_process_s) {
    // 10 s of wall: the machine busy 1500 ticks (15 s), 5 s of it the bench's own.
    const auto others = fb::other_processes_cpus(use(1000, 2.0, 100.0), use(2500, 7.0, 110.0), ticks_per_s);
    BOOST_TEST_REQUIRE(others.has_value());
    BOOST_TEST(*others == 1.0, boost::test_tools::tolerance(1e-12));
    // Ticks that fall short of the bench's own time (their sampling error) are no one else's.
    BOOST_TEST(*fb::other_processes_cpus(use(1000, 2.0, 100.0), use(1100, 3.2, 110.0), ticks_per_s) == 0.0);
    BOOST_TEST(!fb::other_processes_cpus(use(1000, 2.0, 100.0), use(1100, 3.0, 100.0), ticks_per_s));  // no time
    BOOST_TEST(!fb::other_processes_cpus(use(1000, 2.0, 100.0), use(900, 3.0, 110.0), ticks_per_s));   // a reset
}

// The reading on this machine: a child process that burns a CPU for a second is
// another process. (Tests running beside this one can only add to it.)
BOOST_AUTO_TEST_CASE(a_child_burning_a_cpu_is_counted) {
    const auto start = fb::read_processor_use();
    BOOST_TEST_REQUIRE(start.has_value());
    const pid_t child = fork();
    BOOST_TEST_REQUIRE(child >= 0);
    if (child == 0) {
        const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(1);
        while (std::chrono::steady_clock::now() < until) {
        }
        _exit(0);
    }
    std::this_thread::sleep_for(std::chrono::seconds(1));
    int status = 0;
    waitpid(child, &status, 0);
    // getrusage(RUSAGE_SELF) never holds a child's time, reaped or not.
    const auto end = fb::read_processor_use();
    BOOST_TEST_REQUIRE(end.has_value());
    const auto others = fb::other_processes_cpus(*start, *end, fb::proc_stat_ticks_per_s());
    BOOST_TEST_REQUIRE(others.has_value());
    BOOST_TEST(*others > 0.3);  // about 1 on an idle machine, less where the child shared its CPU
}
