// What a workload's rounds tell the reader beside its ratio: each notice
// appears exactly when its condition holds and names the counts it is about.
#define BOOST_TEST_MODULE bench_round_notices
#include <boost/test/unit_test.hpp>

#include <cstddef>
#include <string>
#include <vector>

#include "bench_add_operator.hpp"
#include "results/record.hpp"
#include "results/round_notices.hpp"
#include "rules/stopping.hpp"
#include "runtime/device_clocks.hpp"

namespace fb = forge::bench;

namespace {

// `rounds` rounds that reached the precision asked from quiet rounds: nothing to say.
fb::WorkloadRecord settled(std::size_t rounds = 40) {
    fb::WorkloadRecord record;
    record.rounds.resize(rounds);
    record.ratio = {2.0, 1.99, 2.01};
    return record;
}

}  // namespace

BOOST_AUTO_TEST_CASE(settled_rounds_say_nothing) {
    BOOST_TEST(fb::round_notices(settled(), fb::StoppingParameters::standard(), 40).empty());
}

BOOST_AUTO_TEST_CASE(an_interval_short_of_the_precision_says_how_wide_and_why_it_stopped) {
    fb::WorkloadRecord record = settled(120);
    record.ratio = {2.0, 1.9, 2.1};
    record.stop = fb::StopReason::wall_cap;
    const std::vector<std::string> notices = fb::round_notices(record, fb::StoppingParameters::standard(), 120);
    BOOST_TEST(notices.size() == 1u);
    BOOST_TEST(any_has(notices,
                   {"+/-5%", "after 120 rounds", "not the +/-1% asked", "stopped by the time cap", "--precision"}));
}

BOOST_AUTO_TEST_CASE(an_interval_bound_by_its_layouts_says_the_rounds_stopped_before_the_cap_and_why) {
    fb::WorkloadRecord record = settled(64);
    record.ratio = {2.0, 1.96, 2.04};
    record.stop = fb::StopReason::out_of_reach;
    const std::vector<std::string> notices = fb::round_notices(record, fb::StoppingParameters::standard(), 64);
    BOOST_TEST(notices.size() == 1u);
    BOOST_TEST(any_has(notices, {"+/-2%", "after 64 rounds", "not the +/-1% asked", "layouts",
                                 "narrowed the interval by under 10%", "--precision"}));
    BOOST_TEST(!any_has(notices, {"quieter machine"}));
}

BOOST_AUTO_TEST_CASE(an_interval_narrow_enough_from_rounds_that_were_not_quiet_says_why_it_does_not_count) {
    fb::WorkloadRecord record = settled(15);
    record.ratio = {2.0, 1.95, 2.05};  // +/-2.5%, within the 5% asked
    record.stop = fb::StopReason::wall_cap;
    record.selection = fb::RoundSelection::undisturbed;
    fb::StoppingParameters stopping = fb::StoppingParameters::standard();
    stopping.precision = 0.05;
    const std::vector<std::string> notices = fb::round_notices(record, stopping, 6);
    BOOST_TEST(any_has(notices, {"+/-2.5%", "within the +/-5% asked but from rounds that were not quiet"}));
    BOOST_TEST(!any_has(notices, {"not the +/-5% asked"}));
}

BOOST_AUTO_TEST_CASE(too_few_quiet_rounds_says_how_many_were_and_what_the_ratio_came_from) {
    fb::WorkloadRecord record = settled(50);
    record.selection = fb::RoundSelection::undisturbed;
    fb::StoppingParameters stopping = fb::StoppingParameters::standard();
    std::vector<std::string> notices = fb::round_notices(record, stopping, 7);
    BOOST_TEST(any_has(notices, {"7 of 50 rounds were quiet", "fewer than the 20", "within 30% of the quietest",
                             "comes from undisturbed"}));
    BOOST_TEST(!any_has(notices, {"waiting"}));
    record.waited_for_quiet = true;
    notices = fb::round_notices(record, stopping, 7);
    BOOST_TEST(any_has(notices, {"even after waiting 4 s past the 4 s cap"}));
}

BOOST_AUTO_TEST_CASE(preempted_rounds_are_said_only_when_the_ratio_keeps_them) {
    fb::WorkloadRecord record = settled(30);
    for (std::size_t r = 0; r < 12; ++r) record.rounds[r].preempted = true;
    record.selection = fb::RoundSelection::undisturbed;  // set aside
    BOOST_TEST(!any_has(fb::round_notices(record, fb::StoppingParameters::standard(), 0), {"had a call preempted"}));
    record.selection = fb::RoundSelection::all;
    BOOST_TEST(any_has(fb::round_notices(record, fb::StoppingParameters::standard(), 0),
                   {"12 of 30 rounds had a call preempted", "too many to set aside"}));
}

BOOST_AUTO_TEST_CASE(throttled_rounds_name_what_slowed_the_gpu_and_whether_they_were_set_aside) {
    fb::WorkloadRecord record = settled(30);
    for (std::size_t r = 0; r < 3; ++r) {
        record.rounds[r].throttled = true;
        record.rounds[r].clocks = fb::ClockReading{1500, 2600, fb::clock_reason::sw_thermal};
    }
    const std::vector<std::string> set_aside = fb::round_notices(record, fb::StoppingParameters::standard(), 27);
    BOOST_TEST(any_has(set_aside, {"3 of 30 rounds ran while the GPU slowed its clocks", "thermal", "set aside"}));
    record.rounds[0].clocks->reasons = 0;  // the clock fell with no reason given
    record.selection = fb::RoundSelection::all;
    const std::vector<std::string> kept = fb::round_notices(record, fb::StoppingParameters::standard(), 27);
    BOOST_TEST(any_has(kept, {"3 of 30", "too many to set aside"}));
    for (std::size_t r = 0; r < 3; ++r) record.rounds[r].clocks->reasons = 0;
    BOOST_TEST(any_has(fb::round_notices(record, fb::StoppingParameters::standard(), 27), {"no reason given"}));
}

BOOST_AUTO_TEST_CASE(a_machine_that_moved_says_by_how_much) {
    fb::WorkloadRecord record = settled();
    record.drift.moved = 0.12;
    BOOST_TEST(fb::round_notices(record, fb::StoppingParameters::standard(), 40).empty());  // not flagged
    record.drift.flagged = true;
    BOOST_TEST(any_has(fb::round_notices(record, fb::StoppingParameters::standard(), 40),
                   {"the machine's speed moved by 12%"}));
}
