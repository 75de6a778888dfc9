#!/usr/bin/env python3
"""What forge_add_operator() costs at configure time, side by side with the same
project written by hand (per operator: one add_executable over the card's
sources and three add_test).

Both projects find the installed package and use the same declared cards, so
the difference is the function: argument checks, scaffold checks, three
building card targets (the reference's and the student's object libraries and
the bench) and the checks the bench's link runs, three tests, and the one
`forge check` over every contract.

A third project, `object_libraries`, writes the same cards by hand as
forge_add_operator() builds them, each side an object library of its own beside
the bench (three building targets, three tests, nothing else): what the card's
targets alone cost, the floor under forge_add_operator()'s ratio.

    configure_cost.py --prefix <ForgeKernel install> [--operators 150] [--runs 5] [--work DIR]
                      [--generators Ninja "Unix Makefiles"]

For each generator (both by default) prints the median wall time of a fresh
configure (new build directory) and of a re-configure (existing cache) for each
project, and the ratios to add_executable's. The projects take turns run by
run, the order reversed every other run, so a busy neighbour slows all alike;
one untimed configure of each comes first (a cold file cache would slow the
first run alone), and the disk is synced before each timed one.
"""
import argparse
import os
import pathlib
import shutil
import statistics
import subprocess
import tempfile
import time

CONTRACT = """schema_version = 1

[reference]
inputs = ["x"]
outputs = ["y"]

[student]
inputs = ["x"]
outputs = ["y"]
"""

HEAD = """cmake_minimum_required(VERSION 3.25)
project(cost LANGUAGES CXX)
enable_testing()
find_package(ForgeKernel CONFIG REQUIRED)
"""

PLAIN = """add_executable({op}_bench {op}/reference/reference.cpp {op}/student/student.cpp {op}/bench.cpp)
target_include_directories({op}_bench PRIVATE {op}/reference {op}/student)
target_link_libraries({op}_bench PRIVATE forge::bench)
add_test(NAME {op}.bench COMMAND {op}_bench --contract ${{CMAKE_CURRENT_SOURCE_DIR}}/{op}/window.toml --eval {op}/eval.json --operator {op})
add_test(NAME {op}.prep COMMAND forge::forge prep --contract ${{CMAKE_CURRENT_SOURCE_DIR}}/{op}/window.toml --eval {op}/eval.json)
add_test(NAME {op}.credit COMMAND forge::forge credit --contract ${{CMAKE_CURRENT_SOURCE_DIR}}/{op}/window.toml --eval {op}/eval.json --ctest)
"""


SIDES = """add_library({op}_reference OBJECT {op}/reference/reference.cpp)
target_include_directories({op}_reference PUBLIC {op}/reference)
target_link_libraries({op}_reference PUBLIC forge::bench)
add_library({op}_student OBJECT {op}/student/student.cpp)
target_include_directories({op}_student PUBLIC {op}/student)
target_link_libraries({op}_student PUBLIC forge::bench)
add_executable({op}_bench {op}/bench.cpp)
target_link_libraries({op}_bench PRIVATE forge::bench {op}_reference {op}_student)
""" + PLAIN[PLAIN.index("add_test("):]


def write_cards(templates: pathlib.Path, source: pathlib.Path, operators: list[str]) -> None:
    files = {"window.toml": "window.toml", "README.md": "README.md",
             "reference/reference.hpp": "host/reference/reference.hpp",
             "reference/reference.cpp": "host/reference/reference.cpp",
             "student/student.hpp": "host/student/student.hpp",
             "student/student.cpp": "host/student/student.cpp",
             "bench.cpp": "host/bench.cpp", "prep/prep.hpp": "prep/prep.hpp", "prep/prep.cpp": "prep/prep.cpp"}
    for op in operators:
        for card_file, template in files.items():
            path = source / op / card_file
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text((templates / template).read_text().replace("@FORGE_OPERATOR@", op))
        (source / op / "window.toml").write_text(CONTRACT)


def configure(source: pathlib.Path, build: pathlib.Path, prefix: str, generator: str, fresh: bool) -> float:
    if fresh:
        shutil.rmtree(build, ignore_errors=True)
    # The previous run's files and the tree just removed are written out (and,
    # on a disk mounted with `discard`, trimmed) now, not inside this timing.
    os.sync()
    start = time.perf_counter()
    subprocess.run(["cmake", "-S", source, "-B", build, "-G", generator, f"-DCMAKE_PREFIX_PATH={prefix}"],
                   check=True, capture_output=True)
    return time.perf_counter() - start


def interleaved(names: list[str], runs: int, configure_one) -> dict[str, float]:
    """The median of `runs` calls of configure_one(name) per name, the names taking turns."""
    times = {name: [] for name in names}
    for run in range(runs):
        for name in names if run % 2 == 0 else reversed(names):
            times[name].append(configure_one(name))
    return {name: statistics.median(each) for name, each in times.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--prefix", required=True, help="where ForgeKernel is installed")
    parser.add_argument("--operators", type=int, default=150)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--work", type=pathlib.Path)
    parser.add_argument("--generators", nargs="+", default=["Ninja", "Unix Makefiles"],
                        help='CMake generators to time, each in turn (default: Ninja "Unix Makefiles")')
    args = parser.parse_args()

    work = args.work or pathlib.Path(tempfile.mkdtemp(prefix="forge-configure-cost-"))
    templates = pathlib.Path(args.prefix) / "share" / "ForgeKernel" / "templates"
    operators = [f"op{i:03d}" for i in range(args.operators)]
    projects = {
        "forge_add_operator": HEAD + "".join(f"forge_add_operator({op} BACKEND HOST)\n" for op in operators),
        "object_libraries": HEAD + "".join(SIDES.format(op=op) for op in operators),
        "add_executable": HEAD + "".join(PLAIN.format(op=op) for op in operators),
    }
    for name, cmakelists in projects.items():
        source = work / name
        shutil.rmtree(source, ignore_errors=True)
        write_cards(templates, source, operators)
        (source / "CMakeLists.txt").write_text(cmakelists)

    names = list(projects)
    print(f"{args.operators} operators, median of {args.runs} runs each, the projects taking turns (work: {work})")
    for generator in args.generators:
        def build(name: str) -> pathlib.Path:
            return work / f"{name}-build-{generator.replace(' ', '_')}"

        def one(name: str, fresh: bool) -> float:
            return configure(work / name, build(name), args.prefix, generator, fresh)

        for name in names:
            one(name, fresh=True)  # untimed: a warm file cache for both
        fresh = interleaved(names, args.runs, lambda name: one(name, fresh=True))
        again = interleaved(names, args.runs, lambda name: one(name, fresh=False))
        print(f"{generator}:")
        for name in names:
            print(f"  {name:20s} fresh configure {fresh[name]:6.2f} s   re-configure {again[name]:6.2f} s")
        forge, sides, plain = names
        for name in (forge, sides):
            print(f"  ratio {name} / {plain}: fresh configure {fresh[name] / fresh[plain]:.2f}x, "
                  f"re-configure {again[name] / again[plain]:.2f}x", flush=True)


if __name__ == "__main__":
    main()
