#!/usr/bin/env python3
"""Feeds tile-opt mutated tile kernels: a robustness check, not a
correctness one.

Each run takes one kernel of the corpus (the .mlir files given, split at
`// -----`, comment lines dropped), changes one to three things in it (an
integer literal replaced by another, a line deleted, two lines swapped) and
runs one of the pipelines below on it. Every run must either succeed or fail
with an `error:` diagnostic and exit code 1: no crash, no assertion, no hang
(30 s), no failure without a diagnostic. Prints one line per run that breaks
that (with the input and the pipeline), then a summary:

  N runs: A compiled, R rejected with an error, F broken

and exits non-zero when F > 0. Fixed seeds reproduce a run.

  mutate_kernels.py --seed S --count N --tile-opt BIN [--work DIR] FILE...
"""

import argparse
import os
import random
import re
import subprocess
import sys

PIPELINES = [
    ["--tile-to-ptx=chip=sm_90a"],
    ["--tile-to-ptx=chip=sm_90"],
    ["--tile-to-ptx=chip=sm_80"],
    ["--tile-to-ptx=chip=sm_90a tma=true cluster=2"],
    ["--tile-to-ptx=chip=sm_90 tma=true split-barriers=true"],
    ["--tile-to-ptx=chip=sm_90a persistent-blocks=3 tma=true tma-store=true"],
    ["--tile-lower-to-cpu"],
    ["--tile-pipeline-planning", "--tile-software-pipeline"],
    ["--tile-smem-budget=chip=sm_90", "--tile-print-schedule"],
]

VALUES = ["0", "1", "2", "3", "4", "5", "7", "8", "16", "17", "31", "32", "33",
          "48", "64", "96", "100", "128", "255", "256", "384", "512", "-1",
          "-16", "4096", "1000000"]

NUMBER = re.compile(r"(?<![%#\w])-?\d+(?!\w)")


def load_corpus(paths):
    kernels = []
    for path in paths:
        with open(path) as f:
            for part in f.read().split("// -----"):
                lines = [l for l in part.split("\n")
                         if not l.lstrip().startswith("//")]
                text = "\n".join(lines)
                if "tile.kernel" in text:
                    kernels.append(text)
    return kernels


def mutate(rng, text):
    lines = text.split("\n")
    for _ in range(rng.randint(1, 3)):
        choice = rng.random()
        if choice < 0.6:
            numbers = [(i, m) for i, line in enumerate(lines)
                       for m in NUMBER.finditer(line)]
            if numbers:
                i, m = rng.choice(numbers)
                lines[i] = (lines[i][:m.start()] + rng.choice(VALUES) +
                            lines[i][m.end():])
        elif choice < 0.8:
            i = rng.randrange(len(lines))
            if "func.func" not in lines[i]:
                del lines[i]
        else:
            i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
            lines[i], lines[j] = lines[j], lines[i]
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--count", type=int, required=True)
    parser.add_argument("--tile-opt", required=True)
    parser.add_argument("--work", help="keep each broken input here")
    parser.add_argument("files", nargs="+")
    args = parser.parse_args()

    rng = random.Random(args.seed)
    corpus = load_corpus(sorted(args.files))
    if not corpus:
        sys.exit("no tile.kernel in the corpus")
    compiled = rejected = broken = 0
    for run in range(args.count):
        source = mutate(rng, rng.choice(corpus))
        pipeline = rng.choice(PIPELINES)
        try:
            result = subprocess.run(
                [args.tile_opt, "-o", os.devnull] + pipeline, input=source,
                text=True, capture_output=True, timeout=30)
            code, err = result.returncode, result.stderr
        except subprocess.TimeoutExpired:
            code, err = None, "timed out after 30 s"
        if code == 0:
            compiled += 1
            continue
        if code == 1 and "error:" in err:
            rejected += 1
            continue
        broken += 1
        where = ""
        if args.work:
            os.makedirs(args.work, exist_ok=True)
            where = os.path.join(args.work, "run%d.mlir" % run)
            with open(where, "w") as f:
                f.write(source)
        print("run %d (%s): exit %s %s\n%s" % (run, " ".join(pipeline), code,
                                               where, err[-2000:]))
    print("%d runs: %d compiled, %d rejected with an error, %d broken" %
          (args.count, compiled, rejected, broken))
    sys.exit(1 if broken else 0)


if __name__ == "__main__":
    main()
