#include "rules/round_schedule.hpp"

#include <algorithm>

namespace forge::bench {

std::string RoundSchedule::in_words() {
    const auto letter = [](Side s) { return s == Side::reference ? 'R' : 'S'; };
    std::string firsts;
    std::string variants;
    std::string calls;
    for (std::size_t r = 0; r < block; ++r) {
        if (r > 0) {
            firsts += ' ';
            variants += ' ';
        }
        firsts += letter(first(r));
        variants += std::to_string(variant(r));
        for (Side s : in_order(first(r))) {
            if (!calls.empty()) calls += ' ';
            calls += letter(s);
        }
    }
    std::string words = "blocks of ";
    words += std::to_string(block);
    words += " rounds on one layout (a copy of each side's tensors), the next block on the next layout, over ";
    words += std::to_string(LayoutGrowth::initial);
    words += " layouts, or ";
    words += std::to_string(LayoutGrowth::most);
    words += " after a first pass where the interval needs and the pace allows ";
    words += std::to_string(static_cast<int>(LayoutGrowth::rounds_each));
    words += " rounds a layout or more before the time cap (fewer where 2 GiB holds fewer copies); in a block the "
             "side first goes ";
    words += firsts;
    words += " (R reference, S student) on input variants ";
    words += variants;
    words += ", so the calls go ";
    words += calls;
    words += "; pipelined batches and profiled calls alternate the side first, the reference in even turns";
    return words;
}

std::size_t LayoutGrowth::after_first_pass(std::size_t layouts, std::size_t most_here, std::size_t rounds,
                                           double elapsed_s, double max_wall_s, double half_width,
                                           double precision) noexcept {
    if (most_here <= layouts || rounds == 0 || !(elapsed_s > 0.0) || !(precision > 0.0)) return layouts;
    const double n = static_cast<double>(rounds);
    const double rounds_by_cap = n * max_wall_s / elapsed_s;
    const double rounds_needed = n * (half_width / precision) * (half_width / precision);
    return std::min(rounds_by_cap, rounds_needed) >= rounds_each * static_cast<double>(most_here) ? most_here : layouts;
}

}  // namespace forge::bench
