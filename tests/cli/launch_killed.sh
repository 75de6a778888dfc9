#!/usr/bin/env bash
# forge.cli.launch.killed: when a test that runs `forge launch -- LAUNCHER...`
# is killed as CTest kills one that timed out (the process and all its
# descendants, SIGKILL), the launcher is still sent SIGTERM, so that srun can
# cancel its job. Usage: launch_killed.sh FORGE
set -euo pipefail
forge=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

"$forge" launch -- sh -c "trap 'echo ended > $dir/ended; exit 143' TERM; echo started > $dir/started
                          while :; do sleep 0.1; done" &
pid=$!
for _ in $(seq 100); do [ -e "$dir/started" ] && break; sleep 0.1; done
[ -e "$dir/started" ] || { echo "FAILED: the launcher did not start"; exit 1; }

# As CTest's timeout does: every descendant, then the process, with SIGKILL.
kill_tree() {
  local child
  for child in $(pgrep -P "$1" || true); do kill_tree "$child"; done
  kill -KILL "$1" 2> /dev/null || true
}
kill_tree "$pid"
wait "$pid" 2> /dev/null || true

for _ in $(seq 100); do [ -e "$dir/ended" ] && break; sleep 0.1; done
if [ ! -e "$dir/ended" ]; then
  echo "FAILED: forge launch was killed and its launcher was not sent SIGTERM (a Slurm job would be left running)"
  pkill -KILL -f "echo ended > $dir/ended" || true
  exit 1
fi
echo "the launcher was sent SIGTERM when forge launch and its descendants were killed"
