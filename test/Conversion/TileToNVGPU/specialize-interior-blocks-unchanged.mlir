// RUN: tile-opt %s --tile-specialize-interior-blocks | FileCheck %s

// Left as they are: tile multiples (nothing to gain), a ragged K (the last
// k-tile is partial in every block), a dynamic grid unrelated to the
// tensor's size, a one-block grid, a shared tile allocated inside the loop
// (both versions would allocate it), and a tile.pipelined loop not yet
// rewritten (two loops would share its shared tiles, which the software
// pipeliner rejects).

!A = memref<96x60xf16>
!B = memref<60x64xf16>
!C = memref<96x64xf16>
!As = memref<32x16xf16, #gpu.address_space<workgroup>>
!Bs = memref<16x32xf16, #gpu.address_space<workgroup>>
!Cl = memref<32x32xf32, #gpu.address_space<private>>

// CHECK-LABEL: func.func @unchanged
// CHECK-NOT:   scf.if
// CHECK-NOT:   arith.minui
// CHECK:       return
func.func @unchanged(%A: !A, %B: !B, %C: !C, %E: memref<20x70xf16>, %gx: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  // Ragged K only.
  tile.kernel grid(%c2, %c3) threads(64) as (%bx, %by) {
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
  // A grid size only known at run time, not computed from a size of E.
  tile.kernel grid(%gx) threads(64) as (%bx) {
    %C_l = tile.alloc_fragment : !Cl
    tile.clear %C_l : !Cl
    %col = arith.muli %bx, %c32 : index
    tile.copy %C_l to %E[%c0, %col] : !Cl to memref<20x70xf16>
  }
  // One block row of 20 rows; the 3 block columns of 70 are ragged, but a
  // shared tile is allocated in the loop.
  tile.kernel grid(%c3, %c1) threads(64) as (%bx, %by) {
    %C_l = tile.alloc_fragment : !Cl
    tile.clear %C_l : !Cl
    %col = arith.muli %bx, %c32 : index
    scf.for %k = %c0 to %c1 step %c1 {
      %S = tile.alloc_shared : memref<32x32xf16, #gpu.address_space<workgroup>>
      tile.copy %C_l to %S : !Cl to memref<32x32xf16, #gpu.address_space<workgroup>>
      tile.copy %S to %E[%c0, %col] : memref<32x32xf16, #gpu.address_space<workgroup>> to memref<20x70xf16>
    }
  }
  // A ragged grid, but the pipelined loop is still to be rewritten.
  tile.kernel grid(%c3, %c3) threads(64) as (%bx, %by) {
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
    tile.copy %C_l to %E[%row, %col] : !Cl to memref<20x70xf16>
  }
  // A single block, which is the edge.
  tile.kernel grid(%c1) threads(64) as (%bx) {
    %C_l = tile.alloc_fragment : !Cl
    tile.clear %C_l : !Cl
    %col = arith.muli %bx, %c32 : index
    tile.copy %C_l to %E[%c0, %col] : !Cl to memref<20x70xf16>
  }
  return
}
