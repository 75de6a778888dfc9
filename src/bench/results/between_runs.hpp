// The spread between runs added to a finished run's intervals: the bench's
// earlier runs on this machine (run_history.hpp) and this one give each
// workload's and the run's between-run variance (forge/stats/between_runs.hpp),
// which widens its interval; a run whose rounds read the machine busier than
// the earlier runs' did says so; this run then joins the history.
#pragma once

#include "forge/bench/run.hpp"

#include "results/record.hpp"

namespace forge::bench {

// For a run that passed, where options name a history and the bench's
// identity: each workload's and the run's (record.ratio) interval with the
// spread of this run and the kept ones, in between_runs; this run then joins
// the history, with how busy the machine was for it (record.machine_across_runs).
// A history it cannot read or write is a notice.
void add_spread_between_runs(RunRecord& record, const RunOptions& options);

}  // namespace forge::bench
