// RUN: tile-opt %s --tile-specialize-interior-steps | FileCheck %s

// Left as they are: a K that is a tile multiple (every copy is already
// proved inside), an index that is not scale * counter + offset, a
// negative scale, a lower bound not known to be non-negative (the
// restricted counter is an unsigned minimum), an unsigned loop, a loop
// around a tile.pipelined loop not yet rewritten (two copies of it would
// share its shared tiles, which the software pipeliner rejects), and the
// rolled remainder of an unrolled steady-state loop (fewer iterations than
// the unrolled step: splitting would only grow the code).

!A = memref<32x96xf16>
!R = memref<32x100xf16>
!As = memref<32x16xf16, #gpu.address_space<workgroup>>

// CHECK-LABEL: func.func @unchanged
// CHECK-COUNT-6: scf.for
// CHECK-NOT:     arith.minui
// CHECK:         return
func.func @unchanged(%A: !A, %R: !R, %lb: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c6 = arith.constant 6 : index
  %c7 = arith.constant 7 : index
  %c16 = arith.constant 16 : index
  %c96 = arith.constant 96 : index
  tile.kernel grid(%c1, %c1) threads(64) as (%bx, %by) {
    %A_s = tile.alloc_shared : !As
    // A tile multiple.
    scf.for %k = %c0 to %c6 step %c1 {
      %ko = arith.muli %k, %c16 : index
      tile.copy %A[%c0, %ko] to %A_s : !A to !As
    }
    // Not linear in the counter.
    scf.for %k = %c0 to %c7 step %c1 {
      %kk = arith.muli %k, %k : index
      %ko = arith.muli %kk, %c2 : index
      tile.copy %R[%c0, %ko] to %A_s : !R to !As
    }
    // Downwards.
    scf.for %k = %c0 to %c7 step %c1 {
      %kd = arith.muli %k, %c16 : index
      %ko = arith.subi %c96, %kd : index
      tile.copy %R[%c0, %ko] to %A_s : !R to !As
    }
    // A lower bound of unknown sign.
    scf.for %k = %lb to %c7 step %c1 {
      %ko = arith.muli %k, %c16 : index
      tile.copy %R[%c0, %ko] to %A_s : !R to !As
    }
    // Unsigned.
    scf.for unsigned %k = %c0 to %c7 step %c1 {
      %ko = arith.muli %k, %c16 : index
      tile.copy %R[%c0, %ko] to %A_s : !R to !As
    }
    // Around a tile.pipelined loop.
    scf.for %k = %c0 to %c7 step %c1 {
      %ko = arith.muli %k, %c16 : index
      tile.copy %R[%c0, %ko] to %A_s : !R to !As
      tile.pipelined %c0 to %c2 step %c1 num_stages = 2 as (%j) {
        tile.copy %A[%c0, %ko] to %A_s : !A to !As
      }
    }
  }
  return
}

// K = 120 in 16-column tiles, unrolled by 3: the unrolled loop reads tiles
// 0..5, all inside; the remainder reads tiles 6 and 7, the last partial.
// CHECK-LABEL: func.func @remainder
// CHECK-COUNT-2: scf.for
// CHECK-NOT:     arith.minui
// CHECK:         return
func.func @remainder(%R: memref<32x120xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c6 = arith.constant 6 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  tile.kernel grid(%c1, %c1) threads(64) as (%bx, %by) {
    %A_s = tile.alloc_shared : !As
    scf.for %k = %c0 to %c6 step %c3 {
      %ko = arith.muli %k, %c16 : index
      tile.copy %R[%c0, %ko] to %A_s : memref<32x120xf16> to !As
      %k1 = arith.addi %k, %c1 : index
      %ko1 = arith.muli %k1, %c16 : index
      tile.copy %R[%c0, %ko1] to %A_s : memref<32x120xf16> to !As
      %k2 = arith.addi %k, %c2 : index
      %ko2 = arith.muli %k2, %c16 : index
      tile.copy %R[%c0, %ko2] to %A_s : memref<32x120xf16> to !As
    } {tile.steady_state = 3 : i64}
    scf.for %k = %c6 to %c8 step %c1 {
      %ko = arith.muli %k, %c16 : index
      tile.copy %R[%c0, %ko] to %A_s : memref<32x120xf16> to !As
    } {tile.steady_state = 3 : i64}
  }
  return
}

// A loop that allocates a shared tile: two copies of the loop would each get
// shared memory for it, twice what tile-smem-budget counted (the loop over a
// ragged tensor is split without the allocation: interior-steps-split).

// CHECK-LABEL: func.func @allocates
// CHECK-COUNT-1: scf.for
// CHECK-NOT:     scf.for
// CHECK-NOT:     arith.minui
// CHECK:         return
// CHECK-LABEL: func.func @interior_steps_split
// CHECK:         arith.minui
func.func @allocates(%R: memref<32x100xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c7 = arith.constant 7 : index
  %c16 = arith.constant 16 : index
  tile.kernel grid(%c1) threads(64) as (%bx) {
    scf.for %k = %c0 to %c7 step %c1 {
      %A_s = tile.alloc_shared : memref<32x16xf16, #gpu.address_space<workgroup>>
      %ko = arith.muli %k, %c16 : index
      tile.copy %R[%c0, %ko] to %A_s : memref<32x100xf16> to memref<32x16xf16, #gpu.address_space<workgroup>>
    }
  }
  return
}

func.func @interior_steps_split(%R: memref<32x100xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c7 = arith.constant 7 : index
  %c16 = arith.constant 16 : index
  tile.kernel grid(%c1) threads(64) as (%bx) {
    %A_s = tile.alloc_shared : memref<32x16xf16, #gpu.address_space<workgroup>>
    scf.for %k = %c0 to %c7 step %c1 {
      %ko = arith.muli %k, %c16 : index
      tile.copy %R[%c0, %ko] to %A_s : memref<32x100xf16> to memref<32x16xf16, #gpu.address_space<workgroup>>
    }
  }
  return
}
