// RUN: tile-opt --tile-pipeline-planning --tile-software-pipeline %tile_src_root/examples/matmul_auto.mlir \
// RUN:   | FileCheck %s --check-prefix=D3
// RUN: sed -e 's/num_stages = 3 as/num_stages = 4 as/' %tile_src_root/examples/matmul_auto.mlir \
// RUN:   | tile-opt --tile-pipeline-planning --tile-software-pipeline | FileCheck %s --check-prefix=D4

// The steady state is unrolled by the number of versions V, so every
// version index is a constant: no remui inside the unrolled loop, and the
// views are the prologue's (CSE'd). The remaining (N - S) mod V steps run in
// a rolled loop with the computed version, before the unrolled loop.

// Depth 3, 128 iterations: 126 steady steps, 42 unrolled trips of 3, no
// rolled loop. Step t copies iteration t into version t mod 3 and computes
// iteration t - 2 from version (t - 2) mod 3; the loop starts at t = 2.
// D3:      %[[A0:.*]] = memref.subview %[[AS:.*]][%c0, 0, 0] [1, 128, 32]
// D3:      %[[A1:.*]] = memref.subview %[[AS]][%c1, 0, 0] [1, 128, 32]
// D3:      scf.for %[[K:.*]] = %c2 to %c128 step %c3 {
// D3-NOT:  arith.remui
// D3:        tile.wait_group 1
// D3-NEXT:   tile.barrier
// D3:        %[[A2:.*]] = memref.subview %[[AS]][%c2, 0, 0] [1, 128, 32]
// D3-NEXT:   tile.copy_async %{{.*}} to %[[A2]]
// D3:        tile.commit_group
// D3-NEXT:   tile.gemm %[[A0]],
// D3-NEXT:   tile.wait_group 1
// D3-NEXT:   tile.barrier
// D3-NEXT:   %[[K1:.*]] = arith.addi %[[K]], %c1
// D3:        tile.copy_async %{{.*}} to %[[A0]]
// D3:        tile.commit_group
// D3-NEXT:   tile.gemm %[[A1]],
// D3-NEXT:   tile.wait_group 1
// D3-NEXT:   tile.barrier
// D3-NEXT:   %[[K2:.*]] = arith.addi %[[K]], %c2
// D3:        tile.copy_async %{{.*}} to %[[A1]]
// D3:        tile.commit_group
// D3-NEXT:   tile.gemm %[[A2]],
// D3-NEXT: }
// D3-NOT:  scf.for
// D3:      tile.wait_group 1
// D3-NEXT: tile.barrier
// D3-NEXT: tile.gemm %[[A0]],
// D3:      tile.wait_group 0
// D3-NEXT: tile.barrier
// D3-NEXT: tile.gemm %[[A1]],

// Depth 4: 125 steady steps: first one rolled step (t = 3) with the
// version computed, then 31 unrolled trips of 4 (t = 4..127), so that the
// unrolled loop is the last steady-state loop; the epilogue's last gemm
// (iteration 127) reads version 3.
// D4:      scf.for %[[R:.*]] = %c3 to %c4 step %c1 {
// D4:        arith.remui %[[R]], %c4
// D4:        tile.gemm
// D4-NEXT: } {tile.steady_state}
// D4-NEXT: scf.for %{{.*}} = %c4 to %c128 step %c4 {
// D4-NOT:  arith.remui
// D4-COUNT-4: tile.gemm
// D4-NEXT: } {tile.steady_state}
// D4:      %[[A3:.*]] = memref.subview %{{.*}}[%c3, 0, 0] [1, 128, 32]
// D4:      tile.gemm %[[A3]],
// D4-NEXT: tile.wait_group 0
