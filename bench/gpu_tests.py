#!/usr/bin/env python3
"""Runs the GPU tests on a machine without lit and FileCheck, in two steps.

The GPU tests are the lit tests of test/Runtime that require `cuda-gpu` (or
`cuda-gpu-sm90`). The machine with the GPU has no LLVM, so lit and FileCheck
cannot run there; the machine with LLVM has no GPU. So:

    # on the GPU machine, from the repository root, build-runtime/ built:
    python3 bench/gpu_tests.py run OUT
    # where FileCheck is, with OUT copied back:
    python3 bench/gpu_tests.py check OUT [--filecheck PATH]

`run` executes every RUN line as lit would (bash, `set -o pipefail`, `%S`,
`%t` and `tile-run` substituted, `not` inverting the exit status as LLVM's
does: a command killed by a signal fails under it too), with the
trailing `| FileCheck %s ...` cut off: the command's output goes to
OUT/<test>.<n>.out and its exit status and FileCheck arguments to
OUT/runs.json. `check` then requires every exit status to be 0 and runs each
output through FileCheck with the test's own arguments. It prints one line per
RUN line and `N passed, M failed`, and exits 1 if anything failed.
"""
import argparse
import json
import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FILECHECK = re.compile(r"\|\s*FileCheck\s+%s(?P<args>(\s+\S+)*)\s*$")


def gpu_tests(tests):
    """The tests in directory `tests` that need a GPU, in name order."""
    return [t for t in sorted(tests.glob("*.test"))
            if re.search(r"REQUIRES:.*\bcuda-gpu", t.read_text())]


def run_lines(test):
    """The test's RUN commands, with continuation lines joined."""
    commands, pending = [], ""
    for line in test.read_text().splitlines():
        m = re.match(r"\s*#?\s*RUN:\s?(.*)$", line)
        if not m:
            continue
        text = m.group(1).rstrip()
        if text.endswith("\\"):
            pending += text[:-1] + " "
            continue
        commands.append(pending + text)
        pending = ""
    return commands


def substitute(command, test, tmp, tile_run):
    command = command.replace("%S", str(test.parent)).replace("%t", str(tmp / test.name))
    return re.sub(r"(^|[|;]\s*|\bnot\s+)tile-run\b", r"\g<1>" + str(tile_run),
                  command)


def where_from(test):
    """The test's path, relative to the repository where it lies in it, so
    that `check` finds it in another copy of the repository."""
    return str(test.relative_to(ROOT) if test.is_relative_to(ROOT) else test)


def run(out, tests, tile_run):
    # A missing tile-run would make every `not tile-run ...` line pass.
    if not (tile_run.is_file() and os.access(tile_run, os.X_OK)):
        sys.exit(f"error: --tile-run {tile_run}: no such executable (build it: "
                 "cmake -S . -B build-runtime -DTILE_ENABLE_COMPILER=OFF)")
    out.mkdir(parents=True, exist_ok=True)
    tmp = out / "tmp"
    tmp.mkdir(exist_ok=True)
    records = []
    for test in gpu_tests(tests):
        for n, command in enumerate(run_lines(test)):
            m = FILECHECK.search(command)
            body = command[:m.start()] if m else command
            output = out / f"{test.name}.{n}.out"
            # LLVM's `not`: a crash (killed by a signal, 128 + its number)
            # is no expected failure.
            script = ("set -o pipefail; not() { \"$@\"; local s=$?; "
                      "[ $s -ne 0 ] && [ $s -lt 128 ]; }; "
                      + substitute(body, test, tmp, tile_run))
            with output.open("wb") as sink:
                status = subprocess.run(["bash", "-c", script], cwd=ROOT,
                                        stdout=sink, stderr=subprocess.STDOUT).returncode
            records.append({"test": where_from(test), "line": n, "command": command,
                            "status": status, "output": output.name,
                            "filecheck": m.group("args").split() if m else None})
            print(f"{test.name} RUN {n}: exit {status}")
    (out / "runs.json").write_text(json.dumps(records, indent=1) + "\n")


def check(out, filecheck):
    runs = out / "runs.json"
    if not runs.is_file():
        sys.exit(f"error: {runs}: no such file ('{out}' must be the directory "
                 "that 'gpu_tests.py run' wrote)")
    passed = failed = 0
    for record in json.loads(runs.read_text()):
        where = f"{Path(record['test']).name} RUN {record['line']}"
        problem = None
        if record["status"] != 0:
            problem = f"the command exited with {record['status']}"
        elif record["filecheck"] is not None:
            with (out / record["output"]).open("rb") as source:
                result = subprocess.run(
                    [filecheck, str(ROOT / record["test"])] + record["filecheck"],
                    stdin=source, capture_output=True, text=True)
            if result.returncode != 0:
                problem = "FileCheck failed:\n" + result.stderr
        if problem:
            failed += 1
            print(f"FAIL {where}: {problem}")
        else:
            passed += 1
            print(f"ok   {where}")
    print(f"{passed} passed, {failed} failed")
    return failed == 0 and passed > 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("step", choices=["run", "check"])
    parser.add_argument("out", type=Path)
    parser.add_argument("--filecheck", default="/usr/lib/llvm-22/bin/FileCheck")
    parser.add_argument("--tests", type=Path, default=ROOT / "test" / "Runtime",
                        help="the directory of the tests (default: test/Runtime)")
    parser.add_argument("--tile-run", type=Path,
                        default=ROOT / "build-runtime" / "bin" / "tile-run")
    args = parser.parse_args()
    if args.step == "run":
        run(args.out, args.tests.resolve(), args.tile_run.resolve())
        return 0
    return 0 if check(args.out, args.filecheck) else 1


if __name__ == "__main__":
    sys.exit(main())
