#!/usr/bin/env python3
"""Mutation fuzzer for tile-opt: bad input must give a diagnostic, never a crash.

Takes the tile kernels of the regression tests and examples as seeds, applies a
few random textual mutations to one (a number, an element type, an address
space, a pipelining attribute, an SSA use, a line deleted, duplicated or moved),
and runs the result through several pipelines of tile-opt. Any run that ends
with a signal, an exit status other than 0 or 1, an exit status 1 without an
`error:`, a crash report or assertion message, or that passes its time limit
is a finding: the mutant is written to OUT/crash-N.mlir with the command and
its output.

Exit status 1 with an error is the expected result for most mutants. Errors
from an op the compiler itself generated (the IR verifier after one of our
passes, a failed legalization) are bugs too; `--show-errors` prints every
distinct error message with a count, with numbers and names blanked, to
review by hand.

Usage:
  scripts/fuzz.py --tile-opt build/bin/tile-opt --seed 1 --runs 500 --out fuzz-out
"""

import argparse
import collections
import os
import pathlib
import random
import re
import subprocess
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent

CPU_TO_LLVM = ["--expand-strided-metadata", "--lower-affine",
               "--convert-scf-to-cf", "--convert-to-llvm",
               "--reconcile-unrealized-casts"]

# Each pipeline a mutant goes through. The full tile-to-ptx pipelines cover
# every pass of ours and the upstream conversions after them.
PIPELINES = [
    ["--tile-to-ptx=chip=sm_90a"],
    ["--tile-to-ptx=chip=sm_90a tma=true cluster=2 tma-store=true"],
    ["--tile-to-ptx=chip=sm_90 tma=true split-barriers=true "
     "persistent-blocks=132"],
    ["--tile-to-ptx=chip=sm_80"],
    ["--tile-pipeline-planning", "--tile-software-pipeline",
     "--tile-lower-to-cpu"] + CPU_TO_LLVM,
    ["--tile-pipeline-planning", "--tile-print-schedule",
     "--tile-smem-budget=chip=sm_90"],
    ["--tile-pipeline-planning",
     "--tile-software-pipeline=unroll-steady-state=false",
     "--tile-specialize-interior-blocks", "--tile-lower-to-nvgpu=chip=sm_90"],
]

CRASH_MARKERS = ("PLEASE submit a bug report", "Assertion", "LLVM ERROR",
                 "UNREACHABLE", "Stack dump", "terminate called",
                 "Segmentation fault")

NUMBERS = [0, 1, 2, 3, 4, 5, 7, 8, 15, 16, 17, 24, 31, 32, 33, 48, 63, 64, 65,
           96, 100, 127, 128, 129, 192, 255, 256, 257, 384, 512, 1000, 1023,
           1024, 4095, 4096, 4097, 65535, 65536, 2**31 - 1, 2**31, 2**32,
           2**40, -1, -2, -128]
ELEMENT_TYPES = ["f16", "f32", "bf16", "f64", "i8", "i16", "i32", "i64", "i1",
                 "index", "f8E4M3FN", "tf32", "complex<f32>", "vector<4xf16>"]
ADDRESS_SPACES = ["#gpu.address_space<workgroup>",
                  "#gpu.address_space<private>", "#gpu.address_space<global>",
                  "3", "5", "1"]


def load_seeds():
    """Every `// -----` chunk of a test or example that holds a tile op."""
    files = sorted((ROOT / "test").rglob("*.mlir")) + sorted(
        (ROOT / "examples").glob("*.mlir"))
    seeds = []
    for path in files:
        for chunk in path.read_text().split("// -----"):
            lines = [l for l in chunk.splitlines()
                     if not l.lstrip().startswith("//")]
            text = "\n".join(lines)
            if "tile." in text and "func.func" in text:
                seeds.append((path.relative_to(ROOT), text + "\n"))
    return seeds


def mutate_number(rng, text):
    spans = [m.span() for m in re.finditer(r"(?<![\w%#.])-?\d+(?![\w.])", text)]
    if not spans:
        return text
    start, end = rng.choice(spans)
    return text[:start] + str(rng.choice(NUMBERS)) + text[end:]


def mutate_dim(rng, text):
    # A dimension of a shaped type: the number before an `x`.
    spans = [m.span(1) for m in re.finditer(r"[<x](\d+)x", text)]
    if not spans:
        return text
    start, end = rng.choice(spans)
    return text[:start] + str(rng.choice(NUMBERS[:32])) + text[end:]


def mutate_element_type(rng, text):
    spans = [m.span(1) for m in re.finditer(r"x(f16|f32|bf16|i8|i32|f64)\b",
                                            text)]
    if not spans:
        return text
    start, end = rng.choice(spans)
    return text[:start] + rng.choice(ELEMENT_TYPES) + text[end:]


def mutate_all_element_types(rng, text):
    old = rng.choice(["f16", "f32", "bf16"])
    return re.sub(r"x" + old + r"\b", "x" + rng.choice(ELEMENT_TYPES), text)


def mutate_address_space(rng, text):
    spans = [m.span() for m in re.finditer(r"#gpu\.address_space<\w+>", text)]
    if not spans:
        return text
    start, end = rng.choice(spans)
    return text[:start] + rng.choice(ADDRESS_SPACES) + text[end:]


def mutate_ssa_use(rng, text):
    names = sorted(set(re.findall(r"%[\w.]+", text)))
    spans = [m.span() for m in re.finditer(r"%[\w.]+", text)]
    if len(names) < 2:
        return text
    start, end = rng.choice(spans)
    return text[:start] + rng.choice(names) + text[end:]


def mutate_pipelining(rng, text):
    choices = [
        lambda t: re.sub(r"num_stages = \d+", "num_stages = %d" %
                         rng.choice([0, 1, 2, 3, 4, 5, 8, 9, 16, 100, -1]), t,
                         count=1),
        lambda t: re.sub(r"stage = \[[^\]]*\]", "stage = [%s]" % ", ".join(
            str(rng.choice([0, 1, 2, 3, -1, 7]))
            for _ in range(rng.randint(0, 5))), t, count=1),
        lambda t: re.sub(r"order = \[[^\]]*\]", "order = [%s]" % ", ".join(
            str(rng.choice([0, 1, 2, 3, 4, -1, 9]))
            for _ in range(rng.randint(0, 5))), t, count=1),
        lambda t: t.replace("tile.pipelined", "tile.serial", 1),
        lambda t: t.replace("tile.serial", "tile.pipelined", 1),
        lambda t: re.sub(r"threads\(\d+\)", "threads(%d)" % rng.choice(
            [0, 1, 31, 32, 64, 96, 128, 160, 256, 384, 512, 1024, 2048]), t),
    ]
    return rng.choice(choices)(text)


def body_lines(text):
    lines = text.splitlines()
    return lines, [i for i, l in enumerate(lines)
                   if l.strip() and not l.strip().startswith(("func.func",
                                                              "}", "!"))]


def mutate_delete_line(rng, text):
    lines, idx = body_lines(text)
    if idx:
        del lines[rng.choice(idx)]
    return "\n".join(lines) + "\n"


def mutate_duplicate_line(rng, text):
    lines, idx = body_lines(text)
    if idx:
        i = rng.choice(idx)
        lines.insert(rng.choice(idx), lines[i])
    return "\n".join(lines) + "\n"


def mutate_move_line(rng, text):
    lines, idx = body_lines(text)
    if len(idx) > 1:
        i, j = rng.sample(idx, 2)
        lines.insert(j, lines.pop(i))
    return "\n".join(lines) + "\n"


MUTATORS = [
    (mutate_number, 4), (mutate_dim, 4), (mutate_element_type, 2),
    (mutate_all_element_types, 2), (mutate_address_space, 1),
    (mutate_ssa_use, 2), (mutate_pipelining, 3), (mutate_delete_line, 2),
    (mutate_duplicate_line, 1), (mutate_move_line, 2),
]


def mutate(rng, text):
    funcs = [f for f, w in MUTATORS for _ in range(w)]
    for _ in range(rng.choice([1, 1, 1, 2, 2, 3])):
        text = rng.choice(funcs)(rng, text)
    return text


def run(tool, args, text, timeout):
    try:
        proc = subprocess.run([tool, "-", "-o", "/dev/null"] + args,
                              input=text, capture_output=True, text=True,
                              timeout=timeout)
    except subprocess.TimeoutExpired:
        return "timeout", None, ""
    err = proc.stderr
    if proc.returncode < 0 or proc.returncode not in (0, 1):
        return "exit %d" % proc.returncode, proc.returncode, err
    if any(m in err for m in CRASH_MARKERS):
        return "crash report", proc.returncode, err
    if proc.returncode == 1 and "error:" not in err:
        return "failed without an error", proc.returncode, err
    return None, proc.returncode, err


def error_kind(err):
    for line in err.splitlines():
        if "error:" in line:
            msg = line.split("error:", 1)[1]
            msg = re.sub(r"\d+", "N", msg)
            msg = re.sub(r"'[^']*'", "'_'", msg)
            msg = re.sub(r"%[\w.]+", "%_", msg)
            return msg.strip()[:160]
    return ""


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tile-opt", default=str(ROOT / "build/bin/tile-opt"))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--runs", type=int, default=200,
                        help="mutants to generate")
    parser.add_argument("--timeout", type=float, default=60)
    parser.add_argument("--out", default="fuzz-out")
    parser.add_argument("--show-errors", action="store_true")
    args = parser.parse_args()

    rng = random.Random(args.seed)
    seeds = load_seeds()
    out = pathlib.Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    findings = 0
    kinds = collections.Counter()
    examples = {}
    outcomes = collections.Counter()
    start = time.time()
    for n in range(args.runs):
        origin, seed_text = rng.choice(seeds)
        text = mutate(rng, seed_text)
        if text == seed_text:
            continue
        # Mutants that do not parse and verify are the parser's business;
        # the pipelines run only on those that do.
        finding, rc, err = run(args.tile_opt, [], text, args.timeout)
        pipelines = [[]] if finding or rc != 0 else PIPELINES
        if not finding and rc != 0:
            outcomes["rejected by the verifier"] += 1
        for pipeline in pipelines:
            if pipeline:
                finding, rc, err = run(args.tile_opt, pipeline, text,
                                       args.timeout)
            if finding:
                findings += 1
                path = out / ("crash-%d-%d.mlir" % (args.seed, n))
                cmd = "tile-opt " + " ".join(repr(a) for a in pipeline)
                path.write_text("// seed: %s\n// command: %s\n// %s\n%s\n"
                                "// stderr:\n%s" % (
                                    origin, cmd, finding, text,
                                    "\n".join("// " + l for l in
                                              err.splitlines()[:40])))
                print("FINDING %s: %s (%s)" % (finding, path, cmd), flush=True)
                outcomes["finding"] += 1
                break
            if pipeline:
                outcomes["pipeline %s" % ("ok" if rc == 0 else "error")] += 1
            if rc == 1:
                kind = error_kind(err)
                kinds[kind] += 1
                examples.setdefault(kind, (origin, pipeline, text))
    print("%d mutants, %d findings, %.0f s; %s" % (
        args.runs, findings, time.time() - start, dict(outcomes)))
    if args.show_errors:
        for kind, count in kinds.most_common():
            origin, pipeline, _ = examples[kind]
            print("%5d  %s   [%s %s]" % (count, kind, origin,
                                         " ".join(pipeline)))
        (out / ("errors-%d.txt" % args.seed)).write_text("\n\n".join(
            "// %s\n// %s\n%s" % (kind, " ".join(p), t)
            for kind, (o, p, t) in examples.items()))
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
