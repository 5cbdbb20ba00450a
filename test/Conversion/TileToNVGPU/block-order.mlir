// RUN: tile-opt %s --split-input-file --tile-lower-to-nvgpu=chip=sm_90 | FileCheck %s
// RUN: tile-opt %s --split-input-file --tile-lower-to-nvgpu="chip=sm_90 block-group=1" | FileCheck %s --check-prefix=ROWMAJOR

// A two-dimensional grid runs in grouped order (block-group, default 8):
// id = by * gx + bx; the group of 8 rows is id / (8 * gx); inside it, rows
// vary fastest (y = first + (id mod 8gx) mod size, x = (id mod 8gx) / size,
// size = min(gy - first, 8) for a short last group), and the walk is
// mirrored (x' = gx - 1 - x, y' = gy - 1 - y) so that hardware block 0 runs
// the far corner and the last row and column, a ragged edge, run in the
// first wave; the subtractions cannot wrap, and say so (without the flags,
// LLVM lost the index's range and ptxas gave a clustered kernel 27 more
// registers). The body sees the remapped indices.

// CHECK-LABEL: gpu.func @grouped_kernel
// CHECK-DAG: %[[BX:.*]] = gpu.block_id x
// CHECK-DAG: %[[BY:.*]] = gpu.block_id y
// CHECK-DAG: %[[GX:.*]] = gpu.grid_dim x
// CHECK-DAG: %[[GY:.*]] = gpu.grid_dim y
// CHECK: %[[ROWID:.*]] = arith.muli %[[BY]], %[[GX]]
// CHECK: %[[ID:.*]] = arith.addi %[[ROWID]], %[[BX]]
// CHECK: %[[G:.*]] = arith.constant 8 : index
// CHECK: %[[PER:.*]] = arith.muli %[[GX]], %[[G]]
// CHECK: %[[GROUP:.*]] = arith.divui %[[ID]], %[[PER]]
// CHECK: %[[FIRST:.*]] = arith.muli %[[GROUP]], %[[G]]
// CHECK: %[[LEFT:.*]] = arith.subi %[[GY]], %[[FIRST]]
// CHECK: %[[SIZE:.*]] = arith.minui %[[LEFT]], %[[G]]
// CHECK: %[[IN:.*]] = arith.remui %[[ID]], %[[PER]]
// CHECK: %[[YOFF:.*]] = arith.remui %[[IN]], %[[SIZE]]
// CHECK: %[[Y:.*]] = arith.addi %[[FIRST]], %[[YOFF]]
// CHECK: %[[X:.*]] = arith.divui %[[IN]], %[[SIZE]]
// CHECK: %[[ONE:.*]] = arith.constant 1 : index
// CHECK: %[[LASTX:.*]] = arith.subi %[[GX]], %[[ONE]] overflow<nsw, nuw>
// CHECK: %[[MX:.*]] = arith.subi %[[LASTX]], %[[X]] overflow<nsw, nuw>
// CHECK: %[[LASTY:.*]] = arith.subi %[[GY]], %[[ONE]] overflow<nsw, nuw>
// CHECK: %[[MY:.*]] = arith.subi %[[LASTY]], %[[Y]] overflow<nsw, nuw>
// CHECK: memref.store %{{.*}}, %{{.*}}[%[[MY]], %[[MX]]] : memref<20x3xi32>

// ROWMAJOR-LABEL: gpu.func @grouped_kernel
// ROWMAJOR-NOT: gpu.grid_dim
// ROWMAJOR-DAG: %[[BX:.*]] = gpu.block_id x
// ROWMAJOR-DAG: %[[BY:.*]] = gpu.block_id y
// ROWMAJOR-NOT: gpu.grid_dim
// ROWMAJOR: memref.store %{{.*}}, %{{.*}}[%[[BY]], %[[BX]]] : memref<20x3xi32>
func.func @grouped(%out: memref<20x3xi32>) {
  %c3 = arith.constant 3 : index
  %c20 = arith.constant 20 : index
  %one = arith.constant 1 : i32
  tile.kernel grid(%c3, %c20) threads(32) as (%bx, %by) {
    memref.store %one, %out[%by, %bx] : memref<20x3xi32>
  }
  return
}

// -----

// A one-dimensional grid keeps the hardware order.

// CHECK-LABEL: gpu.func @linear_kernel
// CHECK-NOT: gpu.grid_dim
// CHECK: %[[BX:.*]] = gpu.block_id x
// CHECK-NOT: gpu.grid_dim
// CHECK: memref.store %{{.*}}, %{{.*}}[%[[BX]]] : memref<4xi32>
func.func @linear(%out: memref<4xi32>) {
  %c4 = arith.constant 4 : index
  %one = arith.constant 1 : i32
  tile.kernel grid(%c4) threads(32) as (%bx) {
    memref.store %one, %out[%bx] : memref<4xi32>
  }
  return
}
