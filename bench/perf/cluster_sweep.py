#!/usr/bin/env python3
"""Compiles seeded random GEMMs that can run in thread-block clusters
(`tma=true cluster=2|4`) for a correctness sweep on the GPU: grids that are
whole multiples of the cluster size, with ragged edges (M and N a little
short of the grid), K that is rarely a multiple of BK, 1-4 stages, both
chips, and A or B stored transposed. Kernels whose rows are not 16-byte
aligned keep cp.async (a remark says so) and are checked all the same.

  bench/perf/cluster_sweep.py --seed 2026 --count 28 OUT_DIR

writes OUT_DIR/<name>.ptx and .launch through compile_variant.sh (tile-opt
and tile-translate from build/bin); on the GPU machine, run each with
`tile-run --ptx X.ptx --check`."""

import argparse
import os
import random
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
parser.add_argument("out")
parser.add_argument("--seed", type=int, default=2026)
parser.add_argument("--count", type=int, default=28)
parser.add_argument("--bin", default=os.path.join(ROOT, "build", "bin"))
args = parser.parse_args()

rng = random.Random(args.seed)
made = 0
while made < args.count:
    bm, bn, bk = rng.choice([64, 128]), rng.choice([64, 128]), rng.choice([32, 64])
    cluster = rng.choice([2, 2, 4])
    gx, gy = rng.choice([2, 4, 6, 8]), rng.choice([2, 4, 8])
    if gx % cluster or gy % cluster:
        continue
    n = gx * bn - rng.choice([0, 8, 24, 40])
    m = gy * bm - rng.choice([0, 1, 17, 56])
    k = rng.choice([72, 96, 256, 776, 1000])
    stages = rng.choice([1, 2, 3, 4])
    chip = rng.choice(["sm_90", "sm_90a"])
    layout = rng.choice(["", "--transpose-a", "--transpose-b"])
    threads = 128 if bm * bn <= 128 * 64 or chip == "sm_90a" else \
        rng.choice([128, 256])
    name = "k%d_%dx%dx%d_%dx%dx%d_%dt_s%d_%s_c%d%s" % (
        made, m, n, k, bm, bn, bk, threads, stages, chip, cluster,
        layout.replace("--", "_").replace("-", "_"))
    env = dict(os.environ, M=str(m), N=str(n), K=str(k), BM=str(bm),
               BN=str(bn), BK=str(bk), T=str(threads), CHIP=chip,
               GEN_ARGS=layout)
    options = "--tile-to-ptx=chip=%s tma=true cluster=%d" % (chip, cluster)
    result = subprocess.run(
        [os.path.join(ROOT, "bench", "perf", "compile_variant.sh"), args.bin,
         args.out, name, str(stages), options],
        env=env, capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit("%s failed:\n%s" % (name, result.stderr[-2000:]))
    for ext in (".mlir", ".out.mlir", ".cubin"):
        path = os.path.join(args.out, name + ext)
        if os.path.exists(path):
            os.remove(path)
    with open(os.path.join(args.out, name + ".ptx")) as f:
        shared = "multicast::cluster" in f.read()
    print("%-60s %s" % (name, "clusters" if shared else "no clusters"))
    made += 1
