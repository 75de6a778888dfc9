// Whether the machine's speed moved during a workload's rounds. Paired rounds
// cancel a change that hits both sides of a round alike, but a reader should
// know the machine was not steady: a short calibration of fixed work is timed
// between rounds (runtime/calibration.hpp), and a run whose calibration moved
// is marked.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

namespace forge::bench {

struct Drift {
    std::vector<double> block_medians_ms;  // the calibration's median in each block of rounds, in order
    double moved = 0.0;                    // slowest block / fastest block - 1
    bool flagged = false;                  // moved more than the threshold
};

// Rounds are split into `blocks` consecutive blocks (fewer when there are fewer
// than 3 readings a block; none below 2 blocks: nothing is flagged). A block's
// median ignores a single slow reading; a step or a trend moves whole blocks.
[[nodiscard]] Drift calibration_drift(std::span<const double> calibration_ms, double threshold = 0.05,
                                      std::size_t blocks = 4);

// Whether the ratio itself moved during a workload's rounds: a machine that
// changed under them in a way that slowed one side more than the other (a
// neighbour competing for memory bandwidth or a core's vector units, a change
// the calibrations between rounds did not see). The interval's layouts each
// span the whole workload, so it does not widen for such a change: it is marked.
struct RatioDrift {
    std::vector<double> block_ratios;  // exp(median log-ratio) of each block of counted rounds, in order
    double moved = 0.0;                // highest block / lowest block - 1
    double kruskal_wallis_h = 0.0;     // the blocks' rank statistic
    double p_value = 1.0;              // its chance under rounds alike from start to end (chi-squared, blocks - 1)
    bool flagged = false;              // p_value below `alpha` and moved more than `threshold`
};

// The counted rounds' log-ratios in time order, in `blocks` consecutive blocks
// of at least 4 rounds (none below 2 blocks: nothing is flagged). Ranks, not
// values: a round's log-ratio has heavy tails, and a test on the blocks'
// medians with a normal's standard error flagged 3% of workloads whose rounds
// were shuffled (docs/lab/README.md, "A ratio that moves during its rounds").
[[nodiscard]] RatioDrift ratio_drift(std::span<const double> log_ratios, std::size_t blocks = 8, double alpha = 0.001,
                                     double threshold = 0.05);

}  // namespace forge::bench
