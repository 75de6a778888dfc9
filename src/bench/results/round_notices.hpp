// What a workload's rounds leave a reader to know about its ratio: the
// interval short of the precision asked, too few quiet rounds, preempted or
// throttled rounds kept, a machine whose speed moved. Each is a notice in
// eval.json, not a problem: the ratio stands, with its interval.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "results/record.hpp"
#include "rules/stopping.hpp"

namespace forge::bench {

// `result`: the workload's rounds, measured and summarized; `stopping`: the
// rule they ran under; `quiet_rounds`: how many of them were quiet
// (CountedRounds::quiet_rounds). Without the "workload '<name>': " prefix.
[[nodiscard]] std::vector<std::string> round_notices(const WorkloadRecord& result, const StoppingParameters& stopping,
                                                     std::size_t quiet_rounds);

}  // namespace forge::bench
