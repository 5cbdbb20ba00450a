// RUN: tile-opt %s --tile-specialize-interior-blocks -split-input-file | FileCheck %s
// RUN: tile-opt %s --tile-specialize-interior-blocks --tile-lower-to-nvgpu=chip=sm_90 -split-input-file \
// RUN:   | FileCheck %s --check-prefix=LOWER --strict-whitespace

// A 100x70 output in 32x32 tiles: a 3x4 grid whose last column (bx = 2) and
// last row (by = 3) leave C. The other blocks get a version on min(bx, 1)
// and min(by, 2); the tiles stay shared by both versions. The branch says
// that its two sides are versions of one body (tile.block_versions), which
// clusters of blocks rely on.

!A = memref<100x64xf16>
!B = memref<64x70xf16>
!C = memref<100x70xf16>
!As = memref<32x16xf16, #gpu.address_space<workgroup>>
!Bs = memref<16x32xf16, #gpu.address_space<workgroup>>
!Cl = memref<32x32xf32, #gpu.address_space<private>>

// CHECK-LABEL: func.func @both_dims
// CHECK:       tile.kernel grid(%{{.*}}, %{{.*}}) threads(64) as (%[[BX:.*]], %[[BY:.*]]) {
// CHECK-NEXT:    %[[AS:.*]] = tile.alloc_shared : memref<32x16xf16
// CHECK-NEXT:    %[[BS:.*]] = tile.alloc_shared : memref<16x32xf16
// CHECK-NEXT:    %[[CL:.*]] = tile.alloc_fragment
// CHECK-NEXT:    %[[C2:.*]] = arith.constant 2 : index
// CHECK-NEXT:    %[[INX:.*]] = arith.cmpi ult, %[[BX]], %[[C2]] : index
// CHECK-NEXT:    %[[C3:.*]] = arith.constant 3 : index
// CHECK-NEXT:    %[[INY:.*]] = arith.cmpi ult, %[[BY]], %[[C3]] : index
// CHECK-NEXT:    %[[IN:.*]] = arith.andi %[[INX]], %[[INY]] : i1
// CHECK-NEXT:    scf.if %[[IN]] {
// CHECK-NEXT:      %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT:      %[[BXI:.*]] = arith.minui %[[BX]], %[[C1]] : index
// CHECK-NEXT:      %[[C2I:.*]] = arith.constant 2 : index
// CHECK-NEXT:      %[[BYI:.*]] = arith.minui %[[BY]], %[[C2I]] : index
// CHECK-NEXT:      tile.clear %[[CL]]
// CHECK-NEXT:      %[[ROWI:.*]] = arith.muli %[[BYI]], %{{.*}} : index
// CHECK-NEXT:      %[[COLI:.*]] = arith.muli %[[BXI]], %{{.*}} : index
// CHECK:           tile.copy %{{.*}}[%[[ROWI]], %{{.*}}] to %[[AS]]
// CHECK:           tile.copy %{{.*}}[%{{.*}}, %[[COLI]]] to %[[BS]]
// CHECK:           tile.gemm %[[AS]], %[[BS]], %[[CL]]
// CHECK:         tile.copy %[[CL]] to %{{.*}}[%[[ROWI]], %[[COLI]]]
// CHECK-NEXT:    } else {
// CHECK-NEXT:      tile.clear %[[CL]]
// CHECK-NEXT:      %[[ROW:.*]] = arith.muli %[[BY]], %{{.*}} : index
// CHECK-NEXT:      %[[COL:.*]] = arith.muli %[[BX]], %{{.*}} : index
// CHECK:           tile.copy %{{.*}}[%[[ROW]], %{{.*}}] to %[[AS]]
// CHECK:           tile.copy %{{.*}}[%{{.*}}, %[[COL]]] to %[[BS]]
// CHECK:           tile.gemm %[[AS]], %[[BS]], %[[CL]]
// CHECK:         tile.copy %[[CL]] to %{{.*}}[%[[ROW]], %[[COL]]]
// CHECK-NEXT:    } {tile.block_versions}
// CHECK-NEXT:  }

// The interior version has no bounds checks against 100 or 70: neither in
// the copies of A and B nor in the stores of C (odd-width C, so element
// pairs under an alignment test). The edge version keeps them. The versions'
// `} else {` is told from those of the stores by its indentation (hence
// --strict-whitespace).
// LOWER-LABEL: gpu.func @both_dims_kernel
// LOWER: {{^      }}scf.if
// LOWER-NOT: arith.cmpi ult, %{{[0-9a-z_]+}}, %c{{(100|70)(_[0-9]+)?}} :
// LOWER: {{^      }}} else {
// LOWER: arith.cmpi ult, %{{[0-9a-z_]+}}, %c{{100(_[0-9]+)?}} :
// LOWER: arith.cmpi ult, %{{[0-9a-z_]+}}, %c{{70(_[0-9]+)?}} :
// LOWER: {{^      }}} {tile.block_versions}
func.func @both_dims(%A: !A, %B: !B, %C: !C) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  tile.kernel grid(%c3, %c4) threads(64) as (%bx, %by) {
    %A_s = tile.alloc_shared : !As
    %B_s = tile.alloc_shared : !Bs
    %C_l = tile.alloc_fragment : !Cl
    tile.clear %C_l : !Cl
    %row = arith.muli %by, %c32 : index
    %col = arith.muli %bx, %c32 : index
    scf.for %k = %c0 to %c4 step %c1 {
      %ko = arith.muli %k, %c16 : index
      tile.copy %A[%row, %ko] to %A_s : !A to !As
      tile.copy %B[%ko, %col] to %B_s : !B to !Bs
      tile.gemm %A_s, %B_s, %C_l : !As, !Bs, !Cl
    }
    tile.copy %C_l to %C[%row, %col] : !Cl to !C
  }
  return
}

// -----

// Only N (the grid's x) is ragged: only bx is versioned.

!A = memref<96x64xf16>
!B = memref<64x70xf16>
!C = memref<96x70xf16>
!As = memref<32x16xf16, #gpu.address_space<workgroup>>
!Bs = memref<16x32xf16, #gpu.address_space<workgroup>>
!Cl = memref<32x32xf32, #gpu.address_space<private>>

// CHECK-LABEL: func.func @x_only
// CHECK:       tile.kernel grid(%{{.*}}, %{{.*}}) threads(64) as (%[[BX:.*]], %[[BY:.*]]) {
// CHECK:         %[[IN:.*]] = arith.cmpi ult, %[[BX]], %{{.*}} : index
// CHECK-NEXT:    scf.if %[[IN]] {
// CHECK-NEXT:      %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT:      %[[BXI:.*]] = arith.minui %[[BX]], %[[C1]] : index
// CHECK-NOT:       arith.minui
// CHECK:           arith.muli %[[BY]]
// CHECK:           arith.muli %[[BXI]]
// CHECK:         } else {
func.func @x_only(%A: !A, %B: !B, %C: !C) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  tile.kernel grid(%c3, %c3) threads(64) as (%bx, %by) {
    %A_s = tile.alloc_shared : !As
    %B_s = tile.alloc_shared : !Bs
    %C_l = tile.alloc_fragment : !Cl
    tile.clear %C_l : !Cl
    %row = arith.muli %by, %c32 : index
    %col = arith.muli %bx, %c32 : index
    scf.for %k = %c0 to %c4 step %c1 {
      %ko = arith.muli %k, %c16 : index
      tile.copy %A[%row, %ko] to %A_s : !A to !As
      tile.copy %B[%ko, %col] to %B_s : !B to !Bs
      tile.gemm %A_s, %B_s, %C_l : !As, !Bs, !Cl
    }
    tile.copy %C_l to %C[%row, %col] : !Cl to !C
  }
  return
}

// -----

// Sizes known only at run time: a ceildiv(N, 32) x ceildiv(M, 32) grid over
// M x 64 times 64 x N, with M and N the sizes of A and B. Block
// by < floor(M / 32) ends its tile inside M: it starts its rows at
// 32 * min(by, M / 32 - 1) <= M - 32, so the interior version loads A's
// rows and B's columns unchecked, and where 32 divides M and N every block
// takes it; M / 32 - 1 is a nuw subtraction, which holds where it is used.
// C's sizes are other values, which nothing relates to M and N: each index
// gets a second bound over the grid's tile, dim(C, 1) / 32 for bx and
// dim(C, 0) / 32 for by, made before the kernel, and the interior version
// is the blocks below both (the others, a C smaller than A and B among them,
// take the edge version). The other dynamic sizes (A's rows for bx, B's
// columns for by) prove nothing more and are not used, nor is the grid
// size itself (below ceildiv(N, 32) - 1), which proves nothing more than
// floor(N / 32) and holds fewer blocks.

!A = memref<?x64xf16>
!B = memref<64x?xf16>
!C = memref<?x?xf16>
!As = memref<32x16xf16, #gpu.address_space<workgroup>>
!Bs = memref<16x32xf16, #gpu.address_space<workgroup>>
!Cl = memref<32x32xf32, #gpu.address_space<private>>

// CHECK-LABEL: func.func @dynamic
// CHECK:       %[[M:.*]] = memref.dim %arg0
// CHECK:       %[[N:.*]] = memref.dim %arg1
// CHECK:       %[[GX:.*]] = arith.ceildivui %[[N]]
// CHECK:       %[[GY:.*]] = arith.ceildivui %[[M]]
// CHECK:       %[[CN:.*]] = memref.dim %{{.*}}, %{{.*}} : memref<?x?xf16>
// CHECK-NEXT:  %[[FX:.*]] = arith.divui %[[N]], %c32 : index
// CHECK-NEXT:  %[[FCX:.*]] = arith.divui %[[CN]], %c32 : index
// CHECK:       %[[CM:.*]] = memref.dim %{{.*}}, %{{.*}} : memref<?x?xf16>
// CHECK-NEXT:  %[[FY:.*]] = arith.divui %[[M]], %c32 : index
// CHECK-NEXT:  %[[FCY:.*]] = arith.divui %[[CM]], %c32 : index
// CHECK-NOT:   memref.dim
// CHECK-NOT:   arith.ceildivui
// CHECK:       tile.kernel grid(%[[GX]], %[[GY]]) threads(64) as (%[[BX:.*]], %[[BY:.*]]) {
// CHECK:         %[[INX:.*]] = arith.cmpi ult, %[[BX]], %[[FX]] : index
// CHECK-NEXT:    %[[INCX:.*]] = arith.cmpi ult, %[[BX]], %[[FCX]] : index
// CHECK-NEXT:    %[[IN1:.*]] = arith.andi %[[INX]], %[[INCX]] : i1
// CHECK-NEXT:    %[[INY:.*]] = arith.cmpi ult, %[[BY]], %[[FY]] : index
// CHECK-NEXT:    %[[IN2:.*]] = arith.andi %[[IN1]], %[[INY]] : i1
// CHECK-NEXT:    %[[INCY:.*]] = arith.cmpi ult, %[[BY]], %[[FCY]] : index
// CHECK-NEXT:    %[[IN:.*]] = arith.andi %[[IN2]], %[[INCY]] : i1
// CHECK-NEXT:    scf.if %[[IN]] {
// CHECK-NEXT:      %[[ONEX:.*]] = arith.constant 1 : index
// CHECK-NEXT:      %[[LASTX:.*]] = arith.subi %[[FX]], %[[ONEX]] overflow<nuw> : index
// CHECK-NEXT:      %[[BX1:.*]] = arith.minui %[[BX]], %[[LASTX]] : index
// CHECK-NEXT:      %[[ONECX:.*]] = arith.constant 1 : index
// CHECK-NEXT:      %[[LASTCX:.*]] = arith.subi %[[FCX]], %[[ONECX]] overflow<nuw> : index
// CHECK-NEXT:      %{{.*}} = arith.minui %[[BX1]], %[[LASTCX]] : index
// CHECK-NEXT:      %[[ONEY:.*]] = arith.constant 1 : index
// CHECK-NEXT:      %[[LASTY:.*]] = arith.subi %[[FY]], %[[ONEY]] overflow<nuw> : index
// CHECK-NEXT:      %[[BY1:.*]] = arith.minui %[[BY]], %[[LASTY]] : index
// CHECK-NEXT:      %[[ONECY:.*]] = arith.constant 1 : index
// CHECK-NEXT:      %[[LASTCY:.*]] = arith.subi %[[FCY]], %[[ONECY]] overflow<nuw> : index
// CHECK-NEXT:      %{{.*}} = arith.minui %[[BY1]], %[[LASTCY]] : index
// CHECK:         } else {
// CHECK:         } {tile.block_versions}

// Lowered, the interior version compares nothing: no masked loads of A or
// B, and C's stores unchecked.
// LOWER-LABEL: gpu.func @dynamic_kernel
// LOWER: {{^      }}scf.if
// LOWER-NOT: vector.maskedload
// LOWER-NOT: arith.cmpi ult
// LOWER: {{^      }}} else {
// LOWER: vector.maskedload %reinterpret_cast[
// LOWER: vector.maskedload %reinterpret_cast_0[
// LOWER: {{^      }}} {tile.block_versions}
func.func @dynamic(%A: !A, %B: !B, %C: !C) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %M = memref.dim %A, %c0 : !A
  %N = memref.dim %B, %c1 : !B
  %gx = arith.ceildivui %N, %c32 : index
  %gy = arith.ceildivui %M, %c32 : index
  tile.kernel grid(%gx, %gy) threads(64) as (%bx, %by) {
    %A_s = tile.alloc_shared : !As
    %B_s = tile.alloc_shared : !Bs
    %C_l = tile.alloc_fragment : !Cl
    tile.clear %C_l : !Cl
    %row = arith.muli %by, %c32 : index
    %col = arith.muli %bx, %c32 : index
    scf.for %k = %c0 to %c4 step %c1 {
      %ko = arith.muli %k, %c16 : index
      tile.copy %A[%row, %ko] to %A_s : !A to !As
      tile.copy %B[%ko, %col] to %B_s : !B to !Bs
      tile.gemm %A_s, %B_s, %C_l : !As, !Bs, !Cl
    }
    tile.copy %C_l to %C[%row, %col] : !Cl to !C
  }
  return
}

// -----

// A grid of ceildiv(N, 64) * 2 blocks, each computing part bx % 2 of tile
// bx / 2 (tile-split-accumulators' parts in blocks of their own). Below the
// grid's last block less one, the last tile's first part may still reach
// past N. Below 2 * floor(N / 64), a block is in a tile that ends inside N,
// whose parts are inside: that bound, and the same over C's columns,
// restrict bx in the interior version (tile bx / 2 at most N / 64 - 1), and
// its copies of B and stores to C are unchecked.

!A = memref<64x64xf16>
!B = memref<64x?xf16>
!C = memref<64x?xf16>
!As = memref<64x16xf16, #gpu.address_space<workgroup>>
!Bs = memref<16x32xf16, #gpu.address_space<workgroup>>
!Cl = memref<64x32xf32, #gpu.address_space<private>>

// CHECK-LABEL: func.func @tile_parts
// CHECK:       %[[N:.*]] = memref.dim %arg1
// CHECK:       %[[TILES:.*]] = arith.ceildivui %[[N]], %c64 : index
// CHECK-NEXT:  %[[GX:.*]] = arith.muli %[[TILES]], %c2 : index
// CHECK:       %[[CN:.*]] = memref.dim %{{.*}}, %{{.*}} : memref<64x?xf16>
// CHECK-NEXT:  %[[FULL:.*]] = arith.divui %[[N]], %c64 : index
// CHECK-NEXT:  %[[TWO:.*]] = arith.constant 2 : index
// CHECK-NEXT:  %[[TB:.*]] = arith.muli %[[FULL]], %[[TWO]] : index
// CHECK-NEXT:  %[[CFULL:.*]] = arith.divui %[[CN]], %c64 : index
// CHECK-NEXT:  %[[CTWO:.*]] = arith.constant 2 : index
// CHECK-NEXT:  %[[CTB:.*]] = arith.muli %[[CFULL]], %[[CTWO]] : index
// CHECK-NEXT:  tile.kernel
// CHECK-SAME:  grid(%[[GX]]) threads(64) as (%[[BX:.*]]) {
// CHECK:         %[[IN1:.*]] = arith.cmpi ult, %[[BX]], %[[TB]] : index
// CHECK-NEXT:    %[[IN2:.*]] = arith.cmpi ult, %[[BX]], %[[CTB]] : index
// CHECK-NEXT:    %[[IN:.*]] = arith.andi %[[IN1]], %[[IN2]] : i1
// CHECK-NEXT:    scf.if %[[IN]] {
// CHECK-NEXT:      %[[ONE:.*]] = arith.constant 1 : index
// CHECK-NEXT:      %[[LAST:.*]] = arith.subi %[[TB]], %[[ONE]] overflow<nuw> : index
// CHECK-NEXT:      %[[BX1:.*]] = arith.minui %[[BX]], %[[LAST]] : index
// CHECK:           %[[CLAST:.*]] = arith.subi %[[CTB]], %{{.*}} overflow<nuw> : index
// CHECK-NEXT:      %{{.*}} = arith.minui %[[BX1]], %[[CLAST]] : index
// CHECK:         } else {
// CHECK:         } {tile.block_versions}

// LOWER-LABEL: gpu.func @tile_parts_kernel
// LOWER: {{^      }}scf.if
// LOWER-NOT: vector.maskedload
// LOWER-NOT: arith.cmpi ult
// LOWER: {{^      }}} else {
// LOWER: vector.maskedload
// LOWER: {{^      }}} {tile.block_versions}
func.func @tile_parts(%A: !A, %B: !B, %C: !C) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %N = memref.dim %B, %c1 : !B
  %tiles = arith.ceildivui %N, %c64 : index
  %gx = arith.muli %tiles, %c2 : index
  tile.kernel grid(%gx) threads(64) as (%bx) {
    %A_s = tile.alloc_shared : !As
    %B_s = tile.alloc_shared : !Bs
    %C_l = tile.alloc_fragment : !Cl
    %tile = arith.divui %bx, %c2 : index
    %part = arith.remui %bx, %c2 : index
    %offset = arith.muli %part, %c32 : index
    tile.clear %C_l : !Cl
    %tile_col = arith.muli %tile, %c64 : index
    %col = arith.addi %tile_col, %offset : index
    scf.for %k = %c0 to %c4 step %c1 {
      %ko = arith.muli %k, %c16 : index
      tile.copy %A[%c0, %ko] to %A_s : !A to !As
      tile.copy %B[%ko, %col] to %B_s : !B to !Bs
      tile.gemm %A_s, %B_s, %C_l : !As, !Bs, !Cl
    }
    tile.copy %C_l to %C[%c0, %col] : !Cl to !C
  }
  return
}

// -----

// A copy that starts one row past its block's tile (rows 32 * by + 1 to
// 32 * by + 32): a block below floor(M / 32) may still reach row M, so that
// bound proves nothing; below ceildiv(M, 32) - 1 the copy ends by row
// 32 * ceildiv(M, 32) - 32 <= M - 1, so the interior version is the blocks
// below the grid size less one, as for any grid.

!A = memref<?x16xf16>
!As = memref<32x16xf16, #gpu.address_space<workgroup>>

// CHECK-LABEL: func.func @past_the_tile
// CHECK:       %[[GY:.*]] = arith.ceildivui
// CHECK-NOT:   arith.divui
// CHECK:       tile.kernel grid(%[[GY]]) threads(64) as (%[[BY:.*]]) {
// CHECK:         %[[NEXT:.*]] = arith.addi %[[BY]], %{{.*}} : index
// CHECK-NEXT:    %[[IN:.*]] = arith.cmpi ult, %[[NEXT]], %[[GY]] : index
// CHECK-NEXT:    scf.if %[[IN]] {
// CHECK-NEXT:      %[[TWO:.*]] = arith.constant 2 : index
// CHECK-NEXT:      %[[LAST:.*]] = arith.subi %[[GY]], %[[TWO]] overflow<nuw> : index
// CHECK-NEXT:      %{{.*}} = arith.minui %[[BY]], %[[LAST]] : index
// CHECK:         } else {
// CHECK:         } {tile.block_versions}

// LOWER-LABEL: gpu.func @past_the_tile_kernel
// LOWER: {{^      }}scf.if
// LOWER-NOT: vector.maskedload
// LOWER: {{^      }}} else {
// LOWER: vector.maskedload
// LOWER: {{^      }}} {tile.block_versions}
func.func @past_the_tile(%A: !A) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %M = memref.dim %A, %c0 : !A
  %gy = arith.ceildivui %M, %c32 : index
  tile.kernel grid(%gy) threads(64) as (%by) {
    %A_s = tile.alloc_shared : !As
    %tile_row = arith.muli %by, %c32 : index
    %row = arith.addi %tile_row, %c1 : index
    tile.copy %A[%row, %c0] to %A_s : !A to !As
  }
  return
}
