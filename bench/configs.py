"""The benchmark's configurations: one list shared by compile_all.sh (which
compiles them here) and run_h200.py (which runs them on the GPU machine).

Each config is a dict: name, variant (auto | manual | plain), M, N, K, bm, bn,
bk, threads, stages (the depth; 1 for plain), role (bench: --check --bench;
check: --check only; sanitize: small, for compute-sanitizer), chip (what
tile-to-ptx compiles for: sm_90a, the H200's wgmma path, or sm_90, which
keeps mma.sync), options (more tile-to-ptx options, "" for the defaults).
"""

SEED = dict(M=4096, N=4096, K=4096)
WGMMA_CHIP = "sm_90a"
MMA_SYNC_CHIP = "sm_90"


# tile-to-ptx options a configuration may add, and the suffix they give its
# name.
ROLLED = "unroll-steady-state=false"
TMA = "tma=true"
PERSISTENT = "persistent-blocks=132"  # one block per SM of an H200
SPLIT = "split-barriers=true"
CLUSTER = "cluster=2"
# Clusters of four blocks in a 2 x 2 patch of tiles: a row shares A's tiles,
# a column B's.
PATCH = "cluster=4 cluster-cols=2"
OPTION_SUFFIXES = {ROLLED: "rolled", TMA: "tma", PERSISTENT: "p132",
                   SPLIT: "split", CLUSTER: "c2", "cluster=4": "c4",
                   "cluster-cols=2": "cols2"}


def _cfg(variant, bm, bn, bk, threads, stages, role="bench", chip=WGMMA_CHIP,
         options="", **shape):
    size = dict(SEED, **shape)
    name = "%s_%dx%dx%d_%dt_s%d_%dx%dx%d" % (
        variant, bm, bn, bk, threads, stages, size["M"], size["N"], size["K"])
    if chip != WGMMA_CHIP:
        name += "_" + chip
    for option in options.split():
        name += "_" + OPTION_SUFFIXES[option]
    return dict(name=name, variant=variant, bm=bm, bn=bn, bk=bk,
                threads=threads, stages=stages, role=role, chip=chip,
                options=options, **size)


def configs():
    return wgmma_configs() + mma_sync_configs()


def mma_sync_configs():
    """Our kernels compiled for sm_90, where GEMMs use mma.sync: the seed's
    variants and stage sweep, the widest tile, the best configurations
    measured (128x256x64 with a rolled steady state; with TMA copies,
    128x256x64 and 256x128x64, the latter also with persistent blocks, and
    with split barriers too), the odd sizes, and the sanitizer's small
    kernels."""
    out = []
    mma = dict(chip=MMA_SYNC_CHIP)
    for s in range(1, 6):
        out.append(_cfg("auto", 128, 128, 32, 128, s, **mma))
    out.append(_cfg("manual", 128, 128, 32, 128, 2, **mma))
    out.append(_cfg("plain", 128, 128, 32, 128, 1, **mma))
    for s in (4, 5):
        out.append(_cfg("auto", 128, 256, 32, 256, s, **mma))
    out.append(_cfg("auto", 128, 256, 64, 256, 3, options=ROLLED, **mma))
    # Through the TMA, where the unrolled steady state is the faster one.
    out.append(_cfg("auto", 128, 256, 64, 256, 3, options=TMA, **mma))
    out.append(_cfg("auto", 256, 128, 64, 256, 3, options=TMA, **mma))
    out.append(_cfg("auto", 256, 128, 64, 256, 3, options=TMA + " " + PERSISTENT,
                    **mma))
    out.append(_cfg("auto", 256, 128, 64, 256, 3,
                    options=" ".join((TMA, SPLIT, PERSISTENT)), **mma))
    out.append(_cfg("auto", 128, 128, 32, 128, 3, role="check",
                    M=4000, N=4000, K=4000, **mma))
    out.append(_cfg("auto", 128, 128, 32, 128, 3, role="check",
                    M=1000, N=3000, K=777, **mma))
    for s in (2, 3, 4):
        out.append(_cfg("auto", 128, 128, 32, 128, s, role="sanitize",
                        M=256, N=256, K=256, **mma))
    return out


def wgmma_configs():
    """Everything issue 7 lists, compiled for sm_90a (wgmma)."""
    out = []
    # The seed's three variants at 4096^3, 128x128x32, 128 threads; the auto
    # kernel at num_stages 1..5.
    for s in range(1, 6):
        out.append(_cfg("auto", 128, 128, 32, 128, s))
    out.append(_cfg("manual", 128, 128, 32, 128, 2))  # stage=[0,0,1]
    out.append(_cfg("plain", 128, 128, 32, 128, 1))
    # The seed's 256x256x64 configs: 4 stages is over budget (262144 B >
    # 232448 B on sm_90) and must fail at compile time; 3 stages fits.
    out.append(_cfg("auto", 256, 256, 64, 128, 4))
    out.append(_cfg("auto", 256, 256, 64, 128, 3))
    # Tile shapes with 128 and 256 threads.
    for bm, bn, bk in [(128, 128, 32), (128, 256, 32), (128, 128, 64),
                       (256, 128, 32)]:
        for threads in (128, 256):
            if (bm, bn, bk, threads) != (128, 128, 32, 128):  # already above
                out.append(_cfg("auto", bm, bn, bk, threads, 3))
    # The widest tile at deeper pipelines too, and with BK = 64 (the best
    # configuration measured).
    for s in (4, 5):
        out.append(_cfg("auto", 128, 256, 32, 256, s))
    out.append(_cfg("auto", 128, 256, 64, 256, 3))
    # The seed's auto kernel with its copies through the TMA (opt-in), and
    # the widest tile at 4 stages, the best configuration measured with it.
    for s in (3, 4):
        out.append(_cfg("auto", 128, 128, 32, 128, s, options=TMA))
    out.append(_cfg("auto", 128, 256, 64, 256, 4, options=TMA))
    # The seed's auto kernel in clusters of two blocks that share B's tiles
    # (TMA multicast), at 1 and 3 stages, and at a size that is not a tile
    # multiple, where interior and edge blocks share tiles.
    for s in (1, 3):
        out.append(_cfg("auto", 128, 128, 32, 128, s,
                        options=TMA + " " + CLUSTER))
    out.append(_cfg("auto", 128, 128, 32, 128, 3, options=TMA + " " + CLUSTER,
                    M=4000, N=4000, K=4000))
    # The same in 2 x 2 patches, whose rows share A's tiles as well.
    for s in (1, 3):
        out.append(_cfg("auto", 128, 128, 32, 128, s,
                        options=TMA + " " + PATCH))
    out.append(_cfg("auto", 128, 128, 32, 128, 3, options=TMA + " " + PATCH,
                    M=4000, N=4000, K=4000))
    # Correctness beyond tile multiples, and trip counts below the depth.
    # The large ones are timed too: bounds checks (4000), and rows that are
    # not 16-byte aligned (4095: element-wise copies; 4096x4095x4096 is a
    # projection onto an odd vocabulary size).
    out.append(_cfg("auto", 128, 128, 32, 128, 3, M=4000, N=4000, K=4000))
    out.append(_cfg("auto", 128, 128, 32, 128, 3, M=4096, N=4095, K=4096))
    out.append(_cfg("auto", 128, 128, 32, 128, 3, M=4095, N=4095, K=4095))
    out.append(_cfg("auto", 128, 128, 32, 128, 3, role="check",
                    M=1000, N=3000, K=777))
    out.append(_cfg("auto", 128, 128, 32, 128, 4, role="check",
                    M=512, N=512, K=64))  # 2 k-tiles, depth 4
    out.append(_cfg("auto", 128, 128, 32, 128, 3, role="check",
                    M=256, N=384, K=32))  # 1 k-tile, depth 3
    # The seed's 256x256x64 at 128 threads, its accumulator in 128x128 parts
    # (tile-split-accumulators), at a size whose edge blocks have parts
    # outside C.
    out.append(_cfg("auto", 256, 256, 64, 128, 3, role="check",
                    M=1000, N=3000, K=777))
    # Small kernels for compute-sanitizer (racecheck, synccheck).
    small = dict(M=256, N=256, K=256)
    out.append(_cfg("plain", 128, 128, 32, 128, 1, role="sanitize", **small))
    out.append(_cfg("auto", 128, 128, 32, 128, 3, role="sanitize",
                    options=TMA + " " + CLUSTER, **small))
    # A 4x4 grid: 256^3 has too few blocks for patches of 2 x 2 in
    # clusters of four along x.
    out.append(_cfg("auto", 128, 128, 32, 128, 3, role="sanitize",
                    options=TMA + " " + PATCH, M=512, N=512, K=256))
    out.append(_cfg("manual", 128, 128, 32, 128, 2, role="sanitize", **small))
    # Four blocks of 2 x 2 parts each.
    out.append(_cfg("auto", 256, 256, 64, 128, 3, role="sanitize",
                    M=512, N=512, K=128))
    for s in (2, 3, 4, 5):
        out.append(_cfg("auto", 128, 128, 32, 128, s, role="sanitize",
                        **small))
    return out


def handwritten_configs():
    """The hand-written stand-in (test/Runtime/Inputs/gemm_wmma.cu): 128x128x32
    tiles, 256 threads, a cp.async pipeline of 2..4 stages. It exercises the
    harness before the compiler emits PTX, and is labelled as what it is."""
    out = []
    for s in (2, 3, 4):
        c = _cfg("handwritten", 128, 128, 32, 256, s)
        out.append(c)
    out.append(_cfg("handwritten", 128, 128, 32, 256, 3, role="check",
                    M=4000, N=4000, K=4000))
    out.append(_cfg("handwritten", 128, 128, 32, 256, 3, role="check",
                    M=1000, N=3000, K=777))
    for s in (2, 3, 4):
        out.append(_cfg("handwritten", 128, 128, 32, 256, s, role="sanitize",
                        M=256, N=256, K=256))
    return out


def triton_configs():
    """Triton on the same shapes and stages (threads / 32 warps)."""
    out = []
    for s in range(1, 6):
        out.append(_cfg("triton", 128, 128, 32, 128, s))
    for s in (3, 4):
        out.append(_cfg("triton", 256, 256, 64, 128, s))
    for bm, bn, bk in [(128, 128, 32), (128, 256, 32), (128, 128, 64),
                       (256, 128, 32)]:
        for threads in (128, 256):
            if (bm, bn, bk, threads) != (128, 128, 32, 128):
                out.append(_cfg("triton", bm, bn, bk, threads, 3))
    for s in (4, 5):
        out.append(_cfg("triton", 128, 256, 32, 256, s))
    return out


def triton_mma_sync_configs():
    """Triton with its Hopper warpgroup MMA turned off (DISABLE_MMA_V3=1), so
    that it emits mma.sync like our kernels: the seed's stage sweep and the
    widest tile. Triton's default rows use wgmma from 3 stages on."""
    out = []
    for s in range(1, 6):
        out.append(_cfg("triton-mma-sync", 128, 128, 32, 128, s))
    for s in (3, 4):
        out.append(_cfg("triton-mma-sync", 128, 256, 32, 256, s))
    return out
