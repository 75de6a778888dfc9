#define BOOST_TEST_MODULE bench_stopping
#include <boost/test/unit_test.hpp>

#include <cmath>
#include <random>
#include <vector>

#include "forge/stats/summary.hpp"
#include "rules/stopping.hpp"

namespace fb = forge::bench;
namespace tt = boost::test_tools;

namespace {

fb::StoppingParameters parameters() {
    fb::StoppingParameters p;
    p.precision = 0.01;
    p.min_rounds = 20;
    p.max_rounds = 5000;
    p.min_measured_s = 0.0;
    p.max_wall_s = 1e9;
    return p;
}

// A synthetic machine: each call's true time times the machine's speed factor
// at that moment, times a little noise; a neighbour slows everything by
// `slowdown` from round `step_at` on.
struct Machine {
    double reference_ms = 1.0;
    double student_ms = 2.0;  // the true ratio is 0.5
    std::size_t step_at = 200;
    double slowdown = 1.5;
    std::mt19937_64 random{1};
    std::normal_distribution<double> noise{1.0, 0.003};

    double call(double ms, std::size_t round) {
        return ms * (round >= step_at ? slowdown : 1.0) * noise(random);
    }
};

// The ratio's interval over the rounds that count, as the harness takes it.
forge::stats::RatioInterval interval(const fb::StoppingCriterion& criterion) {
    return forge::stats::clustered_paired_ratio(fb::paired_rounds(criterion.readings(), criterion.counted()),
                                                criterion.parameters().confidence);
}

}  // namespace

BOOST_AUTO_TEST_CASE(rounds_continue_until_the_interval_is_as_narrow_as_asked) {
    fb::StoppingCriterion criterion(parameters());
    std::mt19937_64 random(3);
    std::normal_distribution<double> noise(std::log(0.5), 0.05);
    std::size_t rounds = 0;
    do {
        criterion.add({noise(random), 0, 1.0});
        ++rounds;
    } while (!criterion.is_finished(0.0));
    BOOST_TEST(rounds > 20u);  // 5% noise per round needs more than the minimum for +/-1%
    BOOST_TEST((criterion.reason() == fb::StopReason::precision_reached));
    BOOST_TEST(interval(criterion).relative_half_width() <= 0.01);
    BOOST_TEST(interval(criterion).ratio == 0.5, tt::tolerance(0.01));
}

BOOST_AUTO_TEST_CASE(the_minimum_holds_even_past_the_time_cap) {
    fb::StoppingParameters p = parameters();
    p.max_wall_s = 0.0;  // already spent
    fb::StoppingCriterion criterion(p);
    for (int r = 0; r < 19; ++r) {
        criterion.add({0.0, 0, 1.0});
        BOOST_TEST(!criterion.is_finished(100.0));
    }
    criterion.add({0.0, 0, 1.0});
    BOOST_TEST(criterion.is_finished(100.0));
    // Identical rounds: a zero-width interval, which is precise.
    BOOST_TEST((criterion.reason() == fb::StopReason::precision_reached));
}

BOOST_AUTO_TEST_CASE(an_imprecise_run_stops_at_the_cap_and_says_so) {
    fb::StoppingParameters p = parameters();
    p.max_wall_s = 1.0;
    fb::StoppingCriterion criterion(p);
    std::mt19937_64 random(5);
    std::normal_distribution<double> noise(0.0, 0.5);  // far too noisy for +/-1% in a few rounds
    double wall_s = 0.0;
    do {
        criterion.add({noise(random), 0, 1.0});
        wall_s += 0.01;
    } while (!criterion.is_finished(wall_s));
    BOOST_TEST((criterion.reason() == fb::StopReason::wall_cap));
    BOOST_TEST(criterion.rounds() == 100u);
}

BOOST_AUTO_TEST_CASE(a_cap_reached_before_the_minimum_measured_time_never_claims_precision) {
    // Calls of a few us: the time cap comes before 0.3 s of them add up.
    fb::StoppingParameters p = parameters();
    p.min_measured_s = 0.3;
    p.max_wall_s = 0.8;
    fb::StoppingCriterion criterion(p);
    double wall_s = 0.0;
    do {
        criterion.add({0.0, 0, 0.002});  // identical rounds: a zero-width interval
        wall_s += 0.01;
    } while (!criterion.is_finished(wall_s));
    BOOST_TEST(criterion.rounds() == 80u);
    BOOST_TEST((criterion.reason() == fb::StopReason::wall_cap));
}

BOOST_AUTO_TEST_CASE(precision_reached_between_looks_is_named_at_the_round_cap) {
    // The looks fall at rounds ..., 40, 42, 44; the 20th quiet round, which makes
    // the (zero-width) interval precise, is round 45, the cap.
    fb::StoppingParameters p = parameters();
    p.max_rounds = 45;
    fb::StoppingCriterion criterion(p);
    std::size_t round = 0;
    do {
        ++round;
        criterion.add({0.0, 0, 1.0, /*disturbed=*/round <= 25});
    } while (!criterion.is_finished(0.0));
    BOOST_TEST(criterion.rounds() == 45u);
    BOOST_TEST((criterion.reason() == fb::StopReason::precision_reached));
}

BOOST_AUTO_TEST_CASE(measured_time_below_its_minimum_keeps_the_rounds_going) {
    fb::StoppingParameters p = parameters();
    p.min_measured_s = 0.1;
    fb::StoppingCriterion criterion(p);
    std::size_t rounds = 0;
    do {
        criterion.add({0.0, 0, 2.0});  // 2 ms a round: 50 rounds make 0.1 s
        ++rounds;
    } while (!criterion.is_finished(0.0));
    BOOST_TEST(rounds == 50u);
}

// A neighbour arrives mid-run and slows the machine by 50%. Paired rounds see it
// on both sides of each round and stay within 1% of the true ratio; timing all
// reference calls first and all student calls after (the old block design)
// puts the slowdown on the student only.
BOOST_AUTO_TEST_CASE(a_step_change_mid_run_moves_the_paired_estimate_by_less_than_one_percent) {
    Machine machine;
    fb::StoppingCriterion criterion(parameters());
    std::vector<double> reference_block;
    std::vector<double> student_block;
    for (std::size_t r = 0; r < 400; ++r) {
        const double reference = machine.call(machine.reference_ms, r);
        const double student = machine.call(machine.student_ms, r);
        criterion.add({std::log(reference / student), 0, reference + student});
        // Block design: 200 reference samples (before the step), then 200 student ones (after it).
        if (r < 200) reference_block.push_back(machine.call(machine.reference_ms, r));
        if (r >= 200) student_block.push_back(machine.call(machine.student_ms, r));
    }
    BOOST_TEST(interval(criterion).ratio == 0.5, tt::tolerance(0.01));
    const double block_ratio = forge::stats::median(reference_block) / forge::stats::median(student_block);
    BOOST_TEST(std::abs(block_ratio / 0.5 - 1.0) > 0.3);  // 0.333: off by a third
}

// The interval a run stops with (the rule looks at it repeatedly) still covers
// the true ratio about 95% of the time: 1,000 seeded runs, 93-97%.
BOOST_AUTO_TEST_CASE(the_interval_a_run_stops_with_covers_the_truth_95_percent_of_the_time) {
    std::mt19937_64 random(2026);
    std::normal_distribution<double> jitter(0.0, 0.03);
    std::bernoulli_distribution sliced(0.1);
    std::bernoulli_distribution on_reference(0.5);
    const double truth = 0.8;
    int covered = 0;
    for (int run = 0; run < 1000; ++run) {
        fb::StoppingCriterion criterion(parameters());
        do {
            double log_ratio = std::log(truth) + jitter(random);
            if (sliced(random)) log_ratio += on_reference(random) ? 0.3 : -0.3;
            criterion.add({log_ratio, 0, 1.0});
        } while (!criterion.is_finished(0.0));
        const forge::stats::RatioInterval reached = interval(criterion);
        covered += reached.low <= truth && truth <= reached.high ? 1 : 0;
    }
    BOOST_TEST(covered >= 930);
    BOOST_TEST(covered <= 970);
}

// A busy machine preempts the 10 ms reference in most rounds and the 1 ms student
// rarely, inflating the reference by a time slice: clean rounds alone read the
// true ratio (10); with every round, the estimate is off by a third.
BOOST_AUTO_TEST_CASE(rounds_with_a_preempted_call_are_set_aside_once_enough_are_clean) {
    std::mt19937_64 random(8);
    std::bernoulli_distribution reference_preempted(0.6);
    std::bernoulli_distribution student_preempted(0.06);
    std::normal_distribution<double> noise(1.0, 0.002);
    fb::StoppingCriterion criterion(parameters());
    std::vector<double> every_round;
    do {
        const bool ref_hit = reference_preempted(random);
        const bool stu_hit = student_preempted(random);
        const double reference = 10.0 * noise(random) + (ref_hit ? 4.0 : 0.0);
        const double student = 1.0 * noise(random) + (stu_hit ? 4.0 : 0.0);
        every_round.push_back(std::log(reference / student));
        criterion.add({std::log(reference / student), 0, reference + student, ref_hit || stu_hit});
    } while (!criterion.is_finished(0.0));
    BOOST_TEST((criterion.counted().selection == fb::RoundSelection::quiet));
    BOOST_TEST(fb::paired_rounds(criterion.readings(), criterion.counted()).log_ratios.size() < criterion.rounds());
    BOOST_TEST(interval(criterion).ratio == 10.0, tt::tolerance(0.01));
    BOOST_TEST(std::exp(forge::stats::median(every_round)) > 12.0);
}

BOOST_AUTO_TEST_CASE(too_few_clean_rounds_fall_back_to_all_of_them_and_never_claim_precision) {
    fb::StoppingParameters p = parameters();
    p.max_wall_s = 1.0;
    fb::StoppingCriterion criterion(p);
    double wall_s = 0.0;
    do {
        criterion.add({0.0, 0, 1.0, true});  // every round preempted, all alike
        wall_s += 0.01;
    } while (!criterion.is_finished(wall_s));
    BOOST_TEST((criterion.counted().selection == fb::RoundSelection::all));
    BOOST_TEST((criterion.reason() == fb::StopReason::wall_cap));
    BOOST_TEST(interval(criterion).ratio == 1.0);
    BOOST_TEST(criterion.counted().quiet_rounds == 0u);
}

// A neighbour that sweeps memory half of the time slows the memory-bound student
// by 80% and the compute-bound reference by 5% while it runs: the rounds in its
// busy phases read a ratio near 0.58 instead of 1. The memory calibration marks
// those rounds; the quiet ones read the truth.
BOOST_AUTO_TEST_CASE(rounds_while_a_neighbour_sweeps_memory_are_set_aside) {
    std::mt19937_64 random(12);
    std::normal_distribution<double> noise(1.0, 0.003);
    fb::StoppingCriterion criterion(parameters());
    std::size_t r = 0;
    do {
        const bool busy = (r / 6) % 2 == 1;  // phases of 6 rounds
        const double reference = 2.0 * noise(random) * (busy ? 1.05 : 1.0);
        const double student = 2.0 * noise(random) * (busy ? 1.8 : 1.0);
        const double machine_ms = 0.3 * noise(random) * (busy ? 1.6 : 1.0);
        criterion.add({std::log(reference / student), 0, reference + student, false, machine_ms});
        ++r;
    } while (!criterion.is_finished(0.0));
    BOOST_TEST((criterion.counted().selection == fb::RoundSelection::quiet));
    BOOST_TEST(interval(criterion).ratio == 1.0, tt::tolerance(0.01));
    const std::vector<bool> used = criterion.counted().counted;
    BOOST_TEST(!used[6]);  // the first busy round
    BOOST_TEST(used[0]);
}

// Two neighbours out of phase keep the machine busy in 85% of the rounds; the
// quiet 15% come in short gaps. Against the run's lower quartile (a busy
// reading) every round would pass as quiet and the ratio would read the busy
// 0.58; against the quietest reading only the gaps do, and they read the truth.
BOOST_AUTO_TEST_CASE(a_run_busy_most_of_the_time_is_judged_by_its_quiet_gaps) {
    std::mt19937_64 random(13);
    std::normal_distribution<double> noise(1.0, 0.003);
    std::bernoulli_distribution gap(0.15);
    fb::StoppingCriterion criterion(parameters());
    std::size_t busy_rounds = 0;
    do {
        const bool busy = !gap(random);
        busy_rounds += busy ? 1 : 0;
        const double reference = 2.0 * noise(random) * (busy ? 1.05 : 1.0);
        const double student = 2.0 * noise(random) * (busy ? 1.8 : 1.0);
        const double machine_ms = 0.3 * noise(random) * (busy ? 1.6 : 1.0);
        criterion.add({std::log(reference / student), 0, reference + student, false, machine_ms});
    } while (!criterion.is_finished(0.0));
    BOOST_TEST(busy_rounds > criterion.rounds() / 2);
    BOOST_TEST((criterion.counted().selection == fb::RoundSelection::quiet));
    BOOST_TEST(interval(criterion).ratio == 1.0, tt::tolerance(0.01));
}

// Another tenant's memory traffic covers a whole workload: every one of its
// rounds reads the machine 1.8x slower than the run's earlier workloads did, and
// its memory-bound student 1.8x slower. Judged against its own readings half of
// its rounds would pass as quiet; judged against the run's, none does, so it
// never claims the precision and waits past the cap before falling back.
BOOST_AUTO_TEST_CASE(a_workload_busy_throughout_is_judged_against_the_runs_quiet_readings) {
    fb::StoppingParameters p = parameters();
    p.max_wall_s = 1.0;
    p.quiet_wait_s = 1.0;
    std::mt19937_64 random(21);
    std::normal_distribution<double> noise(1.0, 0.002);
    std::vector<double> earlier;
    for (int r = 0; r < 200; ++r) earlier.push_back(0.3 * noise(random));
    fb::StoppingCriterion criterion(p, earlier);
    double wall_s = 0.0;
    do {
        criterion.add({std::log(1.0 / 1.8) + std::log(noise(random)), 0, 2.0, false, 0.54 * noise(random)});
        wall_s += 0.01;
    } while (!criterion.is_finished(wall_s));
    BOOST_TEST((criterion.counted().selection == fb::RoundSelection::undisturbed));
    BOOST_TEST((criterion.reason() == fb::StopReason::wall_cap));
    BOOST_TEST(criterion.waited_for_quiet());
    BOOST_TEST(wall_s >= 2.0 - 1e-9);
    BOOST_TEST(criterion.counted().quiet_rounds == 0u);

    fb::StoppingCriterion alone(p);  // the same rounds, no earlier readings: taken for quiet
    for (int r = 0; r < 100; ++r) alone.add({std::log(1.0 / 1.8), 0, 2.0, false, 0.54 * noise(random)});
    BOOST_TEST((alone.counted().selection == fb::RoundSelection::quiet));
    BOOST_TEST(alone.counted().quiet_rounds == 100u);
}

// The busy stretch ends a little after the cap: the rounds go on, and the quiet
// ones that follow read the true ratio (1) instead of the busy one (0.56).
BOOST_AUTO_TEST_CASE(rounds_go_on_past_the_cap_until_enough_are_quiet) {
    fb::StoppingParameters p = parameters();
    p.max_wall_s = 1.0;
    p.quiet_wait_s = 4.0;
    std::mt19937_64 random(22);
    std::normal_distribution<double> noise(1.0, 0.002);
    std::vector<double> earlier(200, 0.3);
    fb::StoppingCriterion criterion(p, earlier);
    double wall_s = 0.0;
    do {
        const bool busy = wall_s < 1.5;
        const double student = 2.0 * noise(random) * (busy ? 1.8 : 1.0);
        criterion.add(
            {std::log(2.0 * noise(random) / student), 0, 4.0, false, 0.3 * noise(random) * (busy ? 1.8 : 1.0)});
        wall_s += 0.01;
    } while (!criterion.is_finished(wall_s));
    BOOST_TEST(criterion.waited_for_quiet());
    BOOST_TEST((criterion.counted().selection == fb::RoundSelection::quiet));
    BOOST_TEST((criterion.reason() == fb::StopReason::precision_reached));
    BOOST_TEST(interval(criterion).ratio == 1.0, tt::tolerance(0.01));
    BOOST_TEST(wall_s < 2.0);
}

namespace {

// Rounds taking turns over 8 layouts, each layout biased by `layout_bias[l]`
// (where its tensors lie), with `noise` of a round's own; 0.03 s a round
// against a 4 s cap. Returns the rounds run.
std::size_t run_over_layouts(fb::StoppingCriterion& criterion, const std::vector<double>& layout_bias, double noise_sd,
                             std::uint64_t seed) {
    std::mt19937_64 random(seed);
    std::normal_distribution<double> noise(std::log(2.0), noise_sd);
    double wall_s = 0.0;
    std::size_t rounds = 0;
    do {
        const std::size_t layout = (rounds / 4) % layout_bias.size();
        criterion.add({layout_bias[layout] + noise(random), layout, 1.0});
        ++rounds;
        wall_s += 0.03;
    } while (!criterion.is_finished(wall_s));
    return rounds;
}

fb::StoppingParameters capped() {
    fb::StoppingParameters p = parameters();
    p.max_wall_s = 4.0;
    return p;
}

std::vector<double> layouts_apart() { return {0.03, -0.04, 0.0, 0.05, -0.02, 0.01, -0.05, 0.02}; }

}  // namespace

// Layouts 3.5% apart, rounds 1% noisy: the interval is the layouts' spread,
// about 3%, and the 133 rounds of the cap would leave it so; the rounds stop
// once every layout has its rounds, and say why.
BOOST_AUTO_TEST_CASE(an_interval_bound_by_its_layouts_stops_before_the_cap) {
    fb::StoppingCriterion criterion(capped());
    criterion.use_clusters(layouts_apart().size());
    const std::size_t rounds = run_over_layouts(criterion, layouts_apart(), 0.01, 7);
    BOOST_TEST((criterion.reason() == fb::StopReason::out_of_reach));
    BOOST_TEST(rounds >= 32u);  // 4 rounds on each of the 8 layouts
    BOOST_TEST(rounds < 80u);
    BOOST_TEST(interval(criterion).relative_half_width() > 0.01);

    // The same rounds, run to the cap: about as wide.
    fb::StoppingParameters no_early_stop = capped();
    fb::StoppingCriterion to_cap(no_early_stop);
    (void)run_over_layouts(to_cap, layouts_apart(), 0.01, 7);
    BOOST_TEST((to_cap.reason() == fb::StopReason::wall_cap));
    BOOST_TEST(interval(to_cap).relative_half_width() >= 0.8 * interval(criterion).relative_half_width());
}

// Layouts alike and rounds 6% noisy: more rounds narrow the interval, so the
// rounds go on to the cap; so do rounds whose schedule has added layouts that
// have no rounds yet.
BOOST_AUTO_TEST_CASE(an_interval_more_rounds_would_narrow_goes_on_to_the_cap) {
    fb::StoppingCriterion noisy(capped());
    noisy.use_clusters(8);
    const std::size_t rounds = run_over_layouts(noisy, std::vector<double>(8, 0.0), 0.06, 11);
    BOOST_TEST((noisy.reason() == fb::StopReason::wall_cap));
    BOOST_TEST(rounds == 134u);

    fb::StoppingCriterion grown(capped());
    grown.use_clusters(16);  // only 8 of them get rounds here
    (void)run_over_layouts(grown, layouts_apart(), 0.01, 7);
    BOOST_TEST((grown.reason() == fb::StopReason::wall_cap));
}

// The first five layouts read alike and the last three apart: a look before
// every layout has its rounds would see +/-0.1% and stop on "precision
// reached"; the interval of all eight is +/-3%.
BOOST_AUTO_TEST_CASE(precision_is_not_claimed_before_every_layout_is_read) {
    const std::vector<double> last_apart{0.0, 0.0, 0.0, 0.0, 0.0, 0.06, -0.06, 0.05};
    fb::StoppingCriterion criterion(capped());
    criterion.use_clusters(last_apart.size());
    const std::size_t rounds = run_over_layouts(criterion, last_apart, 0.001, 3);
    BOOST_TEST((criterion.reason() != fb::StopReason::precision_reached));
    BOOST_TEST(rounds >= 32u);
    BOOST_TEST(interval(criterion).relative_half_width() > 0.01);
}
