// The timing thread is pinned to one CPU; the threads a side makes from it are
// not: they run on the process's CPUs, as they would in the side's own program.
// The cache sweep's helpers run beside it, each on a CPU of its own.
#define BOOST_TEST_MODULE bench_timing_thread
#include <boost/test/unit_test.hpp>

#include <pthread.h>
#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <functional>
#include <future>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#ifdef FORGE_TEST_HAS_OPENMP
#include <omp.h>
#endif

#include "runtime/host/sweep_crew.hpp"
#include "runtime/host/timing_thread.hpp"

namespace fb = forge::bench;

namespace {

cpu_set_t cpus_of(pid_t thread) {
    cpu_set_t cpus;
    CPU_ZERO(&cpus);
    BOOST_REQUIRE(::sched_getaffinity(thread, sizeof cpus, &cpus) == 0);
    return cpus;
}

// With one CPU there is nothing to keep a side's threads off.
boost::test_tools::assertion_result two_or_more_cpus(boost::unit_test::test_unit_id) {
    const cpu_set_t cpus = cpus_of(0);
    return CPU_COUNT(&cpus) >= 2;
}

// A thread made as libgomp makes its team: with attributes of its own, so it
// inherits its creator's CPUs. It parks until `finish` is set.
class ThreadWithOwnAttributes {
public:
    explicit ThreadWithOwnAttributes(const cpu_set_t* pin_itself = nullptr) : pin_itself_(pin_itself) {
        pthread_attr_t attributes;
        ::pthread_attr_init(&attributes);
        BOOST_REQUIRE(::pthread_create(&thread_, &attributes, &ThreadWithOwnAttributes::body, this) == 0);
        ::pthread_attr_destroy(&attributes);
        tid_ = started_.get_future().get();
    }
    ~ThreadWithOwnAttributes() {
        finish_.set_value();
        ::pthread_join(thread_, nullptr);
    }
    ThreadWithOwnAttributes(const ThreadWithOwnAttributes&) = delete;
    ThreadWithOwnAttributes& operator=(const ThreadWithOwnAttributes&) = delete;

    [[nodiscard]] pid_t tid() const { return tid_; }

private:
    static void* body(void* self_pointer) {
        auto* self = static_cast<ThreadWithOwnAttributes*>(self_pointer);
        if (self->pin_itself_ != nullptr) ::sched_setaffinity(0, sizeof *self->pin_itself_, self->pin_itself_);
        self->started_.set_value(::gettid());
        self->finish_.get_future().wait();
        return nullptr;
    }

    const cpu_set_t* pin_itself_;
    pthread_t thread_{};
    pid_t tid_ = 0;
    std::promise<pid_t> started_;
    std::promise<void> finish_;
};

// The sweep's helpers ("forge-sweep" threads) and the CPU time they took, in
// clock ticks (/proc/self/task/<tid>/stat's utime and stime).
struct HelperTicks {
    std::size_t helpers = 0;
    long ticks = 0;
};

HelperTicks helper_ticks() {
    HelperTicks out;
    for (const auto& task : std::filesystem::directory_iterator("/proc/self/task")) {
        std::ifstream comm(task.path() / "comm");
        std::string name;
        std::getline(comm, name);
        if (name != "forge-sweep") continue;
        std::ifstream stat(task.path() / "stat");
        std::string line;
        std::getline(stat, line);
        // After the name's closing parenthesis: state (field 3) ... utime (14), stime (15).
        std::istringstream fields(line.substr(line.rfind(')') + 2));
        std::string skipped;
        for (int field = 3; field <= 13; ++field) fields >> skipped;
        long user = 0;
        long system = 0;
        fields >> user >> system;
        ++out.helpers;
        out.ticks += user + system;
    }
    return out;
}

}  // namespace

BOOST_AUTO_TEST_CASE(the_timing_thread_is_pinned_and_gets_its_cpus_back,
                     *boost::unit_test::precondition(two_or_more_cpus)) {
    const cpu_set_t before = cpus_of(0);
    {
        const fb::TimingThreadPin pin;
        BOOST_TEST_REQUIRE(pin.cpu() >= 0);
        const cpu_set_t pinned = cpus_of(0);
        BOOST_TEST(CPU_COUNT(&pinned) == 1);
        BOOST_TEST(CPU_ISSET(pin.cpu(), &pinned));
    }
    const cpu_set_t after = cpus_of(0);
    BOOST_TEST(CPU_EQUAL(&after, &before));
}

BOOST_AUTO_TEST_CASE(a_std_thread_a_side_makes_runs_on_the_process_cpus,
                     *boost::unit_test::precondition(two_or_more_cpus)) {
    const cpu_set_t process = cpus_of(0);
    const fb::TimingThreadPin pin;
    cpu_set_t side{};
    std::thread([&] { side = cpus_of(0); }).join();
    BOOST_TEST(CPU_EQUAL(&side, &process));
}

BOOST_AUTO_TEST_CASE(a_thread_made_with_attributes_of_its_own_is_released_before_the_next_call,
                     *boost::unit_test::precondition(two_or_more_cpus)) {
    const cpu_set_t process = cpus_of(0);
    fb::TimingThreadPin pin;
    const ThreadWithOwnAttributes side;
    const cpu_set_t inherited = cpus_of(side.tid());
    BOOST_TEST(CPU_COUNT(&inherited) == 1);  // what Linux gives it: the timing thread's CPU

    BOOST_TEST(pin.release_side_threads() == 1u);
    const cpu_set_t released = cpus_of(side.tid());
    BOOST_TEST(CPU_EQUAL(&released, &process));
    BOOST_TEST(pin.release_side_threads() == 0u);  // once is enough
    BOOST_TEST(pin.released() == 1u);
    const cpu_set_t timing = cpus_of(0);
    BOOST_TEST(CPU_COUNT(&timing) == 1);  // the timing thread stays pinned
}

BOOST_AUTO_TEST_CASE(a_thread_the_side_pinned_elsewhere_is_left_alone,
                     *boost::unit_test::precondition(two_or_more_cpus)) {
    const cpu_set_t process = cpus_of(0);
    fb::TimingThreadPin pin;
    cpu_set_t elsewhere;
    CPU_ZERO(&elsewhere);
    for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
        if (cpu != pin.cpu() && CPU_ISSET(cpu, &process)) {
            CPU_SET(cpu, &elsewhere);
            break;
        }
    }
    const ThreadWithOwnAttributes side(&elsewhere);
    BOOST_TEST(pin.release_side_threads() == 0u);
    const cpu_set_t kept = cpus_of(side.tid());
    BOOST_TEST(CPU_EQUAL(&kept, &elsewhere));
}

#ifdef FORGE_TEST_HAS_OPENMP
// The case that matters: an OpenMP side's team, made on the side's first
// parallel region from the pinned timing thread.
BOOST_AUTO_TEST_CASE(an_openmp_team_runs_on_the_process_cpus_after_the_release,
                     *boost::unit_test::precondition(two_or_more_cpus)) {
    const cpu_set_t process = cpus_of(0);
    fb::TimingThreadPin pin;
    const auto workers_on_process_cpus = [&] {
        std::atomic<int> on_process_cpus = 0;
#pragma omp parallel num_threads(2)
        {
            cpu_set_t mine;  // not cpus_of: Boost.Test's assertions are for the main thread only
            if (omp_get_thread_num() != 0 && ::sched_getaffinity(0, sizeof mine, &mine) == 0 &&
                CPU_EQUAL(&mine, &process)) {
                ++on_process_cpus;
            }
        }
        return on_process_cpus.load();
    };
    BOOST_TEST(workers_on_process_cpus() == 0);  // the team inherited the pin
    BOOST_TEST(pin.release_side_threads() >= 1u);
    BOOST_TEST(workers_on_process_cpus() == 1);
}
#endif

BOOST_AUTO_TEST_CASE(the_other_cpus_are_the_process_cpus_but_the_timing_threads,
                     *boost::unit_test::precondition(two_or_more_cpus)) {
    const cpu_set_t process = cpus_of(0);
    const fb::TimingThreadPin pin;
    const std::vector<int> others = pin.other_cpus(CPU_SETSIZE);
    BOOST_TEST(others.size() + 1 == static_cast<std::size_t>(CPU_COUNT(&process)));
    for (const int cpu : others) {
        BOOST_TEST(cpu != pin.cpu());
        BOOST_TEST(CPU_ISSET(cpu, &process));
    }
    BOOST_TEST(pin.other_cpus(1).size() == 1u);
}

// Each sweep calls every part once, whoever takes it, sweep after sweep; the
// helpers take parts on their own CPUs, never on the timing thread's.
BOOST_AUTO_TEST_CASE(a_sweep_calls_every_part_once_and_helpers_stay_off_the_timing_cpu,
                     *boost::unit_test::precondition(two_or_more_cpus)) {
    const fb::TimingThreadPin pin;
    constexpr std::size_t parts = 16;
    std::vector<std::atomic<int>> calls(parts);
    std::atomic<int> on_timing_cpu_by_helpers = 0;
    std::atomic<int> by_helpers = 0;
    const std::thread::id timing_thread = std::this_thread::get_id();
    const std::function<void(std::size_t)> part_of_sweep = [&](std::size_t part) {
        ++calls[part];
        if (std::this_thread::get_id() != timing_thread) {
            ++by_helpers;
            if (::sched_getcpu() == pin.cpu()) ++on_timing_cpu_by_helpers;
        }
        // A part long enough for a helper to wake while the timing thread works.
        const auto until = std::chrono::steady_clock::now() + std::chrono::microseconds(300);
        while (std::chrono::steady_clock::now() < until) {
        }
    };
    fb::SweepCrew crew(pin.other_cpus(3));
    BOOST_TEST(crew.threads() >= 2u);
    constexpr int sweeps = 20;
    for (int sweep = 1; sweep <= sweeps; ++sweep) {
        crew.run(parts, part_of_sweep);
        for (std::size_t part = 0; part < parts; ++part) BOOST_TEST_REQUIRE(calls[part].load() == sweep);
    }
    BOOST_TEST(by_helpers.load() > 0);
    BOOST_TEST(on_timing_cpu_by_helpers.load() == 0);
}

// Between sweeps the helpers sleep: the timed calls come between sweeps, and
// the harness counts the CPU time the process's other threads take during one.
// Only the helpers' own is read: an OpenMP team from a case above may still
// spin (LLVM's runtime keeps its idle threads busy for 200 ms).
BOOST_AUTO_TEST_CASE(the_helpers_take_no_cpu_time_between_sweeps, *boost::unit_test::precondition(two_or_more_cpus)) {
    const fb::TimingThreadPin pin;
    fb::SweepCrew crew(pin.other_cpus(3));
    crew.run(4, [](std::size_t) {});
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    const HelperTicks before = helper_ticks();
    BOOST_TEST(before.helpers + 1 == crew.threads());
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    const HelperTicks after = helper_ticks();
    // A helper that spun would take about 20 ticks of 10 ms.
    BOOST_TEST(after.ticks - before.ticks <= 2);
}

BOOST_AUTO_TEST_CASE(a_crew_without_helpers_sweeps_on_the_calling_thread) {
    std::vector<int> calls(3, 0);
    const std::function<void(std::size_t)> part = [&](std::size_t i) { ++calls[i]; };
    fb::SweepCrew crew({});
    BOOST_TEST(crew.threads() == 1u);
    crew.run(calls.size(), part);
    crew.run(calls.size(), part);
    BOOST_TEST(calls == std::vector<int>(3, 2), boost::test_tools::per_element());
}

// Jobs of different part counts back to back: a helper late from a job of
// many parts takes none of a job of few, and every part of each runs once.
BOOST_AUTO_TEST_CASE(each_job_runs_each_of_its_own_parts_once, *boost::unit_test::precondition(two_or_more_cpus)) {
    const fb::TimingThreadPin pin;
    fb::SweepCrew crew(pin.other_cpus(3));
    for (int job = 0; job < 400; ++job) {
        const std::size_t parts = job % 2 == 0 ? 16 : 1 + static_cast<std::size_t>(job % 3);
        std::vector<std::atomic<int>> calls(parts);
        std::atomic<int> outside = 0;
        crew.run(parts, [&](std::size_t i) {
            if (i >= parts) {
                ++outside;
                return;
            }
            ++calls[i];
        });
        BOOST_TEST_REQUIRE(outside.load() == 0);
        for (std::size_t i = 0; i < parts; ++i) BOOST_TEST_REQUIRE(calls[i].load() == 1);
    }
}

// A range shared out by lines: every byte in exactly one part, each part
// starting on a cache line, whatever the range's own alignment.
BOOST_AUTO_TEST_CASE(shared_lines_cover_a_range_once_at_line_boundaries,
                     *boost::unit_test::precondition(two_or_more_cpus)) {
    const fb::TimingThreadPin pin;
    fb::SweepCrew crew(pin.other_cpus(3));
    std::vector<std::byte> memory((std::size_t{5} << 20) + 256);
    for (const std::size_t offset : {std::size_t{0}, std::size_t{1}, std::size_t{63}, std::size_t{100}}) {
        for (const std::size_t bytes : {std::size_t{1000}, (std::size_t{1} << 20) + 7, std::size_t{5} << 20}) {
            const std::byte* data = memory.data() + offset;
            std::vector<std::atomic<int>> covered(bytes);
            std::atomic<int> ranges = 0;
            std::atomic<int> off_line = 0;
            fb::share_lines(crew, data, bytes, [&](std::size_t begin, std::size_t end) {
                ++ranges;
                if (begin > 0 && reinterpret_cast<std::uintptr_t>(data + begin) % 64 != 0) ++off_line;
                for (std::size_t i = begin; i < end; ++i) ++covered[i];
            });
            BOOST_TEST(off_line.load() == 0);
            BOOST_TEST(ranges.load() == (bytes < (std::size_t{1} << 20) ? 1 : static_cast<int>(bytes >> 19)));
            BOOST_TEST(std::all_of(covered.begin(), covered.end(), [](const std::atomic<int>& c) { return c == 1; }));
        }
    }
}
