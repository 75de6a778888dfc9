#!/usr/bin/env python3
"""forge.cmake.dashboard: cmake/ForgeDashboard.cmake configures, builds, tests
and submits a consumer project to a CDash receiver on 127.0.0.1; the Test part
must carry each credit test's ratios as numeric NamedMeasurements, and two runs
must submit under the same site and build name (so CDash plots them over time).
One operator's GATE is out of reach: its gate test fails, the run is still
submitted, and the script reports the failure.

Usage: dashboard.py FORGE_SOURCE_DIR FORGE_PREFIX WORK_DIR CXX_COMPILER CMAKE CTEST [FLAGS]
(FLAGS: compile and link flags for the consumer, e.g. the package's sanitizers)
"""
import json
import pathlib
import re
import shutil
import subprocess
import sys
import threading
import xml.etree.ElementTree as ET

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from cdash_receiver import Receiver  # noqa: E402

CONTRACT = """schema_version = 1

[reference]
inputs = ["x"]
outputs = ["y"]

[student]
inputs = ["x"]
outputs = ["y"]
"""


def fail(message: str) -> None:
    print(f"FAILED: {message}")
    sys.exit(1)


def main() -> None:
    source_dir, prefix, work, cxx, cmake, ctest = sys.argv[1:7]
    flags = sys.argv[7] if len(sys.argv) > 7 else ""
    work_dir = pathlib.Path(work)
    shutil.rmtree(work_dir, ignore_errors=True)
    consumer = work_dir / "consumer"
    consumer.mkdir(parents=True)
    (consumer / "CMakeLists.txt").write_text(
        "cmake_minimum_required(VERSION 3.25)\n"
        "project(consumer LANGUAGES CXX)\n"
        "include(CTest)\n"
        "find_package(ForgeKernel CONFIG REQUIRED)\n"
        "forge_add_operator(scale BACKEND HOST GATE 0.01)\n"
        "forge_add_operator(unreachable BACKEND HOST GATE 1000)\n")
    # The card, scaffolded by a first configure and then declared.
    subprocess.run([cmake, "-S", consumer, "-B", work_dir / "scaffold", "-G", "Ninja",
                    f"-DCMAKE_PREFIX_PATH={prefix}", f"-DCMAKE_CXX_COMPILER={cxx}",
                    f"-DCMAKE_CXX_FLAGS={flags}", f"-DCMAKE_EXE_LINKER_FLAGS={flags}"],
                   capture_output=True, check=False)
    for card in ("scale", "unreachable"):
        (consumer / card / "window.toml").write_text(CONTRACT)
    shutil.rmtree(work_dir / "scaffold")

    receiver = Receiver(work_dir / "received")
    threading.Thread(target=receiver.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{receiver.server_address[1]}/submit.php?project=ForgeKernel"
    script = pathlib.Path(source_dir) / "cmake" / "ForgeDashboard.cmake"
    options = f"-DCMAKE_PREFIX_PATH={prefix};-DCMAKE_CXX_COMPILER={cxx};-DFORGE_BENCH_QUICK=ON"
    if flags:
        options += f";-DCMAKE_CXX_FLAGS={flags};-DCMAKE_EXE_LINKER_FLAGS={flags}"
    for run in (1, 2):
        done = subprocess.run(
            [ctest, f"-DFORGE_CDASH_URL={url}", f"-DFORGE_SOURCE_DIR={consumer}",
             f"-DFORGE_BINARY_DIR={work_dir / 'build'}", f"-DFORGE_CONFIGURE_OPTIONS={options}",
             # As on a login node whose benches run on a partition's GPUs.
             "-DFORGE_GPU_TYPE=Fake GPU 80GB",
             "-S", script, "-V"],
            capture_output=True, text=True, check=False)
        output = f"{done.stdout}\n{done.stderr}"
        if done.returncode == 0 or "test failed" not in output:
            fail(f"dashboard run {run} did not report the failed gate (exit {done.returncode}):\n{output}")
    receiver.shutdown()

    received = sorted((work_dir / "received").glob("*.xml"))
    parts = [re.sub(r"^\d+-", "", p.name) for p in received]
    tests = [p for p in received if p.name.endswith("___XML___Test.xml")]
    if len(tests) != 2:
        fail(f"expected a Test part from each of two runs; received {parts}")
    for part in ("Configure.xml", "Build.xml", "Done.xml"):
        if not any(p.endswith(part) for p in parts):
            fail(f"no {part} part among {parts}")

    queries = [json.loads(pathlib.Path(f"{p}.query.json").read_text()) for p in tests]
    names = {(q["site"], q["build"]) for q in queries}
    if len(names) != 1:
        fail(f"site and build name changed between runs: {names}")
    if not next(iter(names))[1].endswith("-Fake_GPU_80GB"):
        fail(f"the build name does not end with the GPU type given (FORGE_GPU_TYPE): {names}")

    root = ET.parse(tests[-1]).getroot()
    status = {t.findtext("Name"): t.get("Status") for t in root.iter("Test")}
    expected = {"forge.build": "passed", "forge.scale.bench": "passed", "forge.scale.credit": "passed",
                "forge.scale.gate": "passed", "forge.unreachable.gate": "failed"}
    for test, wanted in expected.items():
        if status.get(test) != wanted:
            fail(f"{test} is {status.get(test)}, not {wanted}, in {tests[-1].name}: {status}")
    credit = next(t for t in root.iter("Test") if t.findtext("Name") == "forge.scale.credit")
    measured = {m.get("name"): m for m in credit.iter("NamedMeasurement")}
    for name in ("raw_ratio", "reference_ms", "student_ms"):
        measurement = measured.get(name)
        if measurement is None:
            fail(f"no {name} measurement on forge.scale.credit; it has {sorted(measured)}")
        if measurement.get("type") != "numeric/double":
            fail(f"{name} is a {measurement.get('type')}, not numeric/double")
        value = float(measurement.findtext("Value"))
        if not value > 0:
            fail(f"{name} is {value}")
    print(f"dashboard: {len(received)} parts received under {names.pop()}; "
          f"raw_ratio {measured['raw_ratio'].findtext('Value')}")


if __name__ == "__main__":
    main()
