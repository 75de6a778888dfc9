"""The HOST example benches of a configured build, run the way CTest runs them:
shared by tools/ratio-stability and tools/peer-benchmark."""
import json
import subprocess
import sys


def bench_commands(build):
    """{operator: (command, working directory)} of the HOST benches CTest knows."""
    listing = subprocess.run(["ctest", "--test-dir", build, "--show-only=json-v1"],
                             check=True, capture_output=True, text=True).stdout
    commands = {}
    for test in json.loads(listing)["tests"]:
        name = test["name"]
        labels = next((p["value"] for p in test.get("properties", []) if p["name"] == "LABELS"), [])
        if not (name.startswith("forge.") and name.endswith(".bench") and "host" in labels):
            continue
        directory = next((p["value"] for p in test.get("properties", []) if p["name"] == "WORKING_DIRECTORY"), build)
        commands[name[len("forge."):-len(".bench")]] = (test["command"], directory)
    return commands


def run_once(command, directory, eval_path, tool, extra=()):
    """One run of a bench writing its eval.json to `eval_path` (with `extra` arguments); its eval.json."""
    command = list(command) + list(extra)
    command[command.index("--eval") + 1] = eval_path
    done = subprocess.run(command, cwd=directory, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"{tool}: {' '.join(command)} exited {done.returncode}:\n{done.stderr}")
    with open(eval_path) as f:
        return json.load(f)
