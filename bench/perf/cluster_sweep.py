#!/usr/bin/env python3
"""Compiles seeded random GEMMs that can run in thread-block clusters
(`tma=true cluster=2|4`, and `cluster=4|8 cluster-cols=2`: 2 x 2 and 4 x 2
patches) for a correctness sweep on the GPU: grids whose x size is a whole
multiple of the cluster size and whose y size a multiple of its rows,
with ragged edges (M and N a little
short of the grid), K that is rarely a multiple of BK, 1-4 stages, both
chips, and A or B stored transposed. Kernels whose rows are not 16-byte
aligned keep cp.async (a remark says so) and are checked all the same.

  bench/perf/cluster_sweep.py --seed 2026 --count 28 OUT_DIR

With --wide, the kernels are wgmma kernels with two warpgroups (sm_90a, 256
threads, 128x128 or 128x256 tiles), whose TMA issue code, barriers and
fences differ (TmaCopies.cpp, wideWgmma): 2-5 stages, in clusters of 2 or
not, and half of those not in clusters persistent (3 or 7 blocks), with TMA
stores or split barriers drawn at random.

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
parser.add_argument("--wide", action="store_true")
args = parser.parse_args()


def draw_wide():
    """Tiles, cluster size, stages, chip, threads and extra tile-to-ptx
    options of a --wide kernel."""
    bm, bn, bk = 128, rng.choice([128, 256]), rng.choice([32, 64])
    cluster = rng.choice([1, 2])
    extra = []
    if cluster == 1 and rng.random() < 0.5:
        extra.append("persistent-blocks=%d" % rng.choice([3, 7]))
        if rng.random() < 0.5:
            extra.append("tma-store=true")
    if cluster == 1 and rng.random() < 0.3:
        extra.append("split-barriers=true")
    return (bm, bn, bk, cluster, rng.choice([2, 3, 4, 5]), "sm_90a", 256,
            extra)

rng = random.Random(args.seed)
cols_rng = random.Random("cluster-cols %d" % args.seed)
made = 0
while made < args.count:
    if args.wide:
        bm, bn, bk, cluster, stages, chip, threads, extra = draw_wide()
    else:
        bm, bn, bk = (rng.choice([64, 128]), rng.choice([64, 128]),
                      rng.choice([32, 64]))
        cluster = rng.choice([2, 2, 4])
    # Patches from a stream of their own: 40% of the kernels.
    cols = 1
    if not args.wide and cols_rng.random() < 0.4:
        cluster, cols = cols_rng.choice([(4, 2), (4, 2), (8, 2)])
    gx, gy = rng.choice([2, 4, 6, 8]), rng.choice([2, 4, 8])
    if gx % cluster or gy % (cluster // cols):
        continue
    n = gx * bn - rng.choice([0, 8, 24, 40])
    m = gy * bm - rng.choice([0, 1, 17, 56])
    k = rng.choice([72, 96, 256, 776, 1000])
    if args.wide:
        layout = rng.choice(["", "--transpose-a", "--transpose-b"])
    else:
        stages = rng.choice([1, 2, 3, 4])
        chip = rng.choice(["sm_90", "sm_90a"])
        layout = rng.choice(["", "--transpose-a", "--transpose-b"])
        threads = 128 if bm * bn <= 128 * 64 or chip == "sm_90a" else \
            rng.choice([128, 256])
        extra = []
    name = "k%d_%dx%dx%d_%dx%dx%d_%dt_s%d_%s_c%d%s%s%s" % (
        made, m, n, k, bm, bn, bk, threads, stages, chip, cluster,
        "_cols%d" % cols if cols > 1 else "",
        layout.replace("--", "_").replace("-", "_"),
        "".join("_" + o.split("=")[0].replace("-", "") + o.split("=")[1]
                for o in extra))
    env = dict(os.environ, M=str(m), N=str(n), K=str(k), BM=str(bm),
               BN=str(bn), BK=str(bk), T=str(threads), CHIP=chip,
               GEN_ARGS=layout)
    options = " ".join(["--tile-to-ptx=chip=%s tma=true cluster=%d" %
                        (chip, cluster)] +
                       (["cluster-cols=%d" % cols] if cols > 1 else []) +
                       extra)
    result = subprocess.run(
        [os.path.join(ROOT, "bench", "perf", "compile_variant.sh"), args.bin,
         args.out, name, str(stages), options],
        env=env, capture_output=True, text=True)
    if result.returncode != 0 and "error: kernel @gemm needs" in result.stderr:
        # Over the shared-memory budget: drawn again.
        continue
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
