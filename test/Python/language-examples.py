# The seed's three kernels written in Python (examples/pipelined_gemm.py,
# tile_mlir.language) compile to the same PTX and launch description as
# examples/matmul_{auto,manual,plain}.mlir, for both GEMM lowerings; the
# over-budget configuration fails with the budget error, located at the
# Python line of its kernel.
# RUN: %tile_python %s %tile_src_root 2>&1 | FileCheck %s
#
# The script itself writes the files tile-run loads, and --print-mlir shows
# the kernel.
# RUN: rm -rf %t && %tile_python %tile_src_root/examples/pipelined_gemm.py --variant manual --m 256 --n 200 --k 96 \
# RUN:   --print-mlir --out %t 2>%t.stderr | FileCheck %s --check-prefix=OUT
# RUN: FileCheck %s --check-prefix=LAUNCH < %t/manual.launch
# RUN: FileCheck %s --check-prefix=TABLE < %t.stderr
# OUT: func.func @matmul_manual(%A: memref<256x96xf16> {tile.name = "A"}
# OUT: tile.pipelined %c0 to %c3 step %c1 stage = [0, 0, 1] order = [0, 1, 2] as (%k) {
# OUT: wrote {{.*}}manual.ptx
# OUT-NEXT: wrote {{.*}}manual.launch
# LAUNCH: kernel matmul_manual_kernel
# LAUNCH: grid 2 2 1
# LAUNCH: shared_bytes 32768
# TABLE: stages=2       32768 B  [OK]

import sys
from pathlib import Path

import tile_mlir

root = Path(sys.argv[1])
sys.path.insert(0, str(root / "examples"))
import pipelined_gemm  # noqa: E402

# CHECK: auto sm_90a: same PTX True, same launch True
# CHECK-NEXT: auto sm_90: same PTX True, same launch True
# CHECK-NEXT: manual sm_90a: same PTX True, same launch True
# CHECK-NEXT: plain sm_90a: same PTX True, same launch True
for variant, chip in (("auto", "sm_90a"), ("auto", "sm_90"),
                      ("manual", "sm_90a"), ("plain", "sm_90a")):
    python = pipelined_gemm.matmul(4096, 4096, 4096, 128, 128, 32, variant)
    mlir = (root / "examples" / f"matmul_{variant}.mlir").read_text()
    ours = python.compile_to_ptx(chip=chip)
    theirs = tile_mlir.compile_to_ptx(mlir, chip=chip)
    # grid_expr is informational: the .mlir computes the grid with
    # arith.ceildivui, which the plain kernel's description still shows,
    # where T.ceildiv of two Python ints is a Python int.
    def launch(kernel):
        return [line for line in kernel.launch.splitlines()
                if not line.startswith("grid_expr")]
    print(f"{variant} {chip}: same PTX {ours.ptx == theirs.ptx}, "
          f"same launch {launch(ours) == launch(theirs)}")

# The seed's over-budget configuration: 256x256x64 tiles at 4 stages. The
# error names the Python line of the kernel (`with T.Kernel(...)`), after
# the budget table.
# CHECK: kernel line [[LINE:[0-9]+]]
# CHECK: stages=4      262144 B  [OVER]
# CHECK: pipelined_gemm.py:[[LINE]]:14: error: kernel @matmul_auto needs 262144 bytes of shared memory at num_stages = 4 but sm_90 allows 232448 per block; the largest num_stages that fits is 3
# CHECK: exit status 1
source = (root / "examples" / "pipelined_gemm.py").read_text().splitlines()
print("kernel line", next(n for n, line in enumerate(source, 1)
                          if "with T.Kernel(" in line), flush=True)
status = pipelined_gemm.main(["--block-m", "256", "--block-n", "256",
                              "--block-k", "64", "--stages", "4",
                              "--chip", "sm_90"])
print("exit status", status)
