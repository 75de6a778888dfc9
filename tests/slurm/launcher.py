#!/usr/bin/env python3
"""forge.cmake.slurm_launcher: a consumer project's benches (two of the HOST
example cards as they are, and scaffolded ones) run as jobs of a real
Slurm cluster (one node on loopback, two fake GPUs as GRES: tests/slurm/cluster)
through FORGE_BENCH_LAUNCHER, while CTest and the checks run where ctest runs.

Held: benches run at once, never two on one fake GPU (Slurm's own allocation
records, polled); each eval.json names its job, node and GPU; a bench's
failure, its message and exit 77 (a skip) come through srun; a CTest timeout
leaves no job behind, whether the bench was running or still queued, and a
queued bench's output says it was queued. Reported as not run (exit 77) where
Slurm is not installed or this is not root.

Usage: launcher.py FORGE_SOURCE_DIR FORGE_PREFIX WORK_DIR CXX_COMPILER CMAKE CTEST [FLAGS]
"""
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time

CONTRACT = """schema_version = 1

[reference]
inputs = ["x"]
outputs = ["y"]

[student]
inputs = ["x"]
outputs = ["y"]
"""
# Two of the repository's HOST example cards, as they are, and two scaffolded ones.
EXAMPLES = {"rmsnorm_fwd": "", "rope_fwd": " PREP prep/prep.hpp prep/prep.cpp"}
HONEST = ("scale_a", "scale_b", *EXAMPLES)
SLURM_ENV = {}


def fail(message: str) -> None:
    print(f"FAILED: {message}")
    sys.exit(1)


def slurm(*args: str) -> str:
    return subprocess.run(args, capture_output=True, text=True, check=False, env=SLURM_ENV).stdout


def jobs_left() -> str:
    return slurm("squeue", "-h", "-o", "%i %j %T").strip()


class AllocationLog:
    """What Slurm says it allocated, every 0.2 s: for each running job, the fake
    GPU index it holds (scontrol show job -d: GRES=gpu:fake:1(IDX:0))."""

    def __init__(self) -> None:
        self.snapshots: list[dict[str, str]] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._poll, daemon=True)

    def _poll(self) -> None:
        while not self._stop.is_set():
            text = slurm("scontrol", "show", "job", "-d")
            running = {}
            for record in text.split("\n\n"):
                job = re.search(r"JobId=(\d+)", record)
                state = re.search(r"JobState=(\w+)", record)
                index = re.search(r"GRES=gpu:fake:1\(IDX:(\d+)\)", record)
                if job and state and state.group(1) == "RUNNING" and index:
                    running[job.group(1)] = index.group(1)
            self.snapshots.append(running)
            time.sleep(0.2)

    def __enter__(self) -> "AllocationLog":
        self._thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self._stop.set()
        self._thread.join()


def wait_until_no_jobs(seconds: float) -> str:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        left = jobs_left()
        if not left:
            return ""
        time.sleep(0.5)
    return jobs_left()


def write_project(consumer: pathlib.Path, skip_script: pathlib.Path) -> None:
    cards = "".join(f"forge_add_operator({name} BACKEND HOST{EXAMPLES.get(name, '')})\n" for name in HONEST)
    (consumer / "CMakeLists.txt").write_text(
        "cmake_minimum_required(VERSION 3.25)\n"
        "project(consumer LANGUAGES CXX)\n"
        "enable_testing()\n"
        "find_package(ForgeKernel CONFIG REQUIRED)\n"
        f"{cards}"
        "forge_add_operator(wrong BACKEND HOST)\n"
        "forge_add_operator(slow BACKEND HOST TIMEOUT 8)\n"
        # A node with no device for the card: the bench would exit 77, as this does.
        f"forge_add_operator(skipped BACKEND HOST LAUNCHER srun --gres=gpu:1 {skip_script})\n")


def main() -> None:
    source_dir, prefix, work, cxx, cmake, ctest = sys.argv[1:7]
    flags = sys.argv[7] if len(sys.argv) > 7 else ""
    work_dir = pathlib.Path(work)
    shutil.rmtree(work_dir, ignore_errors=True)
    work_dir.mkdir(parents=True)
    cluster_script = pathlib.Path(source_dir) / "tests" / "slurm" / "cluster"
    # Outside the build tree: munged and slurmctld run as users of their own,
    # and a build tree under a private folder (a clone in `mktemp -d`) is out
    # of their reach.
    cluster = pathlib.Path(tempfile.mkdtemp(prefix="forge-slurm-"))
    cluster.chmod(0o755)
    try:
        started = subprocess.run([str(cluster_script), "start", str(cluster / "cluster")],
                                 capture_output=True, text=True, check=False)
        if started.returncode == 77:
            print(started.stdout.strip())
            sys.exit(77)
        if started.returncode != 0:
            fail(f"the Slurm cluster did not start (exit {started.returncode}):\n{started.stdout}\n{started.stderr}")
        SLURM_ENV.update(os.environ)
        SLURM_ENV["SLURM_CONF"] = str(cluster / "cluster" / "slurm.conf")
        try:
            run(source_dir, prefix, work_dir, cxx, cmake, ctest, flags)
        finally:
            subprocess.run([str(cluster_script), "stop", str(cluster / "cluster")], check=False)
    finally:
        shutil.rmtree(cluster, ignore_errors=True)


def run(source_dir: str, prefix: str, work_dir: pathlib.Path, cxx: str, cmake: str, ctest: str, flags: str) -> None:
    consumer = work_dir / "consumer"
    consumer.mkdir()
    for example in EXAMPLES:
        shutil.copytree(pathlib.Path(source_dir) / "operators-example" / example, consumer / example)
    skip_script = work_dir / "no_device_here"
    skip_script.write_text("#!/bin/sh\necho 'no CUDA device on this node' >&2\nexit 77\n")
    skip_script.chmod(0o755)
    write_project(consumer, skip_script)
    configure = [cmake, "-S", consumer, "-G", "Ninja", f"-DCMAKE_PREFIX_PATH={prefix}",
                 f"-DCMAKE_CXX_COMPILER={cxx}", "-DCMAKE_BUILD_TYPE=Release", "-DFORGE_BENCH_QUICK=ON",
                 f"-DCMAKE_CXX_FLAGS={flags}", f"-DCMAKE_EXE_LINKER_FLAGS={flags}"]
    # The cards, scaffolded by a first configure and then declared.
    subprocess.run(configure + ["-B", work_dir / "scaffold"], capture_output=True, check=False)
    shutil.rmtree(work_dir / "scaffold")
    for card in ("scale_a", "scale_b", "wrong", "slow", "skipped"):
        (consumer / card / "window.toml").write_text(CONTRACT)
    student = consumer / "wrong" / "student" / "student.cpp"
    student.write_text(student.read_text().replace("x[i] + x[i];", "x[i] + x[i] + 1.0f;"))
    student = consumer / "slow" / "student" / "student.cpp"
    student.write_text("#include <chrono>\n#include <thread>\n" + student.read_text().replace(
        "for (std::int64_t i", "std::this_thread::sleep_for(std::chrono::seconds(2));\n    for (std::int64_t i"))

    build = work_dir / "build"
    launcher = "srun;--gres=gpu:1;--job-name=forge-bench"
    done = subprocess.run(configure + ["-B", build, f"-DFORGE_BENCH_LAUNCHER={launcher}"],
                          capture_output=True, text=True, check=False, env=SLURM_ENV)
    if done.returncode != 0:
        fail(f"configure failed:\n{done.stdout}\n{done.stderr}")
    done = subprocess.run([cmake, "--build", build], capture_output=True, text=True, check=False)
    if done.returncode != 0:
        fail(f"build failed:\n{done.stdout}\n{done.stderr}")

    # The honest, failing and skipped benches, four at once on two fake GPUs.
    started = time.monotonic()
    with AllocationLog() as allocations:
        done = subprocess.run([ctest, "--test-dir", build, "-j", "4", "-V", "-E", "slow"],
                              capture_output=True, text=True, check=False, env=SLURM_ENV)
    wall_s = time.monotonic() - started
    output = done.stdout + done.stderr
    expected = {**{f"forge.{name}.bench": "Passed" for name in HONEST},
                **{f"forge.{name}.credit": "Passed" for name in HONEST},
                "forge.wrong.bench": "Failed", "forge.skipped.bench": "Skipped"}
    for test, status in expected.items():
        if not re.search(rf"Test +#\d+: {re.escape(test)} \.*\s*\**{status}", output):
            fail(f"{test} did not read {status} through srun:\n{output}")
    if "output 'y' differs between the student and the reference" not in output:
        fail(f"the failing bench's message did not come through srun:\n{output}")
    if "no CUDA device on this node" not in output:
        fail(f"the skipped bench's reason did not come through srun:\n{output}")
    if "queued and waiting for resources" not in output:
        fail(f"four benches on two fake GPUs, yet no srun said its job was queued:\n{output}")

    at_once = max((len(s) for s in allocations.snapshots), default=0)
    if at_once < 2:
        fail(f"no two benches ran at once (Slurm's allocations, polled: {allocations.snapshots})")
    for snapshot in allocations.snapshots:
        if len(set(snapshot.values())) != len(snapshot):
            fail(f"two jobs held one fake GPU at once: {snapshot}")

    gpus = set()
    for name in HONEST:
        eval_json = json.loads((build / name / "eval.json").read_text())
        launch = eval_json.get("launch") or {}
        job = launch.get("slurm") or {}
        if not job.get("job_id") or job.get("node") != "localhost" or launch.get("host") != "localhost":
            fail(f"{name}'s eval.json does not name its job and node: {launch}")
        # Without a device cgroup (as here) Slurm leaves the node's index in CUDA_VISIBLE_DEVICES.
        if job.get("gpus") not in ("0", "1") or launch.get("cuda_visible_devices") != job.get("gpus"):
            fail(f"{name}'s eval.json does not name the fake GPU its job got: {launch}")
        gpus.add(job["gpus"])
    left = wait_until_no_jobs(10)
    if left:
        fail(f"jobs left after ctest returned: {left}")

    # A CTest timeout (the slow card's TIMEOUT 8) while its job runs: the job goes.
    done = subprocess.run([ctest, "--test-dir", build, "-R", "slow.bench", "--output-on-failure"],
                          capture_output=True, text=True, check=False, env=SLURM_ENV)
    output = done.stdout + done.stderr
    if not re.search(r"forge\.slow\.bench \.*\s*\**Timeout", output):
        fail(f"the slow bench did not time out:\n{output}")
    left = wait_until_no_jobs(15)
    if left:
        fail(f"a timed-out bench's job was left behind: {left}")

    # The same timeout while its job is still queued (both fake GPUs taken):
    # its output says it was queued and never allocated, and no job is left.
    blocker = subprocess.Popen(["srun", "--gres=gpu:2", "--job-name=blocker", "sleep", "60"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=SLURM_ENV)
    try:
        for _ in range(50):
            if "blocker RUNNING" in jobs_left():
                break
            time.sleep(0.2)
        done = subprocess.run([ctest, "--test-dir", build, "-R", "slow.bench", "--output-on-failure"],
                              capture_output=True, text=True, check=False, env=SLURM_ENV)
    finally:
        blocker.terminate()
        blocker.wait()
    output = done.stdout + done.stderr
    if "queued and waiting for resources" not in output or "has been allocated resources" in output:
        fail(f"a bench timed out in the queue without its output saying it was queued:\n{output}")
    left = wait_until_no_jobs(15)
    if left:
        fail(f"a bench that timed out in the queue left its job behind: {left}")

    print(f"slurm: {len(HONEST) + 2} benches through srun in {wall_s:.1f} s, up to {at_once} at once on "
          f"fake GPUs {sorted(gpus)}; failure, skip and both timeouts passed through, no job left")


if __name__ == "__main__":
    main()
