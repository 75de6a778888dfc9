// Which side goes first, on which input variant and which layout, in each round.
//
// Rounds come in blocks of four on one layout (other copies of the tensors):
//   round in block   0   1   2   3
//   first            R   S   S   R
//   input variant    0   1   0   1
// so every layout sees each order with each variant and neither side always
// runs first. The calls go R S S R S R R S: each side follows its own call on
// the same tensors exactly once per block (S S, then R R), and a block ends on
// the other side than the next one starts with. With R S R S S R S R only the
// student ever did (rounds 1 and 2), and that call read faster (the one flush
// since its own last call had not evicted everything it touched): a bench of
// one function on both sides read above 1 (docs/lab/README.md, "Round order").
// A side's consecutive calls on one layout's tensors always hold different
// contents: a call that returns outputs kept from its previous call on the same
// addresses returns the other variant's, and its timed-output check fails. The
// variant alternates round by round and a block ends on variant 1, so the next
// block on that layout (and the first, after a warm-up on variant 1) starts on 0.
#pragma once

#include <array>
#include <cstddef>
#include <string>

#include "forge/bench/bench.hpp"
#include "rules/declarations.hpp"

namespace forge::bench {

// Both sides, `first` first: the order one round or one turn times them in.
[[nodiscard]] constexpr std::array<Side, 2> in_order(Side first) noexcept {
    return first == Side::reference ? std::array{Side::reference, Side::student}
                                    : std::array{Side::student, Side::reference};
}

// The calls outside the rounds (pipelined batches, profiled calls) simply take
// turns going first, the reference in even turns, so neither side always does.
[[nodiscard]] constexpr std::array<Side, 2> alternating_order(std::size_t turn) noexcept {
    return in_order(turn % 2 == 0 ? Side::reference : Side::student);
}

class RoundSchedule {
public:
    static_assert(input_variants == 2, "the schedule alternates two input variants");
    static constexpr std::size_t block = 4;    // rounds on one layout before the next
    static constexpr int warm_up_variant = 1;  // what warm-up calls load: not round 0's

    explicit RoundSchedule(std::size_t layouts) noexcept : layouts_(layouts == 0 ? 1 : layouts) {}

    // Rounds from now on rotate through `layouts` (more than before: added_layouts()).
    void use_layouts(std::size_t layouts) noexcept { layouts_ = layouts == 0 ? 1 : layouts; }
    // Rounds in one pass over every layout.
    [[nodiscard]] std::size_t cycle() const noexcept { return block * layouts_; }

    [[nodiscard]] static Side first(std::size_t round) noexcept {
        const std::size_t in_block = round % block;
        return in_block == 0 || in_block == 3 ? Side::reference : Side::student;
    }
    [[nodiscard]] static int variant(std::size_t round) noexcept {
        return static_cast<int>(round % input_variants);
    }
    [[nodiscard]] std::size_t layout(std::size_t round) const noexcept { return (round / block) % layouts_; }

    // The schedule in words, spelt from first() and variant() (eval.json's
    // performance.stopping.order): "blocks of 4 rounds, ... first R S S R ...".
    [[nodiscard]] static std::string in_words();

private:
    std::size_t layouts_;
};

// How many layouts a workload's rounds rotate through. The interval's Student's
// t runs over the layouts' medians, so more of them narrow it where the rounds
// are many; but each costs its copy's setup and warm-up calls, and a layout of
// few rounds has a noisy median. So a workload starts on the first `initial`
// and, after one pass over them, takes all it may have (`most`) only where it
// needs and can have at least `rounds_each` rounds a layout: its interval then
// asks for that many rounds to reach the precision (rounds grow as the
// half-width's square), and their pace until then fits them before the time
// cap (docs/lab/README.md, "Layouts sized to the rounds").
struct LayoutGrowth {
    static constexpr std::size_t initial = 8;
    static constexpr std::size_t most = 16;
    static constexpr double rounds_each = 10.0;

    // The layouts from now on, `layouts` or `most_here` (most, or fewer where
    // memory holds fewer copies): `rounds` rounds took `elapsed_s` of
    // `max_wall_s`, and their interval's relative half-width is `half_width`
    // against the `precision` asked.
    [[nodiscard]] static std::size_t after_first_pass(std::size_t layouts, std::size_t most_here, std::size_t rounds,
                                                      double elapsed_s, double max_wall_s, double half_width,
                                                      double precision) noexcept;
};

}  // namespace forge::bench
