"""Runs random pipelined GEMMs of test/Execution/Inputs/gemm.py on the CPU:
random `num_stages`, or random `stage` and `order` by hand (valid or not),
random small sizes that are not tile multiples, transposed operands, shifted
or element-counted K loops, element types, and the steady state unrolled or
not. Each goes through --tile-pipeline-planning --tile-software-pipeline
--tile-specialize-interior-blocks --tile-lower-to-cpu (the order of
--tile-to-ptx) and must either be rejected with an `error:` diagnostic
and exit code 1, or run and match the f32 reference exactly (max_abs_error 0,
nothing unwritten, every element checked): never a crash, an assertion, a
hang (each step has a time limit) or a wrong number. Prints one line per
failure and a summary; exits 1 on any failure.
"""
import argparse
import os
import random
import re
import subprocess
import sys

parser = argparse.ArgumentParser(description=__doc__)
parser.add_argument("--seed", type=int, required=True)
parser.add_argument("--count", type=int, required=True)
parser.add_argument("--gen", required=True, help="gemm.py")
parser.add_argument("--tile-opt", required=True)
parser.add_argument("--to-llvm", required=True,
                    help="the passes from --tile-lower-to-cpu's output to LLVM")
parser.add_argument("--runner", required=True,
                    help="the mlir-runner command line, as one string")
parser.add_argument("--timeout", type=int, default=120)
parser.add_argument("--verbose", action="store_true",
                    help="also print each rejection's first error line")
args = parser.parse_args()
sys.path.insert(0, os.path.dirname(os.path.abspath(args.gen)))
from gemm_flags import draw_layout_flags  # noqa: E402

rng = random.Random(args.seed)


def config():
    flags = ["--emit", "all"]
    if rng.random() < 0.5:
        flags += ["--variant", "auto", "--num-stages", str(rng.randint(1, 5))]
    else:
        flags += ["--variant", "manual", "--stage",
                  ",".join(str(rng.randint(0, 3)) for _ in range(3))]
        if rng.random() < 0.8:
            order = [0, 1, 2]
            if rng.random() < 0.8:
                rng.shuffle(order)
            else:
                order = [rng.randint(0, 2) for _ in range(3)]
            flags += ["--order", ",".join(map(str, order))]
    m, n = rng.choice([1, 5, 16, 20, 33]), rng.choice([1, 8, 12, 17, 40])
    flags += ["--M", str(m), "--N", str(n),
              "--K", str(rng.choice([1, 7, 8, 13, 40, 101])),
              "--bm", str(rng.choice([16, 32])),
              "--bn", str(rng.choice([8, 16])),
              "--bk", str(rng.choice([8, 16])),
              "--threads", str(rng.choice([32, 64, 128]))]
    flags += draw_layout_flags(rng)
    if rng.random() < 0.3:
        flags += ["--dtype", rng.choice(["f16", "bf16"]),
                  "--c-type", rng.choice(["f16", "bf16", "f32"])]
    unroll = rng.choice(["true", "false"])
    return flags, unroll, m * n


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True,
                          timeout=args.timeout, **kw)


ran = rejected = 0
failures = []
for i in range(args.count):
    flags, unroll, elements = config()
    what = f"unroll-steady-state={unroll} {' '.join(flags)}"
    src = run([sys.executable, args.gen] + flags)
    if src.returncode != 0:  # a combination the generator refuses
        continue
    try:
        opt = run([args.tile_opt, "-", "--tile-pipeline-planning",
                   f"--tile-software-pipeline=unroll-steady-state={unroll}",
                   "--tile-specialize-interior-blocks",
                   "--tile-lower-to-cpu"] + args.to_llvm.split(),
                  input=src.stdout)
        if opt.returncode != 0:
            if opt.returncode == 1 and "error:" in opt.stderr and \
                    "Stack dump" not in opt.stderr:
                rejected += 1
                if args.verbose:
                    error = next(line for line in opt.stderr.splitlines()
                                 if "error:" in line)
                    print(f"rejected: {what}\n  {error}")
            else:
                failures.append(f"tile-opt exit {opt.returncode}: {what}\n"
                                f"{opt.stderr[-800:]}")
            continue
        out = run(args.runner.split(), input=opt.stdout)
        expected = ("max_abs_error: 0\nunwritten: 0\n"
                    f"checked: {elements}\n")
        text = re.sub(r"[ \t]+\n", "\n", out.stdout)
        if out.returncode != 0 or text != expected:
            failures.append(f"run exit {out.returncode}: {what}\n"
                            f"{out.stdout[-300:]}{out.stderr[-500:]}")
        else:
            ran += 1
    except subprocess.TimeoutExpired as e:
        failures.append(f"timeout in {e.cmd[0]}: {what}")
for failure in failures:
    print("FAIL", failure)
print(f"{args.count} configurations: {ran} ran and matched, {rejected} "
      f"rejected with a diagnostic, {len(failures)} failures")
sys.exit(1 if failures else 0)
