#!/usr/bin/env python3
"""Measures how long tile-opt takes to compile the benchmark's kernels, and
how much memory it needs.

Runs on the build machine, over the configurations of bench/configs.py (or
those whose names an --only regex matches): generates each kernel with
test/Execution/Inputs/gemm.py, then runs `tile-opt --tile-to-ptx=chip=<its
chip> <its options>` --repeat times and reports the median wall time and the
largest peak resident set (the child's own ru_maxrss, from wait4). A run
with --mlir-timing before them (untimed; it also warms the page cache)
splits the time between gpu-module-to-binary (LLVM's NVPTX backend, which
writes the PTX) and the rest (the tile passes and the upstream conversions).
Prints a table and writes --json.

A configuration the compiler refuses (the seed's over-budget 256x256x64 at
4 stages) is a row of its own with the compiler's first error: it has to fail
quickly too.

With --baseline (a JSON file this script wrote, e.g. the committed
bench/results/compile-time.json), each row also compares with the baseline's
record of the same configuration, and the script fails when a kernel takes
more than --tolerance times the baseline's time (and at least --min-seconds
more) or memory, or is refused where the baseline compiled it.
"""

import argparse
import datetime
import json
import os
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import compile_all  # noqa: E402
import configs  # noqa: E402

BINARY_PASS = "GpuModuleToBinaryPass"
# A row of --mlir-timing's tree: "    0.0123 ( 45.6%)    PassName", its
# depth in the indentation of the name.
TIMING_ROW = re.compile(r"^\s*(-?[0-9.]+)\s+\(\s*-?[0-9.]+%\)( +)(\S.*?)\s*$")
TIMING_TOTAL = re.compile(r"Total Execution Time: ([0-9.]+) seconds")


def run_child(cmd, timeout):
    """Runs cmd. Returns (exit code, seconds, peak RSS in KiB, stderr); the
    exit code is None when the command ran past `timeout` seconds."""
    with tempfile.TemporaryFile(mode="w+") as err:
        start = time.monotonic()
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=err)
        # os.kill, not proc.kill: Popen's polls would reap the child before
        # wait4 does. Until wait4 reaps it, its pid cannot be reused.
        timer = threading.Timer(timeout, os.kill, (proc.pid, signal.SIGKILL))
        timer.start()
        # wait4, not Popen.wait: it gives this child's own rusage.
        _, status, usage = os.wait4(proc.pid, 0)
        timer.cancel()
        seconds = time.monotonic() - start
        # Popen must not wait for the child that wait4 reaped.
        proc.returncode = os.waitstatus_to_exitcode(status)
        err.seek(0)
        text = err.read()
    if seconds >= timeout:
        return None, seconds, usage.ru_maxrss, text
    return proc.returncode, seconds, usage.ru_maxrss, text


def pass_times(timing_report):
    """(total seconds, [(pass, seconds)] of the passes that nest no other
    pass) from an --mlir-timing report, in its order."""
    total = TIMING_TOTAL.search(timing_report)
    rows = []
    for line in timing_report.splitlines():
        m = TIMING_ROW.match(line)
        # Analyses ("(A) DominanceInfo") belong to the pass above them.
        if m and m.group(3) not in ("Rest", "Total") and \
                not m.group(3).startswith("(A)"):
            rows.append((len(m.group(2)), m.group(3), float(m.group(1))))

    def nests(i):
        if i + 1 == len(rows):
            return False
        depth, following = rows[i][0], rows[i + 1]
        # A pass that runs a pipeline of its own (tile-to-ptx) has it
        # printed beside it, at its own depth, not below it.
        return following[0] > depth or (following[0] == depth and
                                        following[1].endswith("' Pipeline"))

    leaves = [(name, seconds) for i, (_, name, seconds) in enumerate(rows)
              if not nests(i) and not name.endswith("Pipeline")]
    return (float(total.group(1)) if total else 0.0), leaves


def tile_opt_cmd(opts, c, mlir):
    options = " " + c["options"] if c.get("options") else ""
    return [opts.tile_opt, mlir, "--tile-to-ptx=chip=%s%s" % (c["chip"], options),
            "-o", os.devnull]


def measure(opts, c, work):
    rec = dict(name=c["name"], chip=c["chip"], options=c.get("options", ""))
    mlir = os.path.join(work, c["name"] + ".mlir")
    gen = subprocess.run([sys.executable, opts.gen] +
                         compile_all.generator_args(c),
                         capture_output=True, text=True)
    if gen.returncode != 0:
        return dict(rec, status="error",
                    error="generator: " + compile_all.first_error(gen.stderr))
    with open(mlir, "w") as f:
        f.write(gen.stdout)
    cmd = tile_opt_cmd(opts, c, mlir)
    # The --mlir-timing run goes first, untimed: it also brings tile-opt,
    # libMLIR.so and the kernel into the page cache for the timed runs.
    def timed_out(seconds):
        return dict(rec, status="timeout", seconds=seconds,
                    error="ran past %g s" % opts.timeout)

    rc, seconds, _, report = run_child(cmd + ["--mlir-timing"], opts.timeout)
    if rc is None:
        return timed_out(seconds)
    total, leaves = pass_times(report) if rc == 0 else (0.0, [])
    walls, peaks = [], []
    for _ in range(opts.repeat):
        rc, seconds, rss, err = run_child(cmd, opts.timeout)
        if rc is None:
            return timed_out(seconds)
        walls.append(seconds)
        peaks.append(rss)
        if rc != 0:
            return dict(rec, status="compile-error", seconds=seconds,
                        max_rss_mib=rss / 1024.0,
                        # The kernel's file as <name>.mlir, not its
                        # temporary path.
                        error=compile_all.first_error(
                            err.replace(work + os.sep, "")))
    rec = dict(rec, status="ok", seconds=statistics.median(walls),
               runs=walls, max_rss_mib=max(peaks) / 1024.0)
    if total > 0:
        rec["binary_share"] = dict(leaves).get(BINARY_PASS, 0.0) / total
        rec["top_passes"] = sorted(leaves, key=lambda kv: -kv[1])[:3]
    return rec


def compare(r, base, opts):
    """(note, regressed) for record r against its baseline record `base`."""
    if base is None:
        return "not in the baseline", False
    if r["status"] != "ok":
        if base["status"] == "ok":
            return "REFUSED NOW: the baseline compiled it", True
        return "", False
    if base["status"] != "ok":
        return "compiles now (the baseline: %s)" % base["status"], False
    notes, regressed = [], False
    time_ratio = r["seconds"] / base["seconds"]
    if (time_ratio > opts.tolerance and
            r["seconds"] - base["seconds"] >= opts.min_seconds):
        notes.append("SLOWER: %.2fx the baseline's %.2f s" %
                     (time_ratio, base["seconds"]))
        regressed = True
    else:
        notes.append("%.2fx the baseline's time" % time_ratio)
    rss_ratio = r["max_rss_mib"] / base["max_rss_mib"]
    if rss_ratio > opts.tolerance:
        notes.append("MORE MEMORY: %.2fx the baseline's %.0f MiB" %
                     (rss_ratio, base["max_rss_mib"]))
        regressed = True
    return "; ".join(notes), regressed


def row(r, note=""):
    if r["status"] != "ok":
        seconds = "%.2f" % r["seconds"] if "seconds" in r else "-"
        text = "%s: %s" % (r["status"], r["error"])
        if note:
            text += "; " + note
        return "| %s | %s | %s | - | - | %s |" % (r["name"], r["chip"],
                                                 seconds, text)
    share = ("%.0f%%" % (100 * r["binary_share"])
             if "binary_share" in r else "-")
    return "| %s | %s | %.2f | %.0f | %s | %s |" % (
        r["name"], r["chip"], r["seconds"], r["max_rss_mib"], share, note)


def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return "unknown"


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--tile-opt", default=os.path.join(ROOT, "build", "bin",
                                                      "tile-opt"))
    p.add_argument("--gen", default=os.path.join(ROOT, "test", "Execution",
                                                 "Inputs", "gemm.py"))
    p.add_argument("--only", action="append", default=[], metavar="REGEX",
                   help="only the configurations whose names REGEX matches "
                   "(re.search; repeatable)")
    p.add_argument("--repeat", type=int, default=3,
                   help="timed runs per configuration (default 3)")
    p.add_argument("--timeout", type=float, default=300,
                   help="seconds one run may take (default 300)")
    p.add_argument("--json", default=os.path.join(HERE, "results",
                                                  "compile-time.json"))
    p.add_argument("--baseline", metavar="JSON",
                   help="compare with the records of this file (one this "
                   "script wrote)")
    p.add_argument("--tolerance", type=float, default=1.5,
                   help="with --baseline: the ratio of time or memory above "
                   "which a kernel fails the run (default 1.5)")
    p.add_argument("--min-seconds", type=float, default=0.1,
                   help="with --baseline: a slower kernel fails the run only "
                   "if it is also this much slower (default 0.1)")
    opts = p.parse_args()
    if opts.repeat < 1:
        p.error("--repeat must be at least 1")
    if opts.tolerance < 1:
        p.error("--tolerance must be at least 1 (a ratio to the baseline)")
    try:
        patterns = [re.compile(r) for r in opts.only]
    except re.error as e:
        p.error("--only %r: %s" % (e.pattern, e))
    if not os.path.exists(opts.tile_opt):
        sys.exit("error: %s: no such file (build tile-opt first)" %
                 opts.tile_opt)
    if not os.path.exists(opts.gen):
        sys.exit("error: %s: no such file" % opts.gen)
    baseline = None
    if opts.baseline:
        # Read before anything is written: --json may name the same file.
        try:
            with open(opts.baseline) as f:
                baseline = json.load(f)
            baseline_records = {r["name"]: r for r in baseline["records"]}
        except (OSError, ValueError, KeyError, TypeError) as e:
            sys.exit("error: --baseline %s: not a file this script wrote "
                     "(%s)" % (opts.baseline, e))
    chosen = [c for c in configs.configs()
              if not patterns or any(r.search(c["name"]) for r in patterns)]
    if not chosen:
        sys.exit("error: no configuration's name matches %s" %
                 " or ".join(repr(s) for s in opts.only))

    records = []
    with tempfile.TemporaryDirectory() as work:
        for c in chosen:
            records.append(measure(opts, c, work))
            print(records[-1]["name"], records[-1]["status"], flush=True)

    commit = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"],
                            capture_output=True, text=True).stdout.strip()
    os.makedirs(os.path.dirname(os.path.abspath(opts.json)), exist_ok=True)
    with open(opts.json, "w") as f:
        json.dump(dict(commit=commit, repeat=opts.repeat, cpu=cpu_model(),
                       cores=os.cpu_count(),
                       date=datetime.datetime.now(datetime.timezone.utc)
                       .strftime("%Y-%m-%dT%H:%M:%SZ"),
                       records=records), f, indent=1)
    print()
    print("| configuration | chip | seconds (median of %d) | peak RSS (MiB) "
          "| in gpu-module-to-binary | note |" % opts.repeat)
    print("|---|---|---|---|---|---|")
    regressions = 0
    for r in records:
        note = ""
        if baseline is not None:
            note, regressed = compare(r, baseline_records.get(r["name"]), opts)
            regressions += regressed
        print(row(r, note))
    ok = [r for r in records if r["status"] == "ok"]
    if ok:
        print("\n%d compiled: %.1f s in all, the slowest %s (%.2f s)" % (
            len(ok), sum(r["seconds"] for r in ok),
            max(ok, key=lambda r: r["seconds"])["name"],
            max(r["seconds"] for r in ok)))
    if baseline is not None:
        print("%d of %d above %gx the baseline's time or memory, or refused "
              "where it compiled (%s, at %s)" % (
                  regressions, len(records), opts.tolerance,
                  os.path.relpath(opts.baseline), baseline.get("commit", "?")))
    # A refusal is an answer (the over-budget row); a run past the limit or
    # a generator error is not.
    failed = any(r["status"] in ("timeout", "error") for r in records)
    sys.exit(1 if failed or regressions else 0)


if __name__ == "__main__":
    main()
