# The Python package compiles a tile kernel down to what tile-run loads: the
# PTX and the launch description, without tile-opt or tile-translate.
# RUN: rm -rf %t && mkdir -p %t
# RUN: %python %tile_src_root/test/Execution/Inputs/gemm.py --emit kernel --M 256 --N 256 --K 256 --bm 128 --bn 128 --bk 32 --num-stages 3 > %t/seed.mlir
# RUN: %python %tile_src_root/test/Execution/Inputs/gemm.py --emit kernel --bm 256 --bn 256 --bk 64 --num-stages 4 > %t/big.mlir
# RUN: %python %tile_src_root/test/Execution/Inputs/gemm.py --emit kernel --M 512 --N 512 --K 64 --num-stages 3 > %t/patch.mlir
# RUN: tile-opt %t/seed.mlir --tile-to-ptx=chip=sm_90a -o %t/seed.out.mlir 2> /dev/null
# RUN: tile-translate --tile-emit-ptx %t/seed.out.mlir -o %t/seed.tool.ptx
# RUN: tile-translate --tile-emit-launch %t/seed.out.mlir -o %t/seed.tool.launch
# RUN: %tile_python %s %t 2> %t/stderr | FileCheck %s --implicit-check-not=stages=
# RUN: FileCheck %s --check-prefix=STDERR < %t/stderr

import sys
from pathlib import Path

import tile_mlir

out = Path(sys.argv[1])
seed = (out / "seed.mlir").read_text()

# The seed's auto kernel for sm_90a: wgmma, 3 stages of 128x128x32 tiles.
# The budget table stays off stdout (--implicit-check-not above).
kernel = tile_mlir.compile_to_ptx(seed, chip="sm_90a")
# CHECK: target: True, wgmma: True, cp.async: True
print(f"target: {'.target sm_90a' in kernel.ptx}, "
      f"wgmma: {'wgmma.mma_async' in kernel.ptx}, "
      f"cp.async: {'cp.async.cg.shared.global' in kernel.ptx}")
# CHECK-NEXT: gemm_kernel sm_90a (2, 2, 1) (128, 1, 1) 49152
info = kernel.info
print(info["kernel"], info["chip"], info["grid"], info["block"],
      info["shared_bytes"])
# CHECK-NEXT: A f16 (256, 256)
# CHECK-NEXT: B f16 (256, 256)
# CHECK-NEXT: C f16 (256, 256)
for arg in info["args"]:
    print(arg["name"], arg["dtype"], arg["shape"])
# CHECK-NEXT: transpose: (False, False), tensor maps: []
print(f"transpose: {info['gemm_transpose']}, tensor maps: {info['tensormaps']}")

# The files tile-run loads: byte for byte what tile-opt and tile-translate
# write.
ptx, launch = kernel.write(out / "files", "seed")
# CHECK-NEXT: seed.ptx seed.launch, as the tools write them: True True
print(f"{ptx.name} {launch.name}, as the tools write them: "
      f"{ptx.read_text() == (out / 'seed.tool.ptx').read_text()} "
      f"{launch.read_text() == (out / 'seed.tool.launch').read_text()}")

# Pipeline options as keywords: TMA copies in clusters of two.
clustered = tile_mlir.compile_to_ptx(seed, chip="sm_90a", tma=True, cluster=2)
clustered.write(out / "files", "clustered")
info = clustered.info
# CHECK-NEXT: cluster (2, 1, 1), multicast: True
print(f"cluster {info['cluster']}, multicast: "
      f"{'.multicast::cluster' in clustered.ptx}")
# CHECK-NEXT: A (128, 32) 64
# CHECK-NEXT: B (32, 64) 128
for tensormap in info["tensormaps"]:
    print(tensormap["arg"], tensormap["box"], tensormap["swizzle"])

# A keyword with `_` is the option with `-`: cluster_cols=2 puts the clusters
# of four blocks in 2 x 2 patches of a 4x4 grid, and their masks, computed
# from the block's rank, differ by copy.
patch = tile_mlir.compile_to_ptx((out / "patch.mlir").read_text(),
                                 chip="sm_90a", tma=True, cluster=4,
                                 cluster_cols=2)
# CHECK-NEXT: cluster (4, 1, 1), multicast: True
print(f"cluster {patch.info['cluster']}, multicast: "
      f"{'.multicast::cluster' in patch.ptx}")

# mma.sync on sm_90.
# CHECK-NEXT: mma.sync: True, wgmma: False
# print_budget=True prints the table as tile-opt does: on stderr, never on
# the host's stdout.
# STDERR: kernel @gemm (chip sm_90, limit 232448 B per block)
# STDERR-NEXT: stages=1 16384 B [OK]
sm90 = tile_mlir.compile_to_ptx(seed, chip="sm_90", print_budget=True)
print(f"mma.sync: {'mma.sync.aligned.m16n8k16' in sm90.ptx}, "
      f"wgmma: {'wgmma' in sm90.ptx}")

# The seed's over-budget configuration fails with the budget's message.
# CHECK-NEXT: error: kernel @gemm needs 262144 bytes of shared memory at num_stages = 4 but sm_90a allows 232448 per block; the largest num_stages that fits is 3
try:
    tile_mlir.compile_to_ptx((out / "big.mlir").read_text(), chip="sm_90a")
except tile_mlir.CompileError as e:
    print(e.diagnostics[e.diagnostics.index("error:"):].splitlines()[0])

# So do an unknown chip, an unknown option, and emitting from a module
# that has not been compiled.
# CHECK-NEXT: error: unknown chip 'sm_99' for --tile-to-ptx; known chips: sm_80, sm_86, sm_89, sm_90, sm_90a
# CHECK-NEXT: no-such-option: True
# CHECK-NEXT: error: no gpu.binary holding PTX; run tile-opt --tile-to-ptx=chip=sm_XX first
# CHECK-NEXT: error: no gpu.launch_func; run tile-opt --tile-to-ptx=chip=sm_XX first
for attempt in (lambda: tile_mlir.compile_to_ptx(seed, chip="sm_99"),
                lambda: tile_mlir.compile_to_ptx(seed, no_such_option=1),
                lambda: tile_mlir.emit_ptx(seed),
                lambda: tile_mlir.emit_launch(seed)):
    try:
        attempt()
        print("no error")
    except tile_mlir.CompileError as e:
        text = e.diagnostics
        if "no-such-option" in text:
            print("no-such-option: True")
        else:
            print(text[text.index("error:"):].splitlines()[0])
