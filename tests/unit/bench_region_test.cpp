#define BOOST_TEST_MODULE bench_region
#include <boost/test/unit_test.hpp>

#include <sched.h>
#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <fstream>
#include <stdexcept>
#include <thread>

#include "c_regions.h"
#include "forge/bench/region.hpp"
#include "runtime/regions.hpp"
#include "runtime/runtime.hpp"

namespace fb = forge::bench;

namespace {

double thread_cpu_ms() {
    timespec now{};
    ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
    return static_cast<double>(now.tv_sec) * 1e3 + static_cast<double>(now.tv_nsec) * 1e-6;
}

// Runs on this thread's CPU until `ms` of its own CPU time have passed.
void compute_for_ms(double ms) {
    const double end = thread_cpu_ms() + ms;
    while (thread_cpu_ms() < end) {
    }
}

// An outer region with `outer_ms` of work around an inner one with `inner_ms`,
// recorded: the rows (in exit order: inner, outer) and the wall time.
struct Nested {
    std::vector<forge::KernelRow> rows;
    double wall_ms = 0.0;
};

Nested record_nested(double outer_ms, double inner_ms) {
    fb::RegionRecording recording;
    const auto start = std::chrono::steady_clock::now();
    {
        fb::region outer{"outer"};
        compute_for_ms(outer_ms);
        {
            fb::region inner{"inner"};
            compute_for_ms(inner_ms);
        }
    }
    const double wall_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    return {recording.rows(), wall_ms};
}

// Another process spinning on the CPU this thread is pinned to, while it lives.
class Neighbour {
public:
    explicit Neighbour(const cpu_set_t& cpu) : pid_(::fork()) {
        if (pid_ == 0) {
            ::sched_setaffinity(0, sizeof cpu, &cpu);
            ::alarm(10);  // never outlives a test that lost it
            for (;;) asm volatile("");  // a loop the compiler may not remove
        }
    }
    ~Neighbour() {
        if (pid_ <= 0) return;
        ::kill(pid_, SIGKILL);
        ::waitpid(pid_, nullptr, 0);
    }
    Neighbour(const Neighbour&) = delete;
    Neighbour& operator=(const Neighbour&) = delete;
    [[nodiscard]] bool running() const { return pid_ > 0; }

private:
    pid_t pid_;
};

// Pins this thread to the CPU it runs on, for the guard's life.
class PinnedHere {
public:
    PinnedHere() {
        ::sched_getaffinity(0, sizeof original_, &original_);
        CPU_ZERO(&cpu_);
        CPU_SET(::sched_getcpu(), &cpu_);
        pinned_ = ::sched_setaffinity(0, sizeof cpu_, &cpu_) == 0;
    }
    ~PinnedHere() { ::sched_setaffinity(0, sizeof original_, &original_); }
    PinnedHere(const PinnedHere&) = delete;
    PinnedHere& operator=(const PinnedHere&) = delete;
    [[nodiscard]] bool pinned() const { return pinned_; }
    [[nodiscard]] const cpu_set_t& cpu() const { return cpu_; }

private:
    cpu_set_t original_{};
    cpu_set_t cpu_{};
    bool pinned_ = false;
};

bool system_counts_the_wait() {
    if (std::ifstream("/proc/thread-self/schedstat")) return true;
    BOOST_TEST_MESSAGE("no /proc/thread-self/schedstat: the system does not count the wait");
    return false;
}

}  // namespace

BOOST_AUTO_TEST_CASE(regions_outside_a_recording_record_nothing) {
    { fb::region r{"ignored"}; }
    fb::RegionRecording recording;
    BOOST_TEST(recording.rows().empty());
}

BOOST_AUTO_TEST_CASE(nested_time_is_counted_once_in_the_inner_region) {
    const auto [rows, wall_ms] = record_nested(2.0, 6.0);
    BOOST_TEST_REQUIRE(rows.size() == 2u);
    BOOST_TEST(rows[0].name == "inner");  // exit order
    BOOST_TEST(rows[1].name == "outer");
    // At least their work: what another process took from the CPU is left out,
    // the work is not (up to 2% less: the scheduler counts the wait apart from
    // the thread's CPU clock, and under ASan beside CI's other tests the region
    // of 2 ms CPU read 1.980 ms).
    BOOST_TEST(rows[0].time_ns >= 0.98 * 6e6);
    BOOST_TEST(rows[1].time_ns >= 0.98 * 2e6);
    // outer's own time excludes inner's: together they fit in the wall time once
    // (counted in both, they would exceed it by inner's 6 ms).
    BOOST_TEST(rows[0].time_ns + rows[1].time_ns <= wall_ms * 1e6);
}

BOOST_AUTO_TEST_CASE(c_regions_time_and_nest_as_the_cpp_ones_do) {
    fb::RegionRecording recording;
    const auto start = std::chrono::steady_clock::now();
    c_nested_regions(2.0, 6.0);
    const double wall_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    const std::vector<forge::KernelRow> rows = recording.rows();
    BOOST_TEST_REQUIRE(rows.size() == 2u);
    BOOST_TEST(rows[0].name == "c_inner");  // exit order
    BOOST_TEST(rows[1].name == "c_outer");
    BOOST_TEST(rows[0].time_ns >= 0.98 * 6e6);  // as nested_time_is_counted_once_in_the_inner_region
    BOOST_TEST(rows[1].time_ns >= 0.98 * 2e6);
    BOOST_TEST(rows[0].time_ns + rows[1].time_ns <= wall_ms * 1e6);
    const fb::UnbalancedCRegions balanced = fb::take_unbalanced_c_regions();
    BOOST_TEST(balanced.open == 0);
    BOOST_TEST(balanced.unmatched_ends == 0);
}

BOOST_AUTO_TEST_CASE(unbalanced_c_regions_are_counted_and_closed) {
    c_region_left_open();
    c_region_left_open();
    const fb::UnbalancedCRegions open = fb::take_unbalanced_c_regions();
    BOOST_TEST(open.open == 2);
    BOOST_TEST(open.unmatched_ends == 0);
    c_region_ended_twice();
    const fb::UnbalancedCRegions ended = fb::take_unbalanced_c_regions();
    BOOST_TEST(ended.open == 0);
    BOOST_TEST(ended.unmatched_ends == 1);
    // Cleared: the next call starts balanced, and past the 64 held in place
    // a region still pairs with its end.
    for (int i = 0; i < 70; ++i) c_region_left_open();
    BOOST_TEST(fb::take_unbalanced_c_regions().open == 70);
    fb::RegionRecording recording;
    c_nested_regions(0.0, 0.0);
    BOOST_TEST(recording.rows().size() == 2u);
    BOOST_TEST(fb::take_unbalanced_c_regions().open == 0);
}

BOOST_AUTO_TEST_CASE(a_region_entered_twice_is_two_launches) {
    fb::RegionRecording recording;
    for (int i = 0; i < 2; ++i) {
        fb::region r{"step"};
    }
    const forge::KernelTable table = forge::merge_by_name(recording.rows());
    BOOST_TEST_REQUIRE(table.kernels.size() == 1u);
    BOOST_TEST(table.kernels[0].launches == 2);
}

BOOST_AUTO_TEST_CASE(one_recording_at_a_time) {
    fb::RegionRecording recording;
    BOOST_CHECK_THROW(fb::RegionRecording second, std::logic_error);
}

BOOST_AUTO_TEST_CASE(a_regions_time_leaves_out_what_another_process_took_from_its_cpu) {
    // Beside a process spinning on the same CPU, each region's wall time is
    // about twice its work; the rows read the work: the profiled table then
    // reconciles with the timed calls, which leave that wait out too.
    if (!system_counts_the_wait()) return;
    // The first of up to three attempts that reads the work: a VM's steal time
    // counts as neither work nor wait, and now and then lands in one (both rows
    // 43 ms of 30 ms work once in a CI run under ASan), and a preemption just
    // after a nested region's exit reading is left out of its parent's row with
    // its wait (outer 25 ms, about one run in 30 under ASan; region.cpp says why
    // the profile's median over calls outvotes it). A region that kept the wait
    // reads about 60 ms in all three; one that lost its work, under 29 ms.
    const auto reads_the_work = [](const forge::KernelRow& row) { return row.time_ns >= 29e6 && row.time_ns <= 42e6; };
    Nested nested;
    for (int attempt = 0; attempt < 3; ++attempt) {
        {
            const PinnedHere here;
            BOOST_TEST_REQUIRE(here.pinned());
            const Neighbour neighbour(here.cpu());
            BOOST_TEST_REQUIRE(neighbour.running());
            std::this_thread::sleep_for(std::chrono::milliseconds(20));  // it is on the CPU
            nested = record_nested(30.0, 30.0);
        }
        BOOST_TEST_REQUIRE(nested.wall_ms > 90.0);  // the neighbour took a share of the CPU: a wait to leave out
        BOOST_TEST_REQUIRE(nested.rows.size() == 2u);
        if (std::all_of(nested.rows.begin(), nested.rows.end(), reads_the_work)) break;
    }
    const auto& [rows, wall_ms] = nested;
    for (const forge::KernelRow& row : rows) {
        BOOST_TEST_CONTEXT(row.name << " read " << row.time_ns * 1e-6 << " ms of 30 ms work in " << wall_ms
                                    << " ms of wall time") {
            BOOST_TEST(row.time_ns >= 29e6);
            BOOST_TEST(row.time_ns <= 42e6);  // a VM's steal time counts as neither work nor wait
        }
    }
}

BOOST_AUTO_TEST_CASE(a_regions_time_keeps_what_the_sides_own_threads_took_from_its_cpu) {
    // An OpenMP team's worker on the same CPU makes the region's thread wait as
    // a neighbour does, but its time is the side's work: the rows keep it, so a
    // region around a parallel loop is not moved into (unmarked).
    if (!system_counts_the_wait()) return;
    Nested nested;
    {
        const PinnedHere here;
        BOOST_TEST_REQUIRE(here.pinned());
        std::atomic<bool> done{false};
        std::thread worker([&, cpu = here.cpu()] {
            ::sched_setaffinity(0, sizeof cpu, &cpu);
            while (!done.load(std::memory_order_relaxed)) {
            }
        });
        std::this_thread::sleep_for(std::chrono::milliseconds(20));  // it is on the CPU
        nested = record_nested(30.0, 30.0);
        done = true;
        worker.join();
    }
    const auto& [rows, wall_ms] = nested;
    BOOST_TEST_REQUIRE(wall_ms > 90.0);  // the worker took a share of the CPU
    BOOST_TEST_REQUIRE(rows.size() == 2u);
    for (const forge::KernelRow& row : rows) {
        BOOST_TEST_CONTEXT(row.name << " read " << row.time_ns * 1e-6 << " ms of 30 ms work in " << wall_ms
                                    << " ms of wall time") {
            BOOST_TEST(row.time_ns >= 45e6);  // the worker's share kept, not left out as a wait
        }
    }
}

BOOST_AUTO_TEST_CASE(a_profiled_calls_table_leaves_out_its_regions_readings) {
    // 2000 empty regions, nested in pairs: their readings of the run-queue wait
    // (a few us each) are no part of the call, and no row, (unmarked) and the
    // outer regions included, holds them.
    if (!system_counts_the_wait()) return;
    const std::unique_ptr<fb::Runtime> runtime = fb::make_host_runtime(1 << 20);
    const auto many_regions = [] {
        for (int i = 0; i < 1000; ++i) {
            fb::region outer{"outer"};
            fb::region inner{"inner"};
        }
    };
    // The quietest of three calls: beside other tests a preemption can land
    // between a region's readings where no wait counter sees it (a few ms in
    // one call of ten beside two CPU burners); kept readings would be in all three.
    double quietest_share = 1.0;
    for (int call = 0; call < 3; ++call) {
        const auto start = std::chrono::steady_clock::now();
        const fb::Profile profile = runtime->profile_call(many_regions, "many_regions");
        const double wall_ms =
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
        const double table_ms = profile.kernels.total_ns() * 1e-6;
        BOOST_TEST_MESSAGE("2000 regions: table " << table_ms << " ms, profiled call " << wall_ms << " ms");
        BOOST_TEST(wall_ms > 2.0);  // the readings took their time
        quietest_share = std::min(quietest_share, table_ms / wall_ms);
    }
    BOOST_TEST(quietest_share < 0.25);
}
