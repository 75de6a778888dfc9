#!/usr/bin/env python3
"""forge.cmake.dashboard_token: cmake/ForgeDashboard.cmake sends the bearer
token from the FORGE_CDASH_TOKEN environment variable with every part, to a
CDash receiver that refuses parts without it. A missing or wrong token fails
the run (and nothing is kept); -DFORGE_CDASH_TOKEN is refused before anything
runs; the token never appears in the output, even with -VV --debug (where CTest
prints the HTTP headers it sends unless the submit step is QUIET), nor in the files
the run leaves behind.

Usage: dashboard_token.py FORGE_SOURCE_DIR WORK_DIR CTEST
"""
import os
import pathlib
import secrets
import shutil
import subprocess
import sys
import threading

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from cdash_receiver import Receiver  # noqa: E402


def fail(message: str) -> None:
    print(f"FAILED: {message}")
    sys.exit(1)


def main() -> None:
    source_dir, work, ctest = sys.argv[1:4]
    work_dir = pathlib.Path(work)
    shutil.rmtree(work_dir, ignore_errors=True)
    project = work_dir / "project"
    project.mkdir(parents=True)
    # Any CTest project will do: the token is the submit step's business.
    (project / "CMakeLists.txt").write_text(
        "cmake_minimum_required(VERSION 3.25)\n"
        "project(tokened LANGUAGES NONE)\n"
        "enable_testing()\n"
        "add_test(NAME passes COMMAND \"${CMAKE_COMMAND}\" -E true)\n")

    token = secrets.token_hex(16)
    receiver = Receiver(work_dir / "received", token=token)
    threading.Thread(target=receiver.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{receiver.server_address[1]}/submit.php?project=Tokened"
    script = pathlib.Path(source_dir) / "cmake" / "ForgeDashboard.cmake"

    def dashboard(env_token, *extra):
        env = {k: v for k, v in os.environ.items() if k != "FORGE_CDASH_TOKEN"}
        if env_token is not None:
            env["FORGE_CDASH_TOKEN"] = env_token
        done = subprocess.run(
            [ctest, f"-DFORGE_CDASH_URL={url}", f"-DFORGE_SOURCE_DIR={project}",
             f"-DFORGE_BINARY_DIR={work_dir / 'build'}", *extra, "-S", script, "-VV", "--debug"],
            capture_output=True, text=True, env=env, check=False)
        output = f"{done.stdout}\n{done.stderr}"
        if token in output:
            fail(f"the token was printed:\n{output}")
        return done.returncode, output

    def kept() -> int:
        return len(list((work_dir / "received").glob("*.xml")))

    # No token, then a wrong one: refused, the run fails and says what to do.
    for given in (None, "wrong-" + token):
        code, output = dashboard(given)
        if code == 0 or "submit failed" not in output or "FORGE_CDASH_TOKEN" not in output:
            fail(f"a submission with token {given!r} did not fail with a hint (exit {code}):\n{output}")
        if kept():
            fail(f"the receiver kept parts submitted with token {given!r}")
    refused = receiver.refused
    if refused == 0:
        fail("the receiver refused nothing: the runs above never reached it")

    # The right token, from the environment: every part accepted.
    code, output = dashboard(token)
    if code != 0:
        fail(f"the run with the token failed (exit {code}):\n{output}")
    parts = sorted(p.name for p in (work_dir / "received").glob("*.xml"))
    if not any(p.endswith("Test.xml") for p in parts) or not any(p.endswith("Done.xml") for p in parts):
        fail(f"the run with the token did not deliver its Test and Done parts: {parts}")
    if receiver.refused != refused:
        fail("a part of the run with the token was refused")

    # On the command line it is refused before anything runs.
    before = kept()
    code, output = dashboard(None, f"-DFORGE_CDASH_TOKEN={token}x")
    if code == 0 or "Pass it in the environment instead" not in output or kept() != before:
        fail(f"-DFORGE_CDASH_TOKEN was not refused up front (exit {code}):\n{output}")
    receiver.shutdown()

    # Nor is it written into the build tree (CTest's logs, the submitted parts).
    for path in work_dir.rglob("*"):
        if path.is_file() and token.encode() in path.read_bytes():
            fail(f"the token is written in {path}")
    print(f"dashboard_token: {len(parts)} parts accepted with the token; {refused} refused without it")


if __name__ == "__main__":
    main()
