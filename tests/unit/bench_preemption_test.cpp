// When a timed call counts as preempted: by the time its thread waited for its
// CPU, not by whether it was switched out at all.
#define BOOST_TEST_MODULE bench_preemption
#include <boost/test/unit_test.hpp>

#include <chrono>
#include <thread>

#include "preemption.hpp"

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

BOOST_AUTO_TEST_CASE(the_watch_reads_this_threads_counters) {
    const fb::SchedulerWatch watch;
    const fb::SchedulerReading first = watch.read();
    BOOST_TEST(first.involuntary_switches >= 0);
    std::this_thread::sleep_for(std::chrono::milliseconds(2));  // a voluntary switch, then a wake-up
    const fb::SchedulerReading second = watch.read();
    BOOST_TEST(second.involuntary_switches >= first.involuntary_switches);
    if (first.run_queue_ns >= 0) BOOST_TEST(second.run_queue_ns >= first.run_queue_ns);
}
