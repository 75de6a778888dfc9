// The order, input variant and layout of each round (RoundSchedule), held to what
// the rounds rely on for every layout count a bench can choose.
#define BOOST_TEST_MODULE bench_round_schedule
#include <boost/test/unit_test.hpp>

#include <array>
#include <cstddef>
#include <map>
#include <optional>
#include <set>
#include <utility>

#include "rules/round_schedule.hpp"

namespace fb = forge::bench;

namespace {

constexpr std::size_t rounds = 200;

}  // namespace

// A side's consecutive calls on one layout's tensors hold different contents,
// the warm-up's last call included: a call that returns what it left there last
// time is then wrong.
BOOST_AUTO_TEST_CASE(no_layout_sees_the_same_variant_twice_running) {
    for (std::size_t layouts = 1; layouts <= 8; ++layouts) {
        const fb::RoundSchedule schedule(layouts);
        std::map<std::size_t, int> last;
        for (std::size_t l = 0; l < layouts; ++l) last[l] = fb::RoundSchedule::warm_up_variant;
        for (std::size_t r = 0; r < rounds; ++r) {
            const std::size_t layout = schedule.layout(r);
            BOOST_TEST_REQUIRE(layout < layouts);
            BOOST_TEST(fb::RoundSchedule::variant(r) != last[layout], "layouts " << layouts << ", round " << r);
            last[layout] = fb::RoundSchedule::variant(r);
        }
    }
}

// Neither side always goes first, on any layout, with either variant; over any
// whole block the sides go first equally often.
BOOST_AUTO_TEST_CASE(every_layout_sees_each_order_with_each_variant) {
    for (std::size_t layouts = 1; layouts <= 8; ++layouts) {
        const fb::RoundSchedule schedule(layouts);
        std::map<std::size_t, std::set<std::pair<fb::Side, int>>> seen;
        std::array<std::size_t, 2> first{};
        for (std::size_t r = 0; r < fb::RoundSchedule::block * layouts; ++r) {
            const fb::Side side = fb::RoundSchedule::first(r);
            seen[schedule.layout(r)].emplace(side, fb::RoundSchedule::variant(r));
            ++first[side == fb::Side::reference ? 0 : 1];
        }
        BOOST_TEST(seen.size() == layouts);
        for (const auto& [layout, pairs] : seen) BOOST_TEST(pairs.size() == 4u, "layout " << layout);
        BOOST_TEST(first[0] == first[1]);
    }
}

// A side's call right after its own, on the same tensors, has had one flush
// since it last touched them, where the other's calls have had several; a flush
// that leaves a few lines behind makes such a call faster. Both sides get as
// many of them, on every layout count, in every block.
BOOST_AUTO_TEST_CASE(each_side_follows_its_own_call_on_one_layout_as_often) {
    for (std::size_t layouts = 1; layouts <= 8; ++layouts) {
        const fb::RoundSchedule schedule(layouts);
        std::array<std::size_t, 2> after_own{};
        std::optional<std::pair<fb::Side, std::size_t>> previous;  // the last call's side and layout
        for (std::size_t r = 0; r < rounds; ++r) {
            for (const fb::Side side : fb::in_order(fb::RoundSchedule::first(r))) {
                const std::pair call{side, schedule.layout(r)};
                if (previous == call) ++after_own[side == fb::Side::reference ? 0 : 1];
                previous = call;
            }
            if ((r + 1) % fb::RoundSchedule::block == 0) {
                BOOST_TEST(after_own[0] == after_own[1], "layouts " << layouts << ", round " << r);
            }
        }
        BOOST_TEST(after_own[0] > 0u);
    }
}

// The calls outside the rounds: both sides every turn, the first one alternating.
BOOST_AUTO_TEST_CASE(outside_the_rounds_the_sides_take_turns_going_first) {
    for (std::size_t turn = 0; turn < 8; ++turn) {
        const std::array<fb::Side, 2> order = fb::alternating_order(turn);
        BOOST_TEST((order[0] == (turn % 2 == 0 ? fb::Side::reference : fb::Side::student)), "turn " << turn);
        BOOST_TEST((order[1] != order[0]), "turn " << turn);
    }
}

// eval.json's performance.stopping.order says what first() and variant() do.
BOOST_AUTO_TEST_CASE(the_schedule_in_words_is_the_schedule) {
    BOOST_TEST(fb::RoundSchedule::in_words() ==
               "blocks of 4 rounds on one layout (a copy of each side's tensors), the next block on the next layout, "
               "over 8 layouts, or 16 after a first pass where the interval needs and the pace allows 10 rounds a "
               "layout or more before the time cap (fewer where 2 GiB holds fewer copies); in a block the side first "
               "goes R S S R (R reference, S student) on input variants 0 1 0 1, so the calls go R S S R S R R S; "
               "pipelined batches and profiled calls alternate the side first, the reference in even turns");
}

// After the first pass over 8 layouts (32 rounds): all 16 where the interval
// needs and the pace allows 10 rounds a layout before the cap, else the 8 go on.
BOOST_AUTO_TEST_CASE(layouts_grow_where_the_rounds_are_needed_and_fit) {
    using fb::LayoutGrowth;
    // +/-3% after 32 rounds asks for 288 to reach +/-1%; 0.6 s of a 4 s cap fits about 213.
    BOOST_TEST(LayoutGrowth::after_first_pass(8, 16, 32, 0.6, 4.0, 0.03, 0.01) == 16u);
    // 0.8 s: 160 rounds fit, exactly 10 a layout.
    BOOST_TEST(LayoutGrowth::after_first_pass(8, 16, 32, 0.8, 4.0, 0.03, 0.01) == 16u);
    // 1.2 s: about 107 fit, 7 a layout of 16: the 8 go on.
    BOOST_TEST(LayoutGrowth::after_first_pass(8, 16, 32, 1.2, 4.0, 0.03, 0.01) == 8u);
    // +/-1.5% asks for 72 rounds, 4.5 a layout of 16: the 8 go on, however many fit.
    BOOST_TEST(LayoutGrowth::after_first_pass(8, 16, 32, 0.1, 4.0, 0.015, 0.01) == 8u);
    // +/-5% against a target of +/-2%: 200 rounds asked.
    BOOST_TEST(LayoutGrowth::after_first_pass(8, 16, 32, 0.5, 4.0, 0.05, 0.02) == 16u);
    // Memory that holds 12 copies: 12 where needed and paced.
    BOOST_TEST(LayoutGrowth::after_first_pass(8, 12, 32, 0.6, 4.0, 0.03, 0.01) == 12u);
    // None to add: fewer copies fit, or all are made; no time passed.
    BOOST_TEST(LayoutGrowth::after_first_pass(4, 4, 16, 0.1, 4.0, 0.05, 0.01) == 4u);
    BOOST_TEST(LayoutGrowth::after_first_pass(16, 16, 64, 0.1, 4.0, 0.05, 0.01) == 16u);
    BOOST_TEST(LayoutGrowth::after_first_pass(8, 16, 32, 0.0, 4.0, 0.05, 0.01) == 8u);
    // The schedule rotates through the layouts it is given from then on.
    fb::RoundSchedule schedule(8);
    BOOST_TEST(schedule.cycle() == 32u);
    BOOST_TEST(schedule.layout(31) == 7u);
    schedule.use_layouts(16);
    BOOST_TEST(schedule.cycle() == 64u);
    BOOST_TEST(schedule.layout(32) == 8u);  // the first added layout next
    BOOST_TEST(schedule.layout(63) == 15u);
    BOOST_TEST(schedule.layout(64) == 0u);
}
