// What a forge.<op>.credit test shows CDash: each figure of the run that a
// dashboard reader follows over builds, as CTest measurement lines.
#pragma once

#include <string>
#include <vector>

#include "forge/credit/credit.hpp"
#include "forge/eval/eval.hpp"

namespace forge {

// The run's figures (the raw and the credited ratio with their intervals, the
// verdict, the precision reached, each side's time, priced share and
// throughput), then each workload's as `workload.<name>.<figure>` (its ratios,
// interval, verdict and times). A figure the eval does not hold is left out.
[[nodiscard]] std::vector<std::string> credit_measurements(const EvalReport& eval, const RunCredit& run);

}  // namespace forge
