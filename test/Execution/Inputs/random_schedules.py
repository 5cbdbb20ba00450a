"""Runs random pipelined GEMMs of test/Execution/Inputs/gemm.py on the CPU:
random `num_stages`, or random `stage` and `order` by hand (valid or not),
random small sizes that are not tile multiples, transposed operands, shifted
or element-counted K loops, element types, and the steady state unrolled or
not. Each goes through --tile-pipeline-planning --tile-software-pipeline
--tile-specialize-interior-blocks [--tile-persistent-blocks, with --persistent]
--tile-specialize-interior-steps --tile-lower-to-cpu=check-barriers=true (the
order of --tile-to-ptx; a missing barrier makes the elements it leaves racing
NaN). Which outcome is right is decided here, from how the
configuration was drawn:

* `num_stages` only: planning picks the schedule itself, and the tiles drawn
  here need at most 7.5 KiB of shared memory even at depth 5, so tile-opt
  must accept it.
* `stage`/`order` by hand: the body is copy A (#0), copy B (#1), gemm (#2).
  The schedule is legal exactly when `order` (default 0,1,2) is a permutation
  of 0..2 and the gemm runs after both copies within an iteration: a later
  stage, or the same stage and a later `order`. (Across iterations nothing
  more is needed: each copy's tile gets one version per stage between the
  copy and the gemm.) With `--copy-b-in-if` (`--regions`) copy B writes its
  tile under a condition, which a tile with more than one version cannot
  take, so the schedule is also illegal unless copy B and the gemm share a
  stage. A legal schedule must be accepted, an illegal one rejected.

Accepted configurations must run and match the f32 reference exactly
(max_abs_error 0, nothing unwritten, every element checked); rejected ones
must fail with an `error:` diagnostic and exit code 1. Anything else is a
failure: a legal schedule rejected, an illegal one accepted, a crash, an
assertion, a hang (each step has a time limit) or a wrong number. Prints one
line per failure and a summary; exits 1 on any failure.
"""
import argparse
import os
import random
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gemm_flags import (add_sweep_arguments, draw_layout_flags,  # noqa: E402
                        draw_lead_flags, draw_region_flags,
                        draw_tile_loop_flags)

parser = argparse.ArgumentParser(description=__doc__)
add_sweep_arguments(parser)
parser.add_argument("--to-llvm", required=True,
                    help="the passes from --tile-lower-to-cpu's output to LLVM")
parser.add_argument("--runner", required=True,
                    help="the mlir-runner command line, as one string")
parser.add_argument("--persistent", action="store_true",
                    help="run half of the configurations, with M set to 50, "
                    "70 or 100, through --tile-persistent-blocks (1, 2, 3, 5 "
                    "or 7 blocks, block-group 1, 2, 3 or 8) after the "
                    "software pipeline, as --tile-to-ptx does, from a "
                    "stream of its own as --regions")
parser.add_argument("--dynamic", action="store_true",
                    help="half the kernels take memref<?x?x...> operands "
                         "(gemm.py --dynamic)")
parser.add_argument("--verbose", action="store_true",
                    help="also print each rejection's first error line")
args = parser.parse_args()

rng = random.Random(args.seed)
region_rng = random.Random(f"regions {args.seed}")
lead_rng = random.Random(f"leads {args.seed}")
two_rng = random.Random(f"two-gemms {args.seed}")
tile_loop_rng = random.Random(f"tile-loops {args.seed}")
persistent_rng = random.Random(f"persistent {args.seed}")
dynamic_rng = random.Random(f"dynamic {args.seed}")


def legal_manual(stage, order):
    """Whether tile-opt must accept stage/order for gemm.py's body: copy A,
    copy B, gemm (the module docstring says why)."""
    if sorted(order) != [0, 1, 2]:
        return False
    gemm = 2
    return all(stage[gemm] > stage[copy] or
               (stage[gemm] == stage[copy] and order[gemm] > order[copy])
               for copy in (0, 1))


def config():
    """The flags, the steady-state unrolling, the number of elements of C and
    whether tile-opt must accept the configuration."""
    flags = ["--emit", "all"]
    if rng.random() < 0.5:
        flags += ["--variant", "auto", "--num-stages", str(rng.randint(1, 5))]
        legal = True
    else:
        stage = [rng.randint(0, 3) for _ in range(3)]
        flags += ["--variant", "manual", "--stage", ",".join(map(str, stage))]
        order = [0, 1, 2]
        if rng.random() < 0.8:
            if rng.random() < 0.8:
                rng.shuffle(order)
            else:
                order = [rng.randint(0, 2) for _ in range(3)]
            flags += ["--order", ",".join(map(str, order))]
        legal = legal_manual(stage, order)
    m, n = rng.choice([1, 5, 16, 20, 33]), rng.choice([1, 8, 12, 17, 40])
    flags += ["--M", str(m), "--N", str(n),
              "--K", str(rng.choice([1, 7, 8, 13, 40, 101])),
              "--bm", str(rng.choice([16, 32])),
              "--bn", str(rng.choice([8, 16])),
              "--bk", str(rng.choice([8, 16])),
              "--threads", str(rng.choice([32, 64, 128]))]
    flags += draw_layout_flags(rng)
    if args.regions:
        flags += draw_region_flags(region_rng)
        if "--copy-b-in-if" in flags and "--stage" in flags and \
                stage[1] != stage[2]:
            legal = False
    if args.leads:
        flags += draw_lead_flags(lead_rng, flags)
    if args.tile_loops:
        flags += draw_tile_loop_flags(tile_loop_rng)
    if args.two_gemms and "--num-stages" in flags and two_rng.random() < 0.5:
        flags.append("--two-gemms")
    if args.dynamic and dynamic_rng.random() < 0.5:
        flags.append("--dynamic")
    if rng.random() < 0.3:
        flags += ["--dtype", rng.choice(["f16", "bf16"]),
                  "--c-type", rng.choice(["f16", "bf16", "f32"])]
    unroll = rng.choice(["true", "false"])
    return flags, unroll, m * n, legal


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True,
                          timeout=args.timeout, **kw)


ran = rejected = declined = led = looped = 0
failures = []
for i in range(args.count):
    flags, unroll, elements, legal = config()
    persistent = []
    if args.persistent and persistent_rng.random() < 0.5:
        # Taller grids than config() draws (up to 7 rows of blocks), so
        # that groups of 2 and 3 rows leave a short last group.
        m = persistent_rng.choice([50, 70, 100])
        flags[flags.index("--M") + 1] = str(m)
        elements = m * int(flags[flags.index("--N") + 1])
        persistent = [
            "--tile-persistent-blocks=blocks="
            f"{persistent_rng.choice([1, 2, 3, 5, 7])} "
            f"block-group={persistent_rng.choice([1, 2, 3, 8])}"]
    what = f"unroll-steady-state={unroll} {' '.join(flags + persistent)}"
    src = run([sys.executable, args.gen] + flags)
    if src.returncode != 0:  # every combination drawn here is a valid one
        failures.append(f"gemm.py exit {src.returncode}: {what}\n"
                        f"{src.stderr[-300:]}")
        continue
    try:
        opt = run([args.tile_opt, "-", "--tile-pipeline-planning",
                   f"--tile-software-pipeline=unroll-steady-state={unroll}"]
                  + ["--tile-specialize-interior-blocks"] + persistent
                  + ["--tile-specialize-interior-steps",
                     "--tile-lower-to-cpu=check-barriers=true"]
                  + args.to_llvm.split(),
                  input=src.stdout)
        if opt.returncode != 0:
            if opt.returncode == 1 and "error:" in opt.stderr and \
                    "Stack dump" not in opt.stderr:
                # A legal schedule whose pipelined body tile-persistent-
                # blocks cannot take (docs/lowering.md step 2) is declined
                # with its diagnostic: counted apart, not a failure.
                if legal and persistent and \
                        "error: tile-persistent-blocks: " in opt.stderr:
                    declined += 1
                    continue
                if legal:
                    failures.append(f"legal schedule rejected: {what}\n"
                                    f"{opt.stderr[-800:]}")
                    continue
                rejected += 1
                if args.verbose:
                    error = next(line for line in opt.stderr.splitlines()
                                 if "error:" in line)
                    print(f"rejected: {what}\n  {error}")
            else:
                failures.append(f"tile-opt exit {opt.returncode}: {what}\n"
                                f"{opt.stderr[-800:]}")
            continue
        if not legal:
            failures.append(f"illegal schedule accepted: {what}")
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
            led += "--k-lead" in flags
            looped += "--tiles-per-block" in flags
    except subprocess.TimeoutExpired as e:
        failures.append(f"timeout in {e.cmd[0]}: {what}")
for failure in failures:
    print("FAIL", failure)
if args.persistent:
    print(f"declined by tile-persistent-blocks: {declined}")
if args.leads:
    print(f"ran and matched with --k-lead: {led}")
if args.tile_loops:
    print(f"ran and matched with --tiles-per-block: {looped}")
print(f"{args.count} configurations: {ran} ran and matched, {rejected} "
      f"rejected with a diagnostic, {len(failures)} failures")
sys.exit(1 if failures else 0)
