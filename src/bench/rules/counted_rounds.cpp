#include "rules/counted_rounds.hpp"

#include <algorithm>

namespace forge::bench {

std::string_view to_string(RoundSelection selection) noexcept {
    switch (selection) {
        case RoundSelection::quiet: return "quiet rounds";
        case RoundSelection::undisturbed: return "undisturbed rounds";
        case RoundSelection::all: break;
    }
    return "all rounds";
}

CountedRounds count_rounds(std::span<const RoundReading> rounds, std::span<const double> earlier_machine_ms,
                           std::size_t min_rounds) {
    const std::size_t n = rounds.size();
    if (n == 0) return CountedRounds{};
    double quietest = std::min_element(rounds.begin(), rounds.end(), [](const RoundReading& a, const RoundReading& b) {
                          return a.machine_ms < b.machine_ms;
                      })->machine_ms;
    if (!earlier_machine_ms.empty()) {
        quietest = std::min(quietest, *std::min_element(earlier_machine_ms.begin(), earlier_machine_ms.end()));
    }
    CountedRounds quiet{RoundSelection::quiet, std::vector<bool>(n, false)};
    CountedRounds undisturbed{RoundSelection::undisturbed, std::vector<bool>(n, false)};
    std::size_t undisturbed_count = 0;
    for (std::size_t r = 0; r < n; ++r) {
        undisturbed.counted[r] = !rounds[r].disturbed;
        quiet.counted[r] = !rounds[r].disturbed && within_quiet_margin(rounds[r].machine_ms, quietest);
        undisturbed_count += undisturbed.counted[r] ? 1 : 0;
        quiet.quiet_rounds += quiet.counted[r] ? 1 : 0;
    }
    undisturbed.quiet_rounds = quiet.quiet_rounds;
    if (quiet.quiet_rounds >= min_rounds) return quiet;
    if (undisturbed_count >= min_rounds) return undisturbed;
    return CountedRounds{RoundSelection::all, std::vector<bool>(n, true), quiet.quiet_rounds};
}

stats::PairedRounds paired_rounds(std::span<const RoundReading> rounds, const CountedRounds& counted) {
    stats::PairedRounds out;
    for (std::size_t r = 0; r < rounds.size(); ++r) {
        if (!counted.counted[r]) continue;
        out.log_ratios.push_back(rounds[r].log_ratio);
        out.clusters.push_back(rounds[r].cluster);
    }
    return out;
}

}  // namespace forge::bench
