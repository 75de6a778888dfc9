// The spread between runs added to a finished run's intervals: the bench's
// earlier runs on this machine (run_history.hpp) and this one give each
// workload's and the run's between-run variance (forge/stats/between_runs.hpp),
// which widens its interval; this run then joins the history.
#pragma once

#include "forge/bench/run.hpp"

#include "record.hpp"

namespace forge::bench {

// Sets record.ratio (the geometric mean over the workloads, when the run is
// complete) and, for a run that passed where options name a history and the
// bench's identity, each interval's between_runs. A history it cannot read or
// write is a notice.
void estimate_with_earlier_runs(RunRecord& record, const RunOptions& options);

}  // namespace forge::bench
