// RUN: tile-opt %s --tile-pipeline-planning --tile-software-pipeline=unroll-steady-state=false \
// RUN:   --tile-persistent-blocks=blocks=5 | FileCheck %s

// The 2-stage GEMM of a 3x4 grid (12 tiles) on 5 persistent blocks: block p
// runs tiles p, p + 5, p + 10. The first tile's prologue (one copy group)
// is issued before the tile loop; each later tile's at the end of the
// previous trip, after a barrier and before the previous tile's C store.
// Tiles run in the grouped order of the outlining (BlockOrder.h), here one
// group of all 4 rows: tile t is (bx, by) = (2 - t / 4, 3 - t % 4), from
// the far corner; the next tile's number is clamped to 11 for the index
// bounds.

// CHECK-LABEL: func.func @gemm
// CHECK:       tile.kernel grid(%[[C5:.*]]) threads(64) as (%[[P:.*]]) {
// CHECK-NEXT:    %[[AS:.*]] = tile.alloc_shared : memref<2x32x16xf16
// CHECK-NEXT:    %[[BS:.*]] = tile.alloc_shared : memref<2x16x32xf16
// CHECK-NEXT:    %[[CL:.*]] = tile.alloc_fragment
// CHECK:         %[[T0:.*]] = arith.minui %[[P]], %{{.*}} : index
// CHECK:         %[[IN0:.*]] = arith.remui %[[T0]], %{{.*}} : index
// CHECK:         %[[X0:.*]] = arith.divui %[[IN0]], %{{.*}} : index
// CHECK:         %[[BX0:.*]] = arith.subi %{{.*}}, %[[X0]] overflow<nsw, nuw> : index
// CHECK:         tile.copy_async
// CHECK:         tile.copy_async
// CHECK-NEXT:    tile.commit_group
// CHECK:         scf.for %[[T:.*]] = %[[P]] to %{{.*}} step %{{.*}} {
// CHECK:           %[[IN:.*]] = arith.remui %[[T]], %{{.*}} : index
// CHECK:           %[[Y:.*]] = arith.addi %{{.*}}, %{{.*}} : index
// CHECK:           %[[X:.*]] = arith.divui %[[IN]], %{{.*}} : index
// CHECK:           %[[BX:.*]] = arith.subi %{{.*}}, %[[X]] overflow<nsw, nuw> : index
// CHECK:           %[[BY:.*]] = arith.subi %{{.*}}, %[[Y]] overflow<nsw, nuw> : index
// CHECK:           tile.clear %[[CL]]
// CHECK:           %[[ROW:.*]] = arith.muli %[[BY]], %{{.*}} : index
// CHECK:           %[[COL:.*]] = arith.muli %[[BX]], %{{.*}} : index
// CHECK:           scf.for
// CHECK:             tile.wait_group 0
// CHECK:             tile.copy_async %{{.*}}[%[[ROW]], %{{.*}}]
// CHECK:             tile.gemm
// CHECK:           } {tile.steady_state = 2 : i64}
// CHECK:           tile.wait_group 0
// CHECK-NEXT:      tile.barrier
// CHECK:           tile.gemm
// CHECK-NEXT:      tile.wait_group 0
// CHECK-NEXT:      tile.barrier
// CHECK:           %[[NEXT:.*]] = arith.addi %[[T]], %{{.*}} : index
// CHECK:           %[[MORE:.*]] = arith.cmpi ult, %[[NEXT]], %{{.*}} : index
// CHECK:           scf.if %[[MORE]] {
// CHECK:             arith.minui %[[NEXT]]
// CHECK:             tile.copy_async
// CHECK:             tile.copy_async
// CHECK-NEXT:        tile.commit_group
// CHECK-NEXT:      }
// CHECK-NEXT:      tile.copy %[[CL]] to %{{.*}}[%[[ROW]], %[[COL]]]
// CHECK-NEXT:    }
// CHECK-NEXT:  }

// A grid no larger than the block count is left as it is.
// CHECK-LABEL: func.func @small
// CHECK:       tile.kernel grid(%{{.*}}, %{{.*}}) threads(64) as (%{{.*}}, %{{.*}}) {
// CHECK-NOT:   tile.kernel grid(

// A serial K loop that runs (4 trips) ends with the barrier in front of the
// next step's copies, which also keeps the next tile's copies off the shared
// tiles: no second barrier after it.
// CHECK-LABEL: func.func @serial
// CHECK:         scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK:           scf.for
// CHECK:             tile.gemm
// CHECK-NEXT:        tile.barrier
// CHECK-NEXT:      }
// CHECK-NEXT:      tile.copy %{{.*}} to %{{.*}} : memref<32x32xf32{{.*}}> to memref<100x70xf16>
// CHECK-NEXT:    }

// A copy's offset from an scf.if whose region alone uses a value of the
// kernel body (%start): the prologues clone that value with the scf.if, for
// the first tile before the loop and for the next tile in the loop.
// CHECK-LABEL: func.func @offset_in_if
// CHECK:         %[[T0:.*]] = arith.minui %{{.*}}, %{{.*}} : index
// CHECK:         %[[IN0:.*]] = arith.remui %[[T0]], %{{.*}} : index
// CHECK:         %[[X0:.*]] = arith.divui %[[IN0]], %{{.*}} : index
// CHECK:         %[[BX0:.*]] = arith.subi %{{.*}}, %[[X0]] overflow<nsw, nuw> : index
// CHECK:         %[[S0:.*]] = arith.muli %[[BX0]], %{{.*}} : index
// CHECK:         scf.if %{{.*}} -> (index) {
// CHECK:           scf.yield %[[S0]] : index
// CHECK:       scf.for %[[T:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK:         %[[IN:.*]] = arith.remui %[[T]], %{{.*}} : index
// CHECK:         %[[X:.*]] = arith.divui %[[IN]], %{{.*}} : index
// CHECK:         %[[BX:.*]] = arith.subi %{{.*}}, %[[X]] overflow<nsw, nuw> : index
// CHECK:         %[[S:.*]] = arith.muli %[[BX]], %{{.*}} : index
// CHECK:         scf.yield %[[S]] : index
// CHECK:         %[[NEXT:.*]] = arith.addi %[[T]], %{{.*}} : index
// CHECK:         scf.if
// CHECK-NEXT:      %{{.*}} = arith.constant 11 : index
// CHECK-NEXT:      %[[TN:.*]] = arith.minui %[[NEXT]], %{{.*}} : index
// CHECK:           %[[INN:.*]] = arith.remui %[[TN]], %{{.*}} : index
// CHECK:           %[[XN:.*]] = arith.divui %[[INN]], %{{.*}} : index
// CHECK:           %[[BXN:.*]] = arith.subi %{{.*}}, %[[XN]] overflow<nsw, nuw> : index
// CHECK:           %[[SN:.*]] = arith.muli %[[BXN]], %{{.*}} : index
// CHECK:           scf.if %{{.*}} -> (index) {
// CHECK:             scf.yield %[[SN]] : index

// A grid over tensors of dynamic size: the tile count is the product of
// the grid sizes, computed before the kernel, and the grid is the smaller of
// it and the block count, so that every block has a first tile. The trip
// count is dynamic too: each prologue step's copies sit in an scf.if on it,
// and move with the commits, to the first tile's prologue and to the end of
// the previous trip; the loop's own head issues none of them.
// CHECK-LABEL: func.func @dynamic
// CHECK:       %[[GX:.*]] = arith.ceildivui %{{.*}}, %{{.*}} : index
// CHECK-NEXT:  %[[GY:.*]] = arith.ceildivui %{{.*}}, %{{.*}} : index
// CHECK:       %[[TILES:.*]] = arith.muli %[[GX]], %[[GY]] : index
// CHECK-NEXT:  %[[C5:.*]] = arith.constant 5 : index
// CHECK-NEXT:  %[[GRID:.*]] = arith.minui %[[C5]], %[[TILES]] : index
// CHECK-NEXT:  tile.kernel grid(%[[GRID]]) threads(64) as (%[[P:.*]]) {
// CHECK:         tile.alloc_fragment
// CHECK-NOT:     arith.cmpi ult, %[[P]]
// CHECK:         %[[G0:.*]] = arith.muli %[[GX]], %{{.*}} : index
// CHECK-NEXT:    arith.divui %[[P]], %[[G0]] : index
// CHECK:         scf.if %{{.*}} {
// CHECK-NEXT:      memref.subview
// CHECK-NEXT:      tile.copy_async
// CHECK-NEXT:    }
// CHECK-NEXT:    scf.if %{{.*}} {
// CHECK-NEXT:      memref.subview
// CHECK-NEXT:      tile.copy_async
// CHECK-NEXT:    }
// CHECK-NEXT:    tile.commit_group
// CHECK:         scf.for %[[T:.*]] = %[[P]] to %[[TILES]] step %{{.*}} {
// CHECK-NOT:       tile.copy_async
// CHECK:           tile.clear
// CHECK-NOT:       tile.copy_async
// CHECK:           scf.for
// CHECK:           } {tile.steady_state = 2 : i64}
// CHECK:           %[[NEXT:.*]] = arith.addi %[[T]], %{{.*}} : index
// CHECK-NEXT:      %[[MORE:.*]] = arith.cmpi ult, %[[NEXT]], %[[TILES]] : index
// CHECK-NEXT:      scf.if %[[MORE]] {
// CHECK:             %[[GN:.*]] = arith.muli %[[GX]], %{{.*}} : index
// CHECK-NEXT:        arith.divui %[[NEXT]], %[[GN]] : index
// CHECK:             tile.copy_async
// CHECK:             tile.copy_async
// CHECK:             tile.commit_group
// CHECK-NEXT:      }
// CHECK-NEXT:      tile.copy %{{.*}} to %{{.*}} : memref<32x32xf32{{.*}}> to memref<?x?xf16>
// CHECK-NEXT:    }
// CHECK-NEXT:  }

!A = memref<100x64xf16>
!B = memref<64x70xf16>
!C = memref<100x70xf16>
!As = memref<32x16xf16, #gpu.address_space<workgroup>>
!Bs = memref<16x32xf16, #gpu.address_space<workgroup>>
!Cl = memref<32x32xf32, #gpu.address_space<private>>

func.func @gemm(%A: !A, %B: !B, %C: !C) {
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
    tile.pipelined %c0 to %c4 step %c1 num_stages = 2 as (%k) {
      %ko = arith.muli %k, %c16 : index
      tile.copy %A[%row, %ko] to %A_s : !A to !As
      tile.copy %B[%ko, %col] to %B_s : !B to !Bs
      tile.gemm %A_s, %B_s, %C_l : !As, !Bs, !Cl
    }
    tile.copy %C_l to %C[%row, %col] : !Cl to !C
  }
  return
}

func.func @small(%A: !A, %B: !B, %C: !C) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  tile.kernel grid(%c2, %c2) threads(64) as (%bx, %by) {
    %A_s = tile.alloc_shared : !As
    %B_s = tile.alloc_shared : !Bs
    %C_l = tile.alloc_fragment : !Cl
    tile.clear %C_l : !Cl
    %row = arith.muli %by, %c32 : index
    %col = arith.muli %bx, %c32 : index
    tile.pipelined %c0 to %c4 step %c1 num_stages = 2 as (%k) {
      %ko = arith.muli %k, %c16 : index
      tile.copy %A[%row, %ko] to %A_s : !A to !As
      tile.copy %B[%ko, %col] to %B_s : !B to !Bs
      tile.gemm %A_s, %B_s, %C_l : !As, !Bs, !Cl
    }
    tile.copy %C_l to %C[%row, %col] : !Cl to !C
  }
  return
}

func.func @serial(%A: !A, %B: !B, %C: !C) {
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

func.func @offset_in_if(%A: !A, %B: !B, %C: !C) {
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
    %start = arith.muli %bx, %c16 : index
    tile.clear %C_l : !Cl
    %row = arith.muli %by, %c32 : index
    %col = arith.muli %bx, %c32 : index
    tile.pipelined %c0 to %c4 step %c1 num_stages = 2 as (%k) {
      %ko = arith.muli %k, %c16 : index
      %inside = arith.cmpi ult, %k, %c4 : index
      %kc = scf.if %inside -> index {
        scf.yield %ko : index
      } else {
        scf.yield %start : index
      }
      tile.copy %A[%row, %kc] to %A_s : !A to !As
      tile.copy %B[%kc, %col] to %B_s : !B to !Bs
      tile.gemm %A_s, %B_s, %C_l : !As, !Bs, !Cl
    }
    tile.copy %C_l to %C[%row, %col] : !Cl to !C
  }
  return
}

func.func @dynamic(%A: memref<?x?xf16>, %B: memref<?x?xf16>, %C: memref<?x?xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %M = memref.dim %A, %c0 : memref<?x?xf16>
  %K = memref.dim %A, %c1 : memref<?x?xf16>
  %N = memref.dim %B, %c1 : memref<?x?xf16>
  %gx = arith.ceildivui %N, %c32 : index
  %gy = arith.ceildivui %M, %c32 : index
  %kt = arith.ceildivui %K, %c16 : index
  tile.kernel grid(%gx, %gy) threads(64) as (%bx, %by) {
    %A_s = tile.alloc_shared : !As
    %B_s = tile.alloc_shared : !Bs
    %C_l = tile.alloc_fragment : !Cl
    tile.clear %C_l : !Cl
    %row = arith.muli %by, %c32 : index
    %col = arith.muli %bx, %c32 : index
    tile.pipelined %c0 to %kt step %c1 num_stages = 2 as (%k) {
      %ko = arith.muli %k, %c16 : index
      tile.copy %A[%row, %ko] to %A_s : memref<?x?xf16> to !As
      tile.copy %B[%ko, %col] to %B_s : memref<?x?xf16> to !Bs
      tile.gemm %A_s, %B_s, %C_l : !As, !Bs, !Cl
    }
    tile.copy %C_l to %C[%row, %col] : !Cl to memref<?x?xf16>
  }
  return
}

// An unsigned loop from -1 (2^64 - 1) to 2 runs no iteration, so its
// barrier does not order the gemm's reads of %S before the next tile's
// copy into it: a barrier follows the loop.
// CHECK-LABEL: func.func @unsigned_loop
// CHECK:         scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK:           tile.gemm
// CHECK-NEXT:      scf.for unsigned
// CHECK-NEXT:        tile.barrier
// CHECK-NEXT:      }
// CHECK-NEXT:      tile.barrier
// CHECK-NEXT:      tile.copy %{{.*}} to %{{.*}} : memref<32x32xf32{{.*}}> to memref<128x64xf16>

func.func @unsigned_loop(%A: memref<128x64xf16>, %C: memref<128x64xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %cm1 = arith.constant -1 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  tile.kernel grid(%c16) threads(64) as (%bx) {
    %S = tile.alloc_shared : memref<32x32xf16, #gpu.address_space<workgroup>>
    %C_l = tile.alloc_fragment : memref<32x32xf32, #gpu.address_space<private>>
    tile.clear %C_l : memref<32x32xf32, #gpu.address_space<private>>
    %row = arith.muli %bx, %c32 : index
    tile.copy %A[%row, %c0] to %S : memref<128x64xf16> to memref<32x32xf16, #gpu.address_space<workgroup>>
    tile.barrier
    tile.gemm %S, %S, %C_l : memref<32x32xf16, #gpu.address_space<workgroup>>, memref<32x32xf16, #gpu.address_space<workgroup>>, memref<32x32xf32, #gpu.address_space<private>>
    scf.for unsigned %k = %cm1 to %c2 step %c1 {
      tile.barrier
    }
    tile.copy %C_l to %C[%row, %c0] : memref<32x32xf32, #gpu.address_space<private>> to memref<128x64xf16>
  }
  return
}
