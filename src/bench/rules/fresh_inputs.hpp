// Rounds on inputs no call has seen, and what they prove: that a side's calls
// are no faster on contents they have seen before.
//
// The rounds alternate two input variants, so a side could keep its answers
// keyed by its inputs (their address, a few of their values, a hash of them)
// and compute only the first time, as students on public leaderboards did
// (gpu-mode reference-kernels #102, #104, #142; flashinfer-bench #21). Making
// every call's inputs anew would cost more than the calls on a memory-bound
// card (the bench's inputs() draws every element), so some rounds get a fresh
// variant, drawn from a seed no code in the process can know beforehand, and
// those rounds' log-ratios are held to the others': a side that reuses work
// reads faster on the seen variants than on the fresh ones. The fresh rounds
// also check each side's outputs against the other's on those inputs, so an
// answer kept for other contents (a cache keyed by address) fails there.
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

namespace forge::bench {

struct Round;  // record.hpp, which keeps a workload's Reuse

// When fresh inputs are drawn and which rounds take them: two rounds in every
// eight (one with each side first), while drawing them has cost at most a
// quarter of the rounds' wall time; then, once the rounds are otherwise done,
// every other round until `minimum` of them can be compared
// (compared_for_reuse), or for at most `past_stop_cap` times as many rounds (a
// machine that preempts every round where waits cannot be read).
//
// The inputs are drawn a round ahead: a round never takes the inputs drawn
// right before it. Timed right after its inputs were drawn, an honest
// memory-bound student read a few percent slower on them than on the seen
// variants, which read as reuse (docs/lab/README.md, "A fresh round right
// after its draw"); the round that follows a draw on seen inputs read alike.
class FreshSchedule {
public:
    static constexpr double budget = 0.25;  // of the rounds' wall time, for drawing inputs
    static constexpr std::size_t past_stop_cap = 4;

    explicit FreshSchedule(std::size_t minimum) noexcept : minimum_(minimum) {}

    // Whether to draw fresh inputs before the next round, none waiting, with
    // `fresh_so_far` comparable fresh rounds among the workload's, `drawing_s`
    // spent drawing and `wall_s` in the rounds; `stopping` once the precision
    // criterion is done.
    [[nodiscard]] bool draw(std::size_t fresh_so_far, double drawing_s, double wall_s, bool stopping) const noexcept;
    // Whether round `round` (of this measurement) takes the waiting fresh
    // inputs, drawn `rounds_since_draw` rounds before it (0: right before it).
    [[nodiscard]] bool fresh(std::size_t round, std::size_t rounds_since_draw, std::size_t fresh_so_far,
                             bool stopping) const noexcept;
    // Whether the rounds may end with `fresh_so_far` comparable fresh ones,
    // `past_stop` rounds after the criterion was done.
    [[nodiscard]] bool enough(std::size_t fresh_so_far, std::size_t past_stop) const noexcept {
        return fresh_so_far >= minimum_ || past_stop >= past_stop_cap * minimum_;
    }

private:
    std::size_t minimum_;
};

// Fresh rounds against the others, by the median of their log(reference /
// student) as the ratio itself is, each round's taken relative to the seen
// rounds with the same side first. A side that reuses work raises (student)
// or lowers (reference) the log-ratio on seen inputs; the difference must
// exceed both noise (`z` standard errors of the two medians, each from the
// rounds' median absolute deviation) and `floor`, and the fresh rounds must
// rank apart from the seen ones (Mann-Whitney's U, `rank_z` standard
// deviations): a short call's rounds have tails no standard error describes.
struct Reuse {
    static constexpr double z = 4.0;
    static constexpr double floor = 0.02;  // log-ratio: 2%
    // Fewer fresh rounds judge nothing: the median of two or three short calls'
    // log-ratios strays past 4 standard errors of normal noise in honest
    // workloads (docs/lab/README.md).
    static constexpr std::size_t judged_from = 5;
    static constexpr double rank_z_needed = 3.0;

    std::size_t fresh_rounds = 0;
    std::size_t seen_rounds = 0;
    // exp(median on seen inputs - median on fresh): the ratio on seen inputs
    // over the ratio on fresh; above 1 the student, below 1 the reference read
    // faster on inputs it had seen.
    double gain = 1.0;
    // The gain (either way) the rounds could tell from noise: exp(max(z standard errors, floor)).
    double resolves = 1.0;
    // (E[U] - U) / sd(U) of the fresh rounds' U against the seen rounds: above
    // 0 they rank lower (the student gained on seen inputs), below 0 higher.
    double rank_z = 0.0;

    [[nodiscard]] bool judged() const noexcept { return fresh_rounds >= judged_from; }
    [[nodiscard]] bool student_gained() const noexcept {
        return judged() && gain > resolves && rank_z > rank_z_needed;
    }
    [[nodiscard]] bool reference_gained() const noexcept {
        return judged() && gain * resolves < 1.0 && rank_z < -rank_z_needed;
    }
};

// Whether a round's log-ratio is held to the others' for reuse: not throttled,
// and not preempted unless both calls' waits for their CPU were read (HOST),
// which its log-ratio leaves out. A side that computes only on fresh inputs
// makes those calls the long ones, which meet a neighbour's time slices most:
// beside one, setting every preempted round aside left 2 of a workload's fresh
// rounds against 87 seen (docs/lab/README.md), too few to judge.
[[nodiscard]] bool compared_for_reuse(const Round& round) noexcept;

// The rounds compared_for_reuse keeps, quiet or not: a busy stretch slows both
// sides of a round, fresh or seen, alike. None when fewer than two fresh or
// seen rounds remain.
[[nodiscard]] std::optional<Reuse> reuse_of(const std::vector<Round>& rounds);

}  // namespace forge::bench
