"""Compiles random GEMM configurations of test/Execution/Inputs/gemm.py for
random chips and checks that each one either becomes PTX that ptxas
assembles or is rejected with an `error:` diagnostic and exit code 1: never a
crash, an assertion, a hang (each step has a time limit), PTX that ptxas
refuses, keeps data in local memory or repeats a barrier. Prints one line per
failure, then for each tile-to-ptx option that the flags below can add
(persistent-blocks, tma=true, split-barriers=true, tma-store=true,
cluster=2, cluster=4, cluster-cols=2, block-group) how many kernels compiled and assembled with it, how
many kernels drew a harmless note about their wgmmas from ptxas
(ptxas_wgmma.py), and a summary; exits 1 on any failure.

With --keep, the PTX and launch description of every configuration that
compiled stay in --work, listed in manifest.tsv (index, chip, gemm.py flags,
and with --dynamic the MxNxK shapes a dynamic kernel runs at),
for bench/check_random.sh to run with `tile-run --check` on a GPU; so does
ptxas's cubin for sm_90 and sm_90a, which an H200 loads without the JIT
(PTX for older chips is JIT-compiled there).
"""
import argparse
import os
import random
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "..", "Execution", "Inputs"))
from gemm_flags import (add_sweep_arguments, draw_layout_flags,  # noqa: E402
                        draw_lead_flags, draw_region_flags,
                        draw_tile_loop_flags)
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ptxas_wgmma  # noqa: E402

parser = argparse.ArgumentParser(description=__doc__)
add_sweep_arguments(parser)
parser.add_argument("--tile-translate", required=True)
parser.add_argument("--ptxas", required=True)
parser.add_argument("--work", required=True, help="a scratch directory")
parser.add_argument("--types", action="store_true",
                    help="also draw the element types of A and B (f16, bf16) "
                    "and of C (f16, bf16, f32), from a separate stream so "
                    "that a seed's other choices stay as they were")
parser.add_argument("--schedules", action="store_true",
                    help="give manual variants a random stage and order "
                    "(valid or not), from a separate stream as --types")
parser.add_argument("--persistent", action="store_true",
                    help="compile half of the kernels with tile-to-ptx's "
                    "persistent-blocks (1, 2, 3, 7 or 132 blocks), from a "
                    "separate stream as --types")
parser.add_argument("--tma", action="store_true",
                    help="compile half of the sm_90 and sm_90a kernels with "
                    "tile-to-ptx's tma=true, from a separate stream as "
                    "--types")
parser.add_argument("--tma-options", action="store_true",
                    help="with --tma, give half of the tma=true kernels "
                    "split-barriers=true and, independently, half of the "
                    "sm_90 and sm_90a kernels tma-store=true, from separate "
                    "streams")
parser.add_argument("--cluster", action="store_true",
                    help="with --tma, give half of the tma=true kernels "
                    "cluster=2 or cluster=4, from a separate stream, and half "
                    "of those with cluster=4 in the grouped block order "
                    "cluster-cols=2 (2 x 2 patches), from another")
parser.add_argument("--block-orders", action="store_true",
                    help="give half of the kernels tile-to-ptx's block-group "
                    "1 (row-major), 2 or 3 instead of the default 8, which "
                    "orders both a grid's blocks and a persistent kernel's "
                    "tiles, from a separate stream")
parser.add_argument("--dynamic", action="store_true",
                    help="give half of the kernels memref<?x?x...> operands "
                    "(gemm.py --dynamic), half of those with "
                    "tile.divisibility = 8 and M, N and K rounded up to "
                    "multiples of 8; with --keep, manifest.tsv then names two "
                    "shapes to run each at, the drawn one and another, from "
                    "a separate stream as --types")
parser.add_argument("--chips", default="sm_80,sm_86,sm_89,sm_90,sm_90a",
                    help="the chips to draw from, separated by commas (the "
                    "draw takes one number from the main stream whatever "
                    "the list, so that the other choices stay as they were)")
parser.add_argument("--keep", action="store_true",
                    help="keep the PTX, launch description and (sm_90, "
                    "sm_90a) cubin of each kernel, and write manifest.tsv")
args = parser.parse_args()
os.makedirs(args.work, exist_ok=True)

rng = random.Random(args.seed)
region_rng = random.Random(f"regions {args.seed}")
lead_rng = random.Random(f"leads {args.seed}")
two_rng = random.Random(f"two-gemms {args.seed}")
tile_loop_rng = random.Random(f"tile-loops {args.seed}")
type_rng = random.Random(f"types {args.seed}")
schedule_rng = random.Random(f"schedules {args.seed}")
persistent_rng = random.Random(f"persistent {args.seed}")
tma_rng = random.Random(f"tma {args.seed}")
split_rng = random.Random(f"split-barriers {args.seed}")
store_rng = random.Random(f"tma-store {args.seed}")
cluster_rng = random.Random(f"cluster {args.seed}")
cols_rng = random.Random(f"cluster-cols {args.seed}")
order_rng = random.Random(f"block-orders {args.seed}")
dynamic_rng = random.Random(f"dynamic {args.seed}")

CHIPS = args.chips.split(",")
M_SIZES = [1, 7, 64, 100, 128, 200, 333, 1000, 4095, 4096]
N_SIZES = [1, 8, 64, 136, 255, 256, 1000, 4095]
K_SIZES = [1, 16, 32, 72, 195, 777, 4095, 4096]


def config():
    variant = rng.choice(["auto", "manual", "plain"])
    flags = ["--variant", variant, "--emit", "kernel"]
    for name, choices in [("--M", M_SIZES), ("--N", N_SIZES),
                          ("--K", K_SIZES),
                          ("--bm", [16, 32, 64, 128, 256]),
                          ("--bn", [8, 16, 32, 64, 128, 256]),
                          ("--bk", [8, 16, 32, 64]),
                          ("--threads", [32, 64, 128, 256, 512])]:
        flags += [name, str(rng.choice(choices))]
    if variant == "auto":
        flags += ["--num-stages", str(rng.choice([1, 2, 3, 4, 5]))]
    flags += draw_layout_flags(rng)
    if args.regions:
        flags += draw_region_flags(region_rng)
    if args.leads:
        flags += draw_lead_flags(lead_rng, flags)
    if args.tile_loops:
        flags += draw_tile_loop_flags(tile_loop_rng)
    if args.two_gemms and variant != "manual" and two_rng.random() < 0.5:
        flags.append("--two-gemms")
    if args.schedules and variant == "manual":
        order = [0, 1, 2]
        schedule_rng.shuffle(order)
        flags += ["--stage",
                  ",".join(str(schedule_rng.randint(0, 3)) for _ in range(3)),
                  "--order", ",".join(map(str, order))]
    if args.types:
        flags += ["--dtype", type_rng.choice(["f16", "bf16"]),
                  "--c-type", type_rng.choice(["f16", "bf16", "f32"])]
    chip = rng.choice(CHIPS)
    shapes = ""
    if args.dynamic and dynamic_rng.random() < 0.5:
        flags.append("--dynamic")
        step = 1
        if dynamic_rng.random() < 0.5:
            step = 8
            flags += ["--divisibility", "8"]
            for name in ("--M", "--N", "--K"):
                i = flags.index(name) + 1
                flags[i] = str(-(-int(flags[i]) // 8) * 8)
        drawn = "x".join(flags[flags.index(n) + 1] for n in ("--M", "--N", "--K"))
        other = "x".join(str(-(-dynamic_rng.choice(sizes) // step) * step)
                         for sizes in (M_SIZES, N_SIZES, K_SIZES))
        shapes = f"{drawn} {other}"
    return flags, chip, shapes


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True,
                          timeout=args.timeout, **kw)




def repeats_a_barrier(ptx):
    """Whether the same CTA barrier follows itself with nothing (no label
    either) in between: the second one does nothing."""
    previous = None
    for line in ptx.splitlines():
        line = line.strip()
        if not line or line.startswith("//"):
            continue
        if line.startswith(("bar.sync", "barrier.sync")) and line == previous:
            return True
        previous = line
    return False


compiled = rejected = harmless = dynamic = divisible = dynamic_tma = led = looped = 0
failures = []
# Kernels that compiled and assembled, per option they were given: an
# option's run that always ends in a diagnostic would otherwise go unseen.
options = []
if args.persistent:
    options.append("persistent-blocks")
if args.tma:
    options.append("tma=true")
    if args.tma_options:
        options += ["split-barriers=true", "tma-store=true"]
    if args.cluster:
        options += ["cluster=2", "cluster=4", "cluster-cols=2"]
if args.block_orders:
    options.append("block-group")
compiled_with = dict.fromkeys(options, 0)
manifest = []
for i in range(args.count):
    flags, chip, shapes = config()
    persistent = ""
    if args.persistent and persistent_rng.random() < 0.5:
        persistent = f"persistent-blocks={persistent_rng.choice([1, 2, 3, 7, 132])}"
    if args.tma and chip.startswith("sm_90") and tma_rng.random() < 0.5:
        persistent = (persistent + " tma=true").lstrip()
        if args.tma_options and split_rng.random() < 0.5:
            persistent += " split-barriers=true"
        if args.cluster and cluster_rng.random() < 0.5:
            persistent += f" cluster={cluster_rng.choice([2, 4])}"
    if args.tma_options and chip.startswith("sm_90") and \
            store_rng.random() < 0.5:
        persistent = (persistent + " tma-store=true").lstrip()
    if args.block_orders and order_rng.random() < 0.5:
        persistent = (persistent +
                      f" block-group={order_rng.choice([1, 2, 3])}").lstrip()
    # Patches of rows and columns need the grouped order (block-group > 1).
    if "cluster=4" in persistent.split() and \
            "block-group=1" not in persistent.split() and \
            cols_rng.random() < 0.5:
        persistent += " cluster-cols=2"
    pipeline = f"--tile-to-ptx=chip={chip} {persistent}".rstrip()
    what = f"{chip} {' '.join(flags)} {persistent}".rstrip()
    src = run([sys.executable, args.gen] + flags)
    if src.returncode != 0:  # a combination the generator refuses
        continue
    mlir = os.path.join(args.work, f"{i}.mlir")
    ptx = os.path.join(args.work, f"{i}.ptx")
    cubin = os.devnull
    if args.keep and chip.startswith("sm_90"):
        cubin = os.path.join(args.work, f"{i}.cubin")
    try:
        opt = run([args.tile_opt, "-", pipeline, "-o", mlir],
                  input=src.stdout)
        if opt.returncode != 0:
            if opt.returncode == 1 and "error:" in opt.stderr and \
                    "Stack dump" not in opt.stderr:
                rejected += 1
            else:
                failures.append(f"tile-opt exit {opt.returncode}: {what}\n"
                                f"{opt.stderr[-800:]}")
            continue
        steps = [[args.tile_translate, "--tile-emit-ptx", mlir, "-o", ptx],
                 [args.ptxas, f"-arch={chip}", ptx, "-o", cubin]]
        if args.keep:
            steps.append([args.tile_translate, "--tile-emit-launch", mlir,
                          "-o", os.path.join(args.work, f"{i}.launch")])
        for cmd in steps:
            step = run(cmd)
            if step.returncode != 0:
                failures.append(f"{os.path.basename(cmd[0])} exit "
                                f"{step.returncode}: {what}\n{step.stderr[-800:]}")
                break
            if cmd[0] != args.ptxas:
                continue
            with open(ptx) as f:
                text = f.read()
            # A local depot is an alloca that LLVM did not promote to
            # registers: a fragment kept in local memory (as one outside the
            # kernel's entry block was, before KernelOutlining hoisted it).
            if "__local_depot" in text:
                failures.append(f"PTX keeps data in local memory: {what}")
                break
            if repeats_a_barrier(text):
                failures.append(f"PTX has two barriers in a row: {what}")
                break
            # ptxas serializes wgmmas whose registers the code around them
            # touches, or that it cannot give registers of their own:
            # correct, but the lowering should never give it cause to,
            # unless it cannot cost time (ptxas_wgmma.py).
            verdict = ptxas_wgmma.classify(text, step.stderr)
            if verdict == "costly":
                notes = ptxas_wgmma.pipeline_lines(step.stderr)
                failures.append(f"ptxas serialized wgmma: {what}\n" +
                                "\n".join(notes[:4]))
                break
            harmless += verdict == "harmless"
        else:
            compiled += 1
            for option in persistent.split():
                key = option.split("=")[0] if option.startswith(
                    ("persistent-blocks=", "block-group=")) else option
                compiled_with[key] += 1
            dynamic += "--dynamic" in flags
            divisible += "--divisibility" in flags
            dynamic_tma += "--dynamic" in flags and \
                "cp.async.bulk.tensor" in text
            led += "--k-lead" in flags
            looped += "--tiles-per-block" in flags
            line = f"{i}\t{chip}\t{' '.join(flags)} {persistent}".rstrip()
            manifest.append(line + (f"\t{shapes}" if shapes else "") + "\n")
    except subprocess.TimeoutExpired as e:
        failures.append(f"timeout in {e.cmd[0]}: {what}")
if args.keep:
    with open(os.path.join(args.work, "manifest.tsv"), "w") as f:
        f.writelines(manifest)
for failure in failures:
    print("FAIL", failure)
for option, n in compiled_with.items():
    print(f"compiled with {option}: {n}")
if args.dynamic:
    print(f"compiled over dynamic sizes: {dynamic} ({divisible} with "
          "tile.divisibility = 8)")
    if args.tma:
        print(f"compiled over dynamic sizes with TMA copies: {dynamic_tma}")
if args.leads:
    print(f"compiled with --k-lead: {led}")
if args.tile_loops:
    print(f"compiled with --tiles-per-block: {looped}")
print(f"ptxas notes on single wgmmas waited at once (harmless): {harmless}")
print(f"{args.count} configurations: {compiled} compiled and assembled, "
      f"{rejected} rejected with a diagnostic, {len(failures)} failures")
sys.exit(1 if failures else 0)
