#include "sampler.hpp"

#include <algorithm>
#include <cmath>

#include "forge/stats/summary.hpp"
#include "timer.hpp"

namespace forge::bench {

SamplingPolicy SamplingPolicy::standard() { return SamplingPolicy{}; }

SamplingPolicy SamplingPolicy::quick() {
    return SamplingPolicy{.warmup_calls = 1, .min_samples = 5, .max_samples = 50, .budget_s = 0.25, .stability = 0.02};
}

SampleRun sample_until_stable(const SamplingPolicy& policy, const std::function<void()>& warm_up,
                              const std::function<double()>& take_sample) {
    const std::int64_t deadline = now_ns() + static_cast<std::int64_t>(policy.budget_s * 1e9);
    for (std::size_t i = 0; i < policy.warmup_calls && now_ns() < deadline; ++i) warm_up();

    SampleRun run;
    std::size_t next_check = std::max<std::size_t>(policy.min_samples, 1);
    double last_median = 0.0;
    int settled_checks = 0;
    while (run.samples_ms.size() < policy.max_samples) {
        run.samples_ms.push_back(take_sample());
        if (now_ns() >= deadline) break;
        if (run.samples_ms.size() < next_check) continue;
        const double median = stats::summarize(run.samples_ms).median;
        const bool settled = last_median > 0.0 && std::abs(median - last_median) <= policy.stability * last_median;
        settled_checks = settled ? settled_checks + 1 : 0;
        if (settled_checks >= 2) {
            run.stable = true;
            break;
        }
        last_median = median;
        next_check = run.samples_ms.size() + std::max<std::size_t>(run.samples_ms.size() / 5, 1);
    }
    return run;
}

}  // namespace forge::bench
