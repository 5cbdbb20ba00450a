// RUN: tile-opt --tile-pipeline-planning --tile-software-pipeline %tile_src_root/examples/matmul_auto.mlir \
// RUN:   | FileCheck %s --check-prefix=D3 --implicit-check-not=arith.remui
// RUN: sed -e 's/num_stages = 3 as/num_stages = 4 as/' %tile_src_root/examples/matmul_auto.mlir \
// RUN:   | tile-opt --tile-pipeline-planning --tile-software-pipeline \
// RUN:   | FileCheck %s --check-prefix=D4 --implicit-check-not=arith.remui

// The steady state is unrolled by the number of versions V, so every
// version index is a constant: no remui inside the unrolled loop, and the
// views are the prologue's (CSE'd). The remaining (N - S) mod V steps run in
// a rolled loop with the computed version, before the unrolled loop.
// --implicit-check-not=arith.remui rejects a remui anywhere but where a
// positive check below matches one (only in D4's rolled loop), and each
// copy and gemm names the views of both A and B, so neither operand's
// version can be computed in the unrolled loop. A view is followed by " :"
// or "," so that %subview cannot match a prefix of %subview_0.

// Depth 3, 128 iterations: 126 steady steps, 42 unrolled trips of 3, no
// rolled loop (so no remui at all). Step t copies iteration t into version
// t mod 3 and computes iteration t - 2 from version (t - 2) mod 3; the loop
// starts at t = 2.
// D3:      %[[A0:.*]] = memref.subview %[[AS:.*]][%c0, 0, 0] [1, 128, 32]
// D3:      %[[B0:.*]] = memref.subview %[[BS:.*]][%c0, 0, 0] [1, 32, 128]
// D3:      %[[A1:.*]] = memref.subview %[[AS]][%c1, 0, 0] [1, 128, 32]
// D3:      %[[B1:.*]] = memref.subview %[[BS]][%c1, 0, 0] [1, 32, 128]
// D3:      scf.for %[[K:.*]] = %c2 to %c128 step %c3 {
// D3-NEXT:   tile.wait_group 1
// D3-NEXT:   tile.barrier
// D3:        %[[A2:.*]] = memref.subview %[[AS]][%c2, 0, 0] [1, 128, 32]
// D3-NEXT:   tile.copy_async %{{.*}} to %[[A2]] :
// D3-NEXT:   %[[B2:.*]] = memref.subview %[[BS]][%c2, 0, 0] [1, 32, 128]
// D3-NEXT:   tile.copy_async %{{.*}} to %[[B2]] :
// D3-NEXT:   tile.commit_group
// D3-NEXT:   tile.gemm %[[A0]], %[[B0]],
// D3-NEXT:   tile.wait_group 1
// D3-NEXT:   tile.barrier
// D3-NEXT:   %[[K1:.*]] = arith.addi %[[K]], %c1
// D3:        tile.copy_async %{{.*}} to %[[A0]] :
// D3-NEXT:   tile.copy_async %{{.*}} to %[[B0]] :
// D3-NEXT:   tile.commit_group
// D3-NEXT:   tile.gemm %[[A1]], %[[B1]],
// D3-NEXT:   tile.wait_group 1
// D3-NEXT:   tile.barrier
// D3-NEXT:   %[[K2:.*]] = arith.addi %[[K]], %c2
// D3:        tile.copy_async %{{.*}} to %[[A1]] :
// D3-NEXT:   tile.copy_async %{{.*}} to %[[B1]] :
// D3-NEXT:   tile.commit_group
// D3-NEXT:   tile.gemm %[[A2]], %[[B2]],
// D3-NEXT: } {tile.steady_state = 3 : i64}
// D3-NOT:  scf.for
// D3:      tile.wait_group 1
// D3-NEXT: tile.barrier
// D3-NEXT: tile.gemm %[[A0]], %[[B0]],
// D3:      tile.wait_group 0
// D3-NEXT: tile.barrier
// D3-NEXT: tile.gemm %[[A1]], %[[B1]],

// Depth 4: 125 steady steps: first one rolled step (t = 3) with the
// version computed (t mod 4 for its copies, (t - 3) mod 4 for its gemm: the
// only two remui), then 31 unrolled trips of 4 (t = 4..127), so that the
// unrolled loop is the last steady-state loop; the epilogue's last gemm
// (iteration 127) reads version 3. The prologue made versions 0 to 2; the
// unrolled loop makes version 3's views with the constant %c3.
// D4:      %[[A0:.*]] = memref.subview %[[AS:.*]][%c0, 0, 0] [1, 128, 32]
// D4:      %[[B0:.*]] = memref.subview %[[BS:.*]][%c0, 0, 0] [1, 32, 128]
// D4:      %[[A1:.*]] = memref.subview %[[AS]][%c1, 0, 0] [1, 128, 32]
// D4:      %[[B1:.*]] = memref.subview %[[BS]][%c1, 0, 0] [1, 32, 128]
// D4:      %[[A2:.*]] = memref.subview %[[AS]][%c2, 0, 0] [1, 128, 32]
// D4:      %[[B2:.*]] = memref.subview %[[BS]][%c2, 0, 0] [1, 32, 128]
// D4:      scf.for %[[R:.*]] = %c3 to %c4 step %c1 {
// D4:        arith.remui %[[R]], %c4
// D4:        %[[T:.*]] = arith.subi %[[R]], %c3
// D4-NEXT:   arith.remui %[[T]], %c4
// D4:        tile.gemm
// D4-NEXT: } {tile.steady_state = 4 : i64}
// D4-NEXT: scf.for %{{.*}} = %c4 to %c128 step %c4 {
// D4:        tile.copy_async %{{.*}} to %[[A0]] :
// D4-NEXT:   tile.copy_async %{{.*}} to %[[B0]] :
// D4-NEXT:   tile.commit_group
// D4-NEXT:   tile.gemm %[[A1]], %[[B1]],
// D4:        tile.copy_async %{{.*}} to %[[A1]] :
// D4-NEXT:   tile.copy_async %{{.*}} to %[[B1]] :
// D4-NEXT:   tile.commit_group
// D4-NEXT:   tile.gemm %[[A2]], %[[B2]],
// D4:        tile.copy_async %{{.*}} to %[[A2]] :
// D4-NEXT:   tile.copy_async %{{.*}} to %[[B2]] :
// D4-NEXT:   tile.commit_group
// D4-NEXT:   %[[A3:.*]] = memref.subview %[[AS]][%c3, 0, 0] [1, 128, 32]
// D4-NEXT:   %[[B3:.*]] = memref.subview %[[BS]][%c3, 0, 0] [1, 32, 128]
// D4-NEXT:   tile.gemm %[[A3]], %[[B3]],
// D4:        tile.copy_async %{{.*}} to %[[A3]] :
// D4-NEXT:   tile.copy_async %{{.*}} to %[[B3]] :
// D4-NEXT:   tile.commit_group
// D4-NEXT:   tile.gemm %[[A0]], %[[B0]],
// D4-NEXT: } {tile.steady_state = 4 : i64}
// D4:      %[[E3:.*]] = memref.subview %{{.*}}[%c3, 0, 0] [1, 128, 32]
// D4:      tile.gemm %[[E3]],
// D4-NEXT: tile.wait_group 0
