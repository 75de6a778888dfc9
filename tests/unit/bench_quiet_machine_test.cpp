// Waiting out a busy stretch of the machine: when a window of readings says the
// machine is quiet again, and a wait that ends on a quiet window or at its budget.
#define BOOST_TEST_MODULE bench_quiet_machine
#include <boost/test/unit_test.hpp>

#include <cstddef>
#include <limits>
#include <memory>
#include <vector>

#include "quiet_machine.hpp"
#include "runtime.hpp"

namespace fb = forge::bench;

namespace {

// `quiet` readings at the run's quietest level, the rest of `count` at a busy 1.7x.
std::vector<double> window(std::size_t quiet, std::size_t count, double quietest = 0.33) {
    std::vector<double> readings(count, 1.7 * quietest);
    for (std::size_t i = 0; i < quiet; ++i) readings[i * count / quiet] = 1.05 * quietest;
    return readings;
}

}  // namespace

BOOST_AUTO_TEST_CASE(a_window_reads_quiet_when_half_of_its_readings_are) {
    BOOST_TEST(fb::reads_quiet(window(16, 16), 0.33));
    BOOST_TEST(fb::reads_quiet(window(8, 16), 0.33));
    BOOST_TEST(!fb::reads_quiet(window(7, 16), 0.33));
}

BOOST_AUTO_TEST_CASE(a_busy_stretch_with_one_quiet_reading_in_ten_does_not) {
    // As measured beside the noisy neighbour: a run kept busy throughout read its
    // quietest level in about one round in ten.
    BOOST_TEST(!fb::reads_quiet(window(2, 16), 0.33));
}

BOOST_AUTO_TEST_CASE(quiet_means_within_the_waits_margin_of_the_quietest_reading) {
    const double quietest = 0.5;
    BOOST_TEST(fb::reads_quiet(std::vector<double>{fb::machine_quiet_margin * quietest}, quietest));
    BOOST_TEST(!fb::reads_quiet(std::vector<double>{1.01 * fb::machine_quiet_margin * quietest}, quietest));
}

BOOST_AUTO_TEST_CASE(no_readings_are_not_quiet) { BOOST_TEST(!fb::reads_quiet(std::vector<double>{}, 0.33)); }

BOOST_AUTO_TEST_CASE(a_machine_that_reads_quiet_ends_the_wait_after_one_window) {
    const std::unique_ptr<fb::Runtime> runtime = fb::make_host_runtime(std::size_t{8} << 20);
    // Every reading is within any margin of a quietest level this high.
    const fb::MachineWait wait = fb::wait_for_quiet_machine(*runtime, std::numeric_limits<double>::max() / 2, 10.0);
    BOOST_TEST(wait.quiet);
    BOOST_TEST(wait.waited_s < 5.0);
}

BOOST_AUTO_TEST_CASE(a_machine_that_never_reads_quiet_waits_out_the_budget_and_says_so) {
    const std::unique_ptr<fb::Runtime> runtime = fb::make_host_runtime(std::size_t{8} << 20);
    // No memory read takes under a femtosecond: no reading is quiet.
    const fb::MachineWait wait = fb::wait_for_quiet_machine(*runtime, 1e-12, 0.2);
    BOOST_TEST(!wait.quiet);
    BOOST_TEST(wait.waited_s >= 0.2);
    BOOST_TEST(wait.waited_s < 5.0);  // it stops at the first window past the budget
}
