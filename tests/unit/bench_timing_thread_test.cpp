// The timing thread is pinned to one CPU; the threads a side makes from it are
// not: they run on the process's CPUs, as they would in the side's own program.
#define BOOST_TEST_MODULE bench_timing_thread
#include <boost/test/unit_test.hpp>

#include <pthread.h>
#include <sched.h>
#include <unistd.h>

#include <future>
#include <thread>

#ifdef FORGE_TEST_HAS_OPENMP
#include <omp.h>

#include <atomic>
#endif

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
