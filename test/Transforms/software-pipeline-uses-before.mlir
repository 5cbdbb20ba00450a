// RUN: tile-opt --tile-pipeline-planning --tile-software-pipeline %s | FileCheck %s

// Uses of a multi-buffered tile before its loop see version 0, which starts
// where the versioned buffer does: they get it with the tile's own type
// (offset 0), so a subview made of it there still verifies. Before, they got
// the version's subview type (a dynamic offset), and the subview below no
// longer matched its result type.

// CHECK-LABEL: func.func @subview_before_loop
// CHECK:      %[[BUF:.*]] = tile.alloc_shared : memref<3x16x8xf16, #gpu.address_space<workgroup>>
// CHECK:      %[[V0:.*]] = memref.subview %[[BUF]][%{{.*}}, 0, 0] [1, 16, 8] [1, 1, 1]
// CHECK-NEXT: %[[TILE:.*]] = memref.cast %[[V0]] : memref<16x8xf16, strided<[8, 1], offset: ?>, #gpu.address_space<workgroup>> to memref<16x8xf16, #gpu.address_space<workgroup>>
// CHECK:      tile.clear %[[TILE]] : memref<16x8xf16, #gpu.address_space<workgroup>>
// CHECK:      %[[PART:.*]] = memref.subview %[[TILE]][0, 0] [8, 8] [1, 1] : memref<16x8xf16, #gpu.address_space<workgroup>> to memref<8x8xf16, strided<[8, 1]>, #gpu.address_space<workgroup>>
// CHECK:      tile.clear %[[PART]]
// CHECK:      scf.for
func.func @subview_before_loop(%A: memref<64x64xf16>, %B: memref<64x64xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %c8 = arith.constant 8 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : memref<16x8xf16, #gpu.address_space<workgroup>>
    %B_s = tile.alloc_shared : memref<8x8xf16, #gpu.address_space<workgroup>>
    %C_l = tile.alloc_fragment : memref<16x8xf32, #gpu.address_space<private>>
    tile.clear %A_s : memref<16x8xf16, #gpu.address_space<workgroup>>
    %v = memref.subview %A_s[0, 0] [8, 8] [1, 1] : memref<16x8xf16, #gpu.address_space<workgroup>> to memref<8x8xf16, strided<[8, 1]>, #gpu.address_space<workgroup>>
    tile.clear %v : memref<8x8xf16, strided<[8, 1]>, #gpu.address_space<workgroup>>
    tile.pipelined %c0 to %c5 step %c1 num_stages = 3 as (%k) {
      %ko = arith.muli %k, %c8 : index
      tile.copy %A[%c0, %ko] to %A_s : memref<64x64xf16> to memref<16x8xf16, #gpu.address_space<workgroup>>
      tile.copy %B[%ko, %c0] to %B_s : memref<64x64xf16> to memref<8x8xf16, #gpu.address_space<workgroup>>
      tile.gemm %A_s, %B_s, %C_l : memref<16x8xf16, #gpu.address_space<workgroup>>, memref<8x8xf16, #gpu.address_space<workgroup>>, memref<16x8xf32, #gpu.address_space<private>>
    }
  }
  return
}
