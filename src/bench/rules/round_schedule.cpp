#include "rules/round_schedule.hpp"

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
    words += " rounds on one layout (a copy of each side's tensors), the next block on the next layout; in a block "
             "the side first goes ";
    words += firsts;
    words += " (R reference, S student) on input variants ";
    words += variants;
    words += ", so the calls go ";
    words += calls;
    words += "; pipelined batches and profiled calls alternate the side first, the reference in even turns";
    return words;
}

}  // namespace forge::bench
