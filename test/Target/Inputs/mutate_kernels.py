#!/usr/bin/env python3
"""Feeds tile-opt mutated tile kernels: a robustness check, not a
correctness one.

Each run takes one kernel of the corpus (the .mlir files given, split at
`// -----`, comment lines dropped), changes one to three things in it (an
integer literal, a shape dimension, an element type, an address space, an
SSA use, a pipelining attribute or the thread count replaced; a line
deleted, duplicated or swapped with another) and runs one of the pipelines
below on it. Every run must either succeed or fail with an `error:`
diagnostic and exit code 1: no crash, no assertion, no hang (30 s), no
failure without a diagnostic, and no internal error of the backend (a failed
legalization or LLVM translation means the compiler made IR it cannot
lower, so it should have rejected the input itself). Prints one line per run
that breaks that (with the input and the pipeline), then a summary:

  N runs: A compiled, R rejected with an error, F broken

and exits non-zero when F > 0. Fixed seeds reproduce a run. `--errors`
also prints every distinct error message (numbers and names blanked) with a
count and whether tile-opt refuses the input without any pass ("input") or
only in the pipeline ("pipeline"), to review by hand for messages that blame
the compiler's own IR (an upstream op verifier's message under "pipeline").

  mutate_kernels.py --seed S --count N --tile-opt BIN [--work DIR] FILE...

The lit test runs a few kernels; a longer campaign takes every test:

  mutate_kernels.py --seed 7 --count 5000 --tile-opt build/bin/tile-opt \
      --errors $(find test examples -name '*.mlir')
"""

import argparse
import collections
import os
import random
import re
import subprocess
import sys

CPU_TO_LLVM = ["--expand-strided-metadata", "--lower-affine",
               "--convert-scf-to-cf", "--convert-to-llvm",
               "--reconcile-unrealized-casts"]

PIPELINES = [
    ["--tile-to-ptx=chip=sm_90a"],
    ["--tile-to-ptx=chip=sm_90"],
    ["--tile-to-ptx=chip=sm_80"],
    ["--tile-to-ptx=chip=sm_90a tma=true cluster=2"],
    ["--tile-to-ptx=chip=sm_90a tma=true cluster=4 cluster-cols=2"],
    ["--tile-to-ptx=chip=sm_90 tma=true split-barriers=true"],
    ["--tile-to-ptx=chip=sm_90a persistent-blocks=3 tma=true tma-store=true"],
    ["--tile-lower-to-cpu"],
    ["--tile-pipeline-planning", "--tile-software-pipeline",
     "--tile-lower-to-cpu"] + CPU_TO_LLVM,
    ["--tile-pipeline-planning", "--tile-software-pipeline"],
    ["--tile-pipeline-planning",
     "--tile-software-pipeline=unroll-steady-state=false",
     "--tile-specialize-interior-blocks", "--tile-specialize-interior-steps",
     "--tile-lower-to-nvgpu=chip=sm_90"],
    ["--tile-smem-budget=chip=sm_90", "--tile-print-schedule"],
]

VALUES = ["0", "1", "2", "3", "4", "5", "7", "8", "16", "17", "31", "32", "33",
          "48", "64", "96", "100", "128", "255", "256", "384", "512", "-1",
          "-16", "4096", "65536", "1000000", str(2**31), str(2**32),
          str(2**40)]
ELEMENT_TYPES = ["f16", "f32", "bf16", "f64", "i8", "i16", "i32", "i64", "i1",
                 "index", "f8E4M3FN", "tf32", "complex<f32>"]
ADDRESS_SPACES = ["#gpu.address_space<workgroup>",
                  "#gpu.address_space<private>", "#gpu.address_space<global>",
                  "3", "5", "1"]

NUMBER = re.compile(r"(?<![%#\w])-?\d+(?!\w)")
DIMENSION = re.compile(r"(?<=[<x])\d+(?=x)")
ELEMENT = re.compile(r"(?<=x)(f16|f32|bf16|f64|i8|i32)\b")
SPACE = re.compile(r"#gpu\.address_space<\w+>")
# A memref type without a memory space or layout: an argument's, mostly.
PLAIN_MEMREF = re.compile(r"(memref<[\dx]*x\w+)>")
SSA = re.compile(r"%[\w.]+")

# Messages of the backend about IR the compiler made: the input should have
# been rejected before.
INTERNAL_ERRORS = ("failed to legalize", "cannot be converted to LLVM IR",
                   "Failed creating the llvm::Module")
CRASHES = ("PLEASE submit a bug report", "Assertion", "LLVM ERROR",
           "UNREACHABLE", "Stack dump", "terminate called")


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


def replace_match(rng, text, pattern, choices):
    matches = list(pattern.finditer(text))
    if not matches:
        return text
    m = rng.choice(matches)
    return text[:m.start()] + rng.choice(choices) + text[m.end():]


def mutate_pipelining(rng, text):
    def numbers(values):
        return ", ".join(str(rng.choice(values))
                         for _ in range(rng.randint(0, 5)))
    choice = rng.randrange(5)
    if choice == 0:
        return re.sub(r"num_stages = \d+", "num_stages = %d" % rng.choice(
            [0, 1, 2, 3, 4, 5, 8, 9, 16, 100]), text, count=1)
    if choice == 1:
        return re.sub(r"stage = \[[^\]]*\]",
                      "stage = [%s]" % numbers([0, 1, 2, 3, 7]), text, count=1)
    if choice == 2:
        return re.sub(r"order = \[[^\]]*\]",
                      "order = [%s]" % numbers([0, 1, 2, 3, 4, 9]), text,
                      count=1)
    if choice == 3:
        return re.sub(r"threads\(\d+\)", "threads(%d)" % rng.choice(
            [0, 32, 64, 96, 128, 160, 256, 384, 512, 1024, 2048]), text)
    return re.sub(r" (num_stages = \d+|stage = \[[^\]]*\]|"
                  r"order = \[[^\]]*\])", "", text, count=1)


def mutate(rng, text):
    for _ in range(rng.randint(1, 3)):
        lines = text.split("\n")
        choice = rng.random()
        if choice < 0.3:
            text = replace_match(rng, text, NUMBER, VALUES)
        elif choice < 0.4:
            text = replace_match(rng, text, DIMENSION, VALUES[:20])
        elif choice < 0.5:
            if rng.random() < 0.5:
                text = replace_match(rng, text, ELEMENT, ELEMENT_TYPES)
            else:
                old = rng.choice(["f16", "f32", "bf16"])
                text = re.sub(r"(?<=x)" + old + r"\b",
                              rng.choice(ELEMENT_TYPES), text)
        elif choice < 0.55:
            if rng.random() < 0.5:
                text = replace_match(rng, text, SPACE, ADDRESS_SPACES)
            else:
                matches = list(PLAIN_MEMREF.finditer(text))
                if matches:
                    m = rng.choice(matches)
                    space = rng.choice(ADDRESS_SPACES + ['"x"'])
                    text = (text[:m.start()] + m.group(1) + ", " + space +
                            ">" + text[m.end():])
        elif choice < 0.65:
            text = replace_match(rng, text, SSA, sorted(set(SSA.findall(text))))
        elif choice < 0.75:
            text = mutate_pipelining(rng, text)
        elif choice < 0.85:
            i = rng.randrange(len(lines))
            if "func.func" not in lines[i]:
                del lines[i]
            text = "\n".join(lines)
        elif choice < 0.9:
            lines.insert(rng.randrange(len(lines)), rng.choice(lines))
            text = "\n".join(lines)
        elif choice < 0.96:
            i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
            lines[i], lines[j] = lines[j], lines[i]
            text = "\n".join(lines)
        else:
            text = mutate_names(rng, text)
    return text


# Names that reach PTX (a kernel is the entry <function>_kernel) and the
# launch description (a tile.name): ones outside PTX's identifier
# characters, the kernels' gpu.module's own name, and tile.names with a
# space, a comma or none at all, or another argument's default letter.
FUNCTION_NAMES = ['@"k\u00e4"', '@"a.b"', '@"a-b"', '@"a b"', '@"1x"', '@"$k"',
                  "@tile_kernels", '@"%x"', "@_k"]
ARG_NAMES = ["A b", "", "B", "C", "1", "x,y", "dim(A", "A=B", "_a1"]


def mutate_names(rng, text):
    """A function's name, or an argument's tile.name, replaced or added."""
    if rng.random() < 0.5:
        return re.sub(r"func\.func @[\w$.]+", "func.func " +
                      rng.choice(FUNCTION_NAMES), text, count=1)
    name = rng.choice(ARG_NAMES)
    if "tile.name" in text and rng.random() < 0.5:
        return re.sub(r'tile\.name = "[^"]*"', f'tile.name = "{name}"', text,
                      count=1)
    return re.sub(r"(%\w+: memref<[^>]*>)(?=[,)])",
                  rf'\1 {{tile.name = "{name}"}}', text, count=1)


def error_kind(err):
    """The first error message with numbers, quoted names and SSA names
    blanked."""
    for line in err.split("\n"):
        if "error:" in line:
            msg = line.split("error:", 1)[1]
            msg = re.sub(r"\d+", "N", msg)
            msg = re.sub(r"'[^']*'", "'_'", msg)
            return re.sub(r"%[\w.]+", "%_", msg).strip()[:200]
    return ""


def rejected_by(tile_opt, source):
    """'input' when tile-opt refuses the kernel without any pass (the parser
    or an op verifier), 'pipeline' when only the pipeline does. An upstream
    op verifier's message under 'pipeline' blames IR that a pass made."""
    result = subprocess.run([tile_opt, "-o", os.devnull], input=source,
                            text=True, capture_output=True, timeout=30)
    return "input" if result.returncode else "pipeline"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--count", type=int, required=True)
    parser.add_argument("--tile-opt", required=True)
    parser.add_argument("--work", help="keep each broken input here")
    parser.add_argument("--errors", action="store_true",
                        help="print each distinct error message, counted")
    parser.add_argument("files", nargs="+")
    args = parser.parse_args()

    rng = random.Random(args.seed)
    corpus = load_corpus(sorted(args.files))
    if not corpus:
        sys.exit("no tile.kernel in the corpus")
    compiled = rejected = broken = 0
    kinds = collections.Counter()
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
        internal = any(m in err for m in INTERNAL_ERRORS + CRASHES)
        if code == 1 and "error:" in err and not internal:
            rejected += 1
            if args.errors:
                kinds[(rejected_by(args.tile_opt, source), error_kind(err))] += 1
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
    if args.errors:
        for (stage, kind), count in sorted(kinds.items(),
                                           key=lambda kv: (kv[0][0], -kv[1])):
            print("%6d  %-8s %s" % (count, stage, kind))
    print("%d runs: %d compiled, %d rejected with an error, %d broken" %
          (args.count, compiled, rejected, broken))
    sys.exit(1 if broken else 0)


if __name__ == "__main__":
    main()
