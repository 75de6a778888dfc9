// A bench run through a launcher (srun, a container runner): CTest starts
// `forge launch -- LAUNCHER... BENCH...`, which runs the rest as its child and
// stands between it and CTest. On a timeout CTest kills the test's process
// and every descendant with SIGKILL, which a launcher cannot catch: a killed
// srun leaves its Slurm job running. So the launcher is started by a watcher
// that is no descendant of this process (forked twice, in a session of its
// own); when this process dies, the watcher sends the launcher SIGTERM, on
// which srun cancels its job, queued or running.
#pragma once

#include <string>
#include <vector>

namespace forge {

// Runs `command` (a program found on PATH and its arguments) under a watcher
// that sends it SIGTERM when this process dies; forwards SIGTERM, SIGHUP and
// SIGQUIT to it (SIGINT as SIGTERM); returns its exit status (128 + the signal
// that ended it).
// 127 with a message on standard error when it cannot be run.
[[nodiscard]] int run_under_launcher(const std::vector<std::string>& command);

}  // namespace forge
