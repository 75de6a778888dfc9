// When a timed call counts as preempted: by the time its thread waited for its
// CPU, not by whether it was switched out at all.
#define BOOST_TEST_MODULE bench_preemption
#include <boost/test/unit_test.hpp>

#include <chrono>
#include <cmath>
#include <thread>

#include <time.h>
#include <vector>

#include "forge/stats/summary.hpp"
#include "results/record.hpp"
#include "runtime/preemption.hpp"

namespace fb = forge::bench;

BOOST_AUTO_TEST_CASE(a_wait_above_the_tolerated_fraction_of_the_call_is_a_preemption) {
    const fb::SchedulerReading before{.involuntary_switches = 4, .run_queue_ns = 1'000'000};
    // A 35 ms call tolerates 70 us of waiting.
    BOOST_TEST(!fb::preempted(before, {.involuntary_switches = 6, .run_queue_ns = 1'050'000}, 35.0));
    BOOST_TEST(fb::preempted(before, {.involuntary_switches = 5, .run_queue_ns = 1'080'000}, 35.0));
    // A 2 ms call tolerates 4 us: a time slice lost to a neighbour is far above it.
    BOOST_TEST(fb::preempted(before, {.involuntary_switches = 5, .run_queue_ns = 4'000'000}, 2.0));
    BOOST_TEST(!fb::preempted(before, {.involuntary_switches = 4, .run_queue_ns = 1'000'000}, 2.0));
}

BOOST_AUTO_TEST_CASE(without_the_wait_any_involuntary_switch_is_a_preemption) {
    const fb::SchedulerReading before{.involuntary_switches = 4, .run_queue_ns = -1};
    BOOST_TEST(fb::preempted(before, {.involuntary_switches = 5, .run_queue_ns = -1}, 35.0));
    BOOST_TEST(!fb::preempted(before, {.involuntary_switches = 4, .run_queue_ns = -1}, 35.0));
    BOOST_TEST(!fb::preempted({}, {}, 35.0));  // nothing known: nothing claimed
}

BOOST_AUTO_TEST_CASE(the_wait_between_readings_is_known_only_where_the_system_counts_it) {
    const std::optional<double> waited =
        fb::run_queue_wait_ms({.involuntary_switches = 1, .run_queue_ns = 500'000}, {.run_queue_ns = 4'500'000});
    BOOST_TEST_REQUIRE(waited.has_value());
    BOOST_TEST(*waited == 4.0, boost::test_tools::tolerance(1e-12));
    BOOST_TEST(!fb::run_queue_wait_ms({.run_queue_ns = -1}, {.run_queue_ns = 4'500'000}).has_value());
}

BOOST_AUTO_TEST_CASE(only_the_wait_neither_the_time_outside_the_call_nor_the_sides_threads_can_hold_is_taken) {
    const auto tol = boost::test_tools::tolerance(1e-12);
    // A time slice lost inside an 8 ms call, the readings 2 us either side of it:
    // all but those 4 us (the readings' own time, which could have held a wait).
    BOOST_TEST(fb::foreign_wait_in_call_ms(4.0, 12.004, 12.0, 0.0) == 3.996, tol);
    // The same slice lost between the first reading and the call: the call read 8 ms.
    BOOST_TEST(fb::foreign_wait_in_call_ms(4.0, 12.004, 8.0, 0.0) == 0.0, tol);
    // Two slices, one inside and one outside.
    BOOST_TEST(fb::foreign_wait_in_call_ms(8.0, 16.004, 12.0, 0.0) == 3.996, tol);
    // The side's own worker took the CPU for 3 ms of the 4: only 1 ms can be a neighbour's.
    BOOST_TEST(fb::foreign_wait_in_call_ms(4.0, 12.0, 12.0, 3.0) == 1.0, tol);
    // Workers busy on other CPUs the whole call: nothing is taken out.
    BOOST_TEST(fb::foreign_wait_in_call_ms(4.0, 12.0, 12.0, 24.0) == 0.0, tol);
    // Never more than the call itself, never negative (a clock step between readings).
    BOOST_TEST(fb::foreign_wait_in_call_ms(9.0, 8.0, 8.0, 0.0) == 8.0, tol);
    BOOST_TEST(fb::foreign_wait_in_call_ms(0.0, 7.0, 8.0, 0.0) == 0.0, tol);
}

BOOST_AUTO_TEST_CASE(the_other_threads_cpu_time_is_the_process_s_less_this_thread_s) {
    const fb::SchedulerReading before{.process_cpu_ns = 10'000'000, .thread_cpu_ns = 4'000'000};
    const std::optional<double> others =
        fb::other_threads_cpu_ms(before, {.process_cpu_ns = 19'000'000, .thread_cpu_ns = 8'000'000});
    BOOST_TEST_REQUIRE(others.has_value());
    BOOST_TEST(*others == 5.0, boost::test_tools::tolerance(1e-12));
    BOOST_TEST(!fb::other_threads_cpu_ms(before, {.process_cpu_ns = -1, .thread_cpu_ns = 8'000'000}).has_value());
}

BOOST_AUTO_TEST_CASE(a_rounds_ratio_and_calls_take_each_calls_wait_for_its_cpu_out) {
    // Beside a neighbour that always wants the CPU, an 8 ms call loses a 4 ms
    // slice in most rounds and a 2 ms one in few: the raw readings' median ratio
    // leans towards the shorter side, the waits taken out give the calls' own 4,
    // and each side's calls (the ms columns, which a credit's coverage divides
    // its profiled regions by) read the calls' own times.
    std::vector<double> raw;
    std::vector<double> without_waits;
    std::vector<double> reference_calls;
    std::vector<double> student_calls;
    for (int r = 0; r < 40; ++r) {
        fb::Round round;
        round.reference_wait_ms = (r % 5 < 3) ? 4.0 : 0.0;
        round.student_wait_ms = (r % 7 == 0) ? 4.0 : 0.0;
        round.reference_ms = 8.0 + *round.reference_wait_ms;
        round.student_ms = 2.0 + *round.student_wait_ms;
        raw.push_back(std::log(round.reference_ms / round.student_ms));
        without_waits.push_back(round.log_ratio());
        reference_calls.push_back(round.reference_call_ms());
        student_calls.push_back(round.student_call_ms());
    }
    BOOST_TEST(std::exp(forge::stats::median(raw)) > 4.8);  // sqrt(4 * 6): half the rounds read 6
    BOOST_TEST(std::exp(forge::stats::median(without_waits)) == 4.0, boost::test_tools::tolerance(1e-12));
    BOOST_TEST(forge::stats::median(reference_calls) == 8.0, boost::test_tools::tolerance(1e-12));
    BOOST_TEST(forge::stats::median(student_calls) == 2.0, boost::test_tools::tolerance(1e-12));
    fb::Round unknown;  // CUDA, or no schedstat: the readings as they are
    unknown.reference_ms = 12.0;
    unknown.student_ms = 2.0;
    BOOST_TEST(std::exp(unknown.log_ratio()) == 6.0, boost::test_tools::tolerance(1e-12));
    BOOST_TEST(unknown.reference_call_ms() == 12.0);
}

BOOST_AUTO_TEST_CASE(the_watch_reads_this_threads_counters) {
    const fb::SchedulerWatch watch;
    const fb::SchedulerReading first = watch.read();
    BOOST_TEST(first.involuntary_switches >= 0);
    std::this_thread::sleep_for(std::chrono::milliseconds(2));  // a voluntary switch, then a wake-up
    const fb::SchedulerReading second = watch.read();
    BOOST_TEST(second.involuntary_switches >= first.involuntary_switches);
    if (first.run_queue_ns >= 0) BOOST_TEST(second.run_queue_ns >= first.run_queue_ns);
}

BOOST_AUTO_TEST_CASE(the_watch_sees_the_cpu_time_another_thread_of_the_process_took) {
    const fb::SchedulerWatch watch;
    const fb::SchedulerReading before = watch.read();
    std::thread worker([] {
        // 20 ms of this worker's own CPU time, however long the machine makes it wait.
        timespec cpu{};
        do {
            ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &cpu);
        } while (cpu.tv_sec == 0 && cpu.tv_nsec < 20'000'000);
    });
    worker.join();
    const std::optional<double> others = fb::other_threads_cpu_ms(before, watch.read());
    BOOST_TEST_REQUIRE(others.has_value());
    BOOST_TEST(*others >= 19.0);
}
