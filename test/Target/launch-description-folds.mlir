// RUN: tile-opt %s --tile-lower-to-nvgpu=chip=sm_90 | tile-translate --tile-emit-launch | FileCheck %s

// A grid computed from constants through ops that fold to one of their
// operands (x * 1, 0 + x) is a constant grid too.

// CHECK:      kernel grid_folds_kernel
// CHECK-NEXT: chip sm_90
// CHECK-NEXT: grid 8 1 1
// CHECK:      grid_expr (ceildiv(1000,128)*1) (0+1) 1
func.func @grid_folds(%A: memref<500x300xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  %c1000 = arith.constant 1000 : index
  %gx = arith.ceildivui %c1000, %c128 : index
  %gx1 = arith.muli %gx, %c1 : index
  %gy = arith.addi %c0, %c1 : index
  tile.kernel grid(%gx1, %gy) threads(128) as (%bx, %by) {
    %a = tile.alloc_shared : memref<128x32xf16, #gpu.address_space<workgroup>>
    tile.clear %a : memref<128x32xf16, #gpu.address_space<workgroup>>
  }
  return
}
