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

// A use in an scf.if before an outer loop that runs the pipelined loop runs
// before the loop too: version 0, as in the loop's own block. It used to be
// refused as "outside the loop's block".
// CHECK-LABEL: func.func @use_in_if_before_outer_loop
// CHECK:       %[[V0:.*]] = memref.subview %{{.*}}[%{{.*}}, 0, 0] [1, 16, 16] [1, 1, 1]
// CHECK-NEXT:  %[[TILE:.*]] = memref.cast %[[V0]]
// CHECK:       scf.if
// CHECK-NEXT:    tile.clear %[[TILE]]
// CHECK:       scf.for
func.func @use_in_if_before_outer_loop(%A: memref<64x64xf16>, %C: memref<64x64xf16>, %c: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : memref<16x16xf16, #gpu.address_space<workgroup>>
    %C_l = tile.alloc_fragment : memref<16x16xf32, #gpu.address_space<private>>
    tile.clear %C_l : memref<16x16xf32, #gpu.address_space<private>>
    scf.if %c {
      tile.clear %A_s : memref<16x16xf16, #gpu.address_space<workgroup>>
    }
    scf.for %o = %c0 to %c2 step %c1 {
      tile.pipelined %c0 to %c4 step %c1 stage = [0, 1] as (%k) {
        tile.copy %A[%c0, %k] to %A_s : memref<64x64xf16> to memref<16x16xf16, #gpu.address_space<workgroup>>
        tile.gemm %A_s, %A_s, %C_l : memref<16x16xf16, #gpu.address_space<workgroup>>, memref<16x16xf16, #gpu.address_space<workgroup>>, memref<16x16xf32, #gpu.address_space<private>>
      }
    }
    tile.copy %C_l to %C : memref<16x16xf32, #gpu.address_space<private>> to memref<64x64xf16>
  }
  return
}
