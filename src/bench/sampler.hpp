// How many timed samples a side gets: warm-up, then samples until the median is
// stable, within a bounded time.
#pragma once

#include <cstddef>
#include <functional>
#include <vector>

namespace forge::bench {

struct SamplingPolicy {
    std::size_t warmup_calls = 3;
    std::size_t min_samples = 20;
    std::size_t max_samples = 2000;
    double budget_s = 2.0;     // wall time for warm-up and samples, including the harness's own work
    double stability = 0.005;  // the median moved by less than this fraction since the last check

    [[nodiscard]] static SamplingPolicy standard();
    [[nodiscard]] static SamplingPolicy quick();  // --quick: for tests
};

struct SampleRun {
    std::vector<double> samples_ms;
    bool stable = false;  // stopped because the median settled (not the budget or the cap)
};

// warm_up() runs policy.warmup_calls times; then take_sample() (one timed call,
// returning its milliseconds) until, at a check point (every ~20% more samples past
// min_samples), the median moved by less than policy.stability twice in a row, or
// the budget or max_samples is reached. At least min_samples unless the budget runs
// out first, and always at least one sample.
[[nodiscard]] SampleRun sample_until_stable(const SamplingPolicy& policy, const std::function<void()>& warm_up,
                                            const std::function<double()>& take_sample);

}  // namespace forge::bench
