// Which rounds draw fresh inputs (FreshSchedule), and what fresh rounds against
// the others say of a side that reuses work (reuse_of), on rounds made up here.
#define BOOST_TEST_MODULE bench_fresh_inputs
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <cstddef>
#include <optional>
#include <random>
#include <vector>

#include "results/record.hpp"
#include "rules/fresh_inputs.hpp"

namespace fb = forge::bench;

namespace {

fb::Round round_of(bool fresh, double log_ratio, fb::Side first = fb::Side::reference) {
    fb::Round round;
    round.fresh = fresh;
    round.first = first;
    round.reference_ms = std::exp(log_ratio);
    round.student_ms = 1.0;
    return round;
}

// `seen` and `fresh` rounds with normal noise of `noise` on the log-ratio,
// raised by `seen_gain` on the seen inputs; the sides take turns going first.
std::vector<fb::Round> made_rounds(std::size_t seen, std::size_t fresh, double seen_gain, double noise,
                                   unsigned seed = 1) {
    std::mt19937 engine(seed);
    std::normal_distribution<double> draw(0.0, noise);
    std::vector<fb::Round> out;
    const auto first = [](std::size_t r) { return r % 2 == 0 ? fb::Side::reference : fb::Side::student; };
    for (std::size_t r = 0; r < seen; ++r) out.push_back(round_of(false, seen_gain + draw(engine), first(r)));
    for (std::size_t r = 0; r < fresh; ++r) out.push_back(round_of(true, draw(engine), first(r)));
    return out;
}

}  // namespace

// The rounds as measure_rounds runs them: fresh inputs drawn before a round
// when none wait and the schedule allows, taken by a later round.
struct Ran {
    std::vector<std::size_t> draws;  // the rounds drawn before
    std::vector<std::size_t> fresh;
};

Ran run_schedule(const fb::FreshSchedule& schedule, std::size_t rounds, std::size_t stop_at, double drawing_s) {
    Ran ran;
    std::optional<std::size_t> drawn_before;
    for (std::size_t r = 0; r < rounds; ++r) {
        const bool stopping = r >= stop_at;
        const double wall_s = static_cast<double>(r);  // a second a round
        if (!drawn_before &&
            schedule.draw(ran.fresh.size(), drawing_s * static_cast<double>(ran.draws.size()), wall_s, stopping)) {
            ran.draws.push_back(r);
            drawn_before = r;
        }
        if (drawn_before && schedule.fresh(r, r - *drawn_before, ran.fresh.size(), stopping)) {
            ran.fresh.push_back(r);
            drawn_before.reset();
        }
    }
    return ran;
}

BOOST_AUTO_TEST_CASE(two_rounds_in_eight_are_fresh_one_with_each_side_first_within_the_budget) {
    const fb::FreshSchedule schedule(100);
    const Ran ran = run_schedule(schedule, 32, 32, 0.0);
    BOOST_TEST(ran.fresh == (std::vector<std::size_t>{3, 6, 11, 14, 19, 22, 27, 30}), boost::test_tools::per_element());
    // Each drawn before the round after the last fresh one (the first before round 0).
    BOOST_TEST(ran.draws == (std::vector<std::size_t>{0, 4, 7, 12, 15, 20, 23, 28, 31}),
               boost::test_tools::per_element());
    // Drawing inputs has cost more than a quarter of the rounds' wall time: none drawn.
    BOOST_TEST(!schedule.draw(2, 2.6, 10.0, false));
    BOOST_TEST(schedule.draw(2, 2.5, 10.0, false));
}

BOOST_AUTO_TEST_CASE(no_round_takes_the_inputs_drawn_right_before_it) {
    const fb::FreshSchedule schedule(100);
    BOOST_TEST(!schedule.fresh(3, 0, 0, false));
    BOOST_TEST(schedule.fresh(3, 1, 0, false));
    BOOST_TEST(!schedule.fresh(3, 0, 0, true));
    // Draws of 2.75 s against a second a round: the budget allows the next
    // draw only before rounds 11 and 22, both fresh slots, whose rounds keep
    // their seen inputs; the next fresh slots take them.
    const Ran ran = run_schedule(schedule, 28, 28, 2.75);
    BOOST_TEST(ran.draws == (std::vector<std::size_t>{0, 11, 22}), boost::test_tools::per_element());
    BOOST_TEST(ran.fresh == (std::vector<std::size_t>{3, 14, 27}), boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(once_the_rounds_would_stop_every_other_round_is_fresh_until_the_minimum) {
    const fb::FreshSchedule schedule(6);
    // Stopping from round 0, whatever the budget: fresh rounds alternate with the rounds after their draws.
    const Ran ran = run_schedule(schedule, 20, 0, 10.0);
    BOOST_TEST(ran.fresh == (std::vector<std::size_t>{1, 3, 5, 7, 9, 11}), boost::test_tools::per_element());
    BOOST_TEST(ran.draws == (std::vector<std::size_t>{0, 2, 4, 6, 8, 10}), boost::test_tools::per_element());
    BOOST_TEST(!schedule.draw(6, 0.0, 1.0, true));
    BOOST_TEST(!schedule.fresh(3, 1, 6, true));
    BOOST_TEST(!schedule.enough(5, 0));
    BOOST_TEST(schedule.enough(6, 0));
    // A machine that preempts every round: at most four times the minimum past the stop.
    BOOST_TEST(!schedule.enough(0, 23));
    BOOST_TEST(schedule.enough(0, 24));
}

BOOST_AUTO_TEST_CASE(a_student_faster_on_inputs_it_has_seen_is_told_apart) {
    // Its answers kept by contents: 20x faster on the variants it has seen.
    const auto reuse = fb::reuse_of(made_rounds(40, 6, std::log(20.0), 0.03));
    BOOST_TEST_REQUIRE(reuse.has_value());
    BOOST_TEST(reuse->fresh_rounds == 6u);
    BOOST_TEST(reuse->seen_rounds == 40u);
    BOOST_TEST(reuse->gain == 20.0, boost::test_tools::tolerance(0.05));
    BOOST_TEST(reuse->rank_z > fb::Reuse::rank_z_needed);  // every fresh round below every seen one
    BOOST_TEST(reuse->student_gained());
    BOOST_TEST(!reuse->reference_gained());
}

BOOST_AUTO_TEST_CASE(a_reference_faster_on_inputs_it_has_seen_is_told_apart) {
    const auto reuse = fb::reuse_of(made_rounds(40, 6, std::log(1.0 / 1.5), 0.03));
    BOOST_TEST_REQUIRE(reuse.has_value());
    BOOST_TEST(reuse->reference_gained());
    BOOST_TEST(!reuse->student_gained());
}

// Honest sides over many seeds: no gain beyond what the rounds resolve, and
// what they resolve shrinks with the noise, never below the 2% floor.
BOOST_AUTO_TEST_CASE(sides_that_reuse_nothing_are_never_called_reusing) {
    for (unsigned seed = 1; seed <= 200; ++seed) {
        const auto reuse = fb::reuse_of(made_rounds(30, 6, 0.0, 0.05, seed));
        BOOST_TEST_REQUIRE(reuse.has_value());
        BOOST_TEST(!reuse->student_gained(), "seed " << seed << ": gain " << reuse->gain);
        BOOST_TEST(!reuse->reference_gained(), "seed " << seed << ": gain " << reuse->gain);
    }
    const auto quiet = fb::reuse_of(made_rounds(200, 25, 0.0, 0.001));
    BOOST_TEST_REQUIRE(quiet.has_value());
    BOOST_TEST(quiet->resolves == std::exp(fb::Reuse::floor), boost::test_tools::tolerance(1e-12));
    const auto noisy = fb::reuse_of(made_rounds(200, 25, 0.0, 0.05));
    BOOST_TEST_REQUIRE(noisy.has_value());
    BOOST_TEST(noisy->resolves > quiet->resolves);
    BOOST_TEST(noisy->resolves < 1.15);
}

// A short call's ratio moves with the order: the side timed second reads 40%
// slower here. Fresh rounds that all had the reference first are held to the
// seen rounds with the reference first, not to all of them.
BOOST_AUTO_TEST_CASE(fresh_rounds_are_held_to_seen_rounds_of_the_same_order) {
    std::vector<fb::Round> made;
    for (std::size_t r = 0; r < 12; ++r) {
        const bool reference_first = r % 2 == 0;
        made.push_back(round_of(false, reference_first ? std::log(1.4) : 0.0,
                                reference_first ? fb::Side::reference : fb::Side::student));
    }
    made.push_back(round_of(true, std::log(1.4), fb::Side::reference));
    made.push_back(round_of(true, std::log(1.4), fb::Side::reference));
    const auto reuse = fb::reuse_of(made);
    BOOST_TEST_REQUIRE(reuse.has_value());
    BOOST_TEST(reuse->gain == 1.0, boost::test_tools::tolerance(1e-9));
    BOOST_TEST(!reuse->student_gained());
    BOOST_TEST(!reuse->reference_gained());
    // Fresh rounds of an order no seen round had are left out.
    made.push_back(round_of(true, 0.0, fb::Side::student));
    std::erase_if(made, [](const fb::Round& r) { return !r.fresh && r.first == fb::Side::student; });
    BOOST_TEST(fb::reuse_of(made)->fresh_rounds == 2u);
}

// With two fresh rounds the seen rounds' spread is the noise, so two fresh
// rounds that happen to agree closely prove nothing extra.
BOOST_AUTO_TEST_CASE(two_fresh_rounds_borrow_the_seen_rounds_spread) {
    std::vector<fb::Round> made = made_rounds(30, 0, 0.0, 0.05);
    made.push_back(round_of(true, 0.06));
    made.push_back(round_of(true, 0.0601));
    const auto reuse = fb::reuse_of(made);
    BOOST_TEST_REQUIRE(reuse.has_value());
    BOOST_TEST(!reuse->reference_gained());
    BOOST_TEST(reuse->resolves > std::exp(0.06));
}

// The rounds compared_for_reuse keeps, quiet or not; no reading with fewer
// than two fresh or two seen rounds among them.
BOOST_AUTO_TEST_CASE(the_rounds_compared_are_those_no_unread_wait_or_throttle_disturbed) {
    std::vector<fb::Round> made = made_rounds(20, 3, 0.0, 0.01);
    for (fb::Round& round : made) round.used = false;  // not quiet: compared all the same
    auto reuse = fb::reuse_of(made);
    BOOST_TEST_REQUIRE(reuse.has_value());
    BOOST_TEST(reuse->fresh_rounds == 3u);
    BOOST_TEST(reuse->seen_rounds == 20u);
    // Preempted with both waits read (HOST): its log-ratio leaves them out, so it is compared.
    made[21].preempted = true;
    made[21].reference_wait_ms = 0.0;
    made[21].student_wait_ms = 0.5;
    BOOST_TEST(fb::compared_for_reuse(made[21]));
    reuse = fb::reuse_of(made);
    BOOST_TEST_REQUIRE(reuse.has_value());
    BOOST_TEST(reuse->fresh_rounds == 3u);
    // Preempted with a wait unread, or throttled: set aside.
    made[21].student_wait_ms.reset();
    made[22].throttled = true;
    BOOST_TEST(!fb::compared_for_reuse(made[21]));
    BOOST_TEST(!fb::compared_for_reuse(made[22]));
    BOOST_TEST(!fb::reuse_of(made).has_value());
    BOOST_TEST(!fb::reuse_of(made_rounds(20, 1, 0.0, 0.01)).has_value());
    BOOST_TEST(!fb::reuse_of(made_rounds(1, 6, 0.0, 0.01)).has_value());
}

// A student that computes only on inputs it has not seen makes its fresh
// calls the long ones, which a neighbour preempts most: where their waits
// were read, every such round still counts, and the reuse is caught.
BOOST_AUTO_TEST_CASE(a_reusing_student_is_caught_though_a_neighbour_preempted_every_fresh_round) {
    std::vector<fb::Round> made = made_rounds(80, 8, std::log(20.0), 0.03);
    for (fb::Round& round : made) {
        round.reference_wait_ms = 0.0;
        round.student_wait_ms = 0.0;
        if (round.fresh) {
            round.preempted = true;
            round.student_wait_ms = 0.2;  // read, and left out of the log-ratio
            round.student_ms += 0.2;
        }
    }
    const auto reuse = fb::reuse_of(made);
    BOOST_TEST_REQUIRE(reuse.has_value());
    BOOST_TEST(reuse->fresh_rounds == 8u);
    BOOST_TEST(reuse->student_gained());
    // Where the waits were not read, those rounds say nothing, and none is judged.
    for (fb::Round& round : made) {
        if (round.fresh) round.student_wait_ms.reset();
    }
    BOOST_TEST(!fb::reuse_of(made).has_value());
}

// A median of a few short calls' log-ratios strays far: fewer than five fresh
// rounds are read, never judged.
BOOST_AUTO_TEST_CASE(fewer_than_five_fresh_rounds_judge_nothing) {
    const auto reuse = fb::reuse_of(made_rounds(40, 4, std::log(20.0), 0.03));
    BOOST_TEST_REQUIRE(reuse.has_value());
    BOOST_TEST(reuse->gain > 10.0);
    BOOST_TEST(!reuse->judged());
    BOOST_TEST(!reuse->student_gained());
}

// Rounds of 10 us calls on a busy machine: heavy tails (Cauchy noise here),
// which a standard error from the spread does not describe; the fresh rounds
// must also rank apart, and honest sides never do so far.
BOOST_AUTO_TEST_CASE(heavy_tailed_rounds_of_honest_sides_are_never_called_reusing) {
    for (unsigned seed = 1; seed <= 300; ++seed) {
        std::mt19937 engine(seed);
        std::cauchy_distribution<double> draw(0.0, 0.1);
        std::vector<fb::Round> made;
        for (std::size_t r = 0; r < 30; ++r) {
            made.push_back(round_of(r % 4 == 3 || r % 8 == 6, draw(engine),
                                    r % 4 == 0 || r % 4 == 3 ? fb::Side::reference : fb::Side::student));
        }
        const auto reuse = fb::reuse_of(made);
        BOOST_TEST_REQUIRE(reuse.has_value());
        BOOST_TEST(!reuse->student_gained(), "seed " << seed << ": gain " << reuse->gain << ", z " << reuse->rank_z);
        BOOST_TEST(!reuse->reference_gained(), "seed " << seed << ": gain " << reuse->gain << ", z " << reuse->rank_z);
    }
}
