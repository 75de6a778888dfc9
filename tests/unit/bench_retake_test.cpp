// Which finished workloads are measured again at the end of a run: those whose
// rounds passed as quiet against their own readings of the machine but not
// against the whole run's (a busy stretch over the run's start), and those that
// fell back to busy rounds while another workload found quiet ones.
#define BOOST_TEST_MODULE bench_retake
#include <boost/test/unit_test.hpp>

#include <cstddef>
#include <random>
#include <vector>

#include "results/record.hpp"
#include "rules/retake.hpp"
#include "rules/stopping.hpp"

namespace fb = forge::bench;

namespace {

// A finished workload of `rounds` rounds whose memory calibration read about
// `machine_ms` throughout, chosen as its stopping rule chose them.
fb::WorkloadRecord workload(double machine_ms, fb::RoundSelection selection, std::size_t rounds = 60,
                            unsigned seed = 1) {
    std::mt19937_64 random(seed);
    std::normal_distribution<double> noise(1.0, 0.01);
    fb::WorkloadRecord record;
    record.selection = selection;
    for (std::size_t r = 0; r < rounds; ++r) {
        fb::Round round;
        round.layout = (r / 2) % 4;
        round.reference_ms = 2.0 * noise(random);
        round.student_ms = 1.0 * noise(random);
        round.memory_calibration_ms = machine_ms * noise(random);
        record.rounds.push_back(round);
    }
    return record;
}

fb::StoppingParameters stopping() {
    fb::StoppingParameters p = fb::StoppingParameters::standard();
    p.min_rounds = 20;
    return p;
}

}  // namespace

BOOST_AUTO_TEST_CASE(a_first_workload_busy_throughout_is_retaken) {
    // The first workload's machine read 1.8x slower than the rest of the run's.
    const std::vector<fb::WorkloadRecord> run{workload(0.54, fb::RoundSelection::quiet, 60, 1),
                                              workload(0.30, fb::RoundSelection::quiet, 60, 2),
                                              workload(0.30, fb::RoundSelection::quiet, 60, 3)};
    BOOST_TEST(fb::workloads_to_retake(run, stopping()) == std::vector<std::size_t>{0},
               boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(a_run_alike_throughout_retakes_nothing) {
    // Busy or quiet, every workload saw the same machine: none was fooled.
    const std::vector<fb::WorkloadRecord> busy{workload(0.54, fb::RoundSelection::quiet, 60, 1),
                                               workload(0.54, fb::RoundSelection::quiet, 60, 2)};
    BOOST_TEST(fb::workloads_to_retake(busy, stopping()).empty());
    const std::vector<fb::WorkloadRecord> quiet{workload(0.30, fb::RoundSelection::quiet, 60, 1),
                                                workload(0.30, fb::RoundSelection::quiet, 60, 2)};
    BOOST_TEST(fb::workloads_to_retake(quiet, stopping()).empty());
}

BOOST_AUTO_TEST_CASE(a_workload_that_fell_back_is_retaken_when_the_machine_was_quiet_for_another) {
    // It waited for quiet rounds and fell back; the next workload found them.
    const std::vector<fb::WorkloadRecord> run{workload(0.54, fb::RoundSelection::undisturbed, 60, 1),
                                              workload(0.30, fb::RoundSelection::quiet, 60, 2)};
    BOOST_TEST(fb::workloads_to_retake(run, stopping()) == std::vector<std::size_t>{0},
               boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(a_run_busy_throughout_retakes_none_of_its_fallen_back_workloads) {
    // No workload found quiet rounds: measuring again would double a busy machine's time.
    const std::vector<fb::WorkloadRecord> run{workload(0.54, fb::RoundSelection::undisturbed, 60, 1),
                                              workload(0.54, fb::RoundSelection::undisturbed, 60, 2),
                                              workload(0.54, fb::RoundSelection::all, 60, 3)};
    BOOST_TEST(fb::workloads_to_retake(run, stopping()).empty());
    // One fooled workload (quiet by its own readings only) is no evidence of a quiet machine either.
    const std::vector<fb::WorkloadRecord> fooled{workload(0.54, fb::RoundSelection::quiet, 60, 1),
                                                 workload(0.54, fb::RoundSelection::undisturbed, 60, 2),
                                                 workload(0.30, fb::RoundSelection::undisturbed, 20, 3)};
    BOOST_TEST(fb::workloads_to_retake(fooled, stopping()) == std::vector<std::size_t>{0},
               boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(a_busy_stretch_over_part_of_a_workload_leaves_it_alone_while_enough_rounds_are_quiet) {
    // 60 rounds, the first 30 busy: 30 quiet ones remain, more than min_rounds.
    fb::WorkloadRecord partly = workload(0.30, fb::RoundSelection::quiet, 60, 1);
    for (std::size_t r = 0; r < 30; ++r) partly.rounds[r].memory_calibration_ms *= 1.8;
    const std::vector<fb::WorkloadRecord> run{partly, workload(0.30, fb::RoundSelection::quiet, 60, 2)};
    BOOST_TEST(fb::workloads_to_retake(run, stopping()).empty());
}

BOOST_AUTO_TEST_CASE(the_first_round_is_judged_by_the_reading_before_it_too) {
    // min_rounds rounds, all quiet by the readings after them; the machine read
    // busy before the first, so that round was not quiet when it ran.
    fb::WorkloadRecord first_busy = workload(0.30, fb::RoundSelection::quiet, 20, 1);
    const std::vector<fb::WorkloadRecord> quiet_before{first_busy, workload(0.30, fb::RoundSelection::quiet, 60, 2)};
    BOOST_TEST(fb::workloads_to_retake(quiet_before, stopping()).empty());
    first_busy.memory_calibration_before_ms = 0.54;
    const std::vector<fb::WorkloadRecord> busy_before{first_busy, workload(0.30, fb::RoundSelection::quiet, 60, 2)};
    BOOST_TEST(fb::workloads_to_retake(busy_before, stopping()) == std::vector<std::size_t>{0},
               boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(no_retakes_where_the_stopping_rule_takes_none) {
    const std::vector<fb::WorkloadRecord> run{workload(0.54, fb::RoundSelection::quiet, 60, 1),
                                              workload(0.30, fb::RoundSelection::quiet, 60, 2)};
    BOOST_TEST(fb::workloads_to_retake(run, fb::StoppingParameters::quick()).empty());  // --quick
    BOOST_TEST(fb::machine_readings(run).size() == 120u);
    BOOST_TEST(fb::machine_readings(run, &run[0]).size() == 60u);
}
