// RUN: tile-opt %s --tile-specialize-interior-steps | FileCheck %s
// RUN: tile-opt %s --tile-specialize-interior-steps=tma=true | FileCheck %s --check-prefix=TMA

// With tma=true the asynchronous copies will be TMA boxes, which the
// hardware clips at the tensor's edges: a loop whose only ragged copies are
// tile.copy_async is not split. Its synchronous copies still count, and so
// do its asynchronous ones where one copy of the kernel cannot be a TMA copy
// (then tile-lower-to-nvgpu keeps cp.async for all).

!R = memref<32x104xf16>
!As = memref<32x16xf16, #gpu.address_space<workgroup>>

// CHECK-LABEL: func.func @async_only
// CHECK:         arith.minui
// TMA-LABEL:   func.func @async_only
// TMA-NOT:       arith.minui
// TMA-COUNT-1:   scf.for
// TMA-NOT:       scf.for
func.func @async_only(%R: !R) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c7 = arith.constant 7 : index
  %c16 = arith.constant 16 : index
  tile.kernel grid(%c1, %c1) threads(64) as (%bx, %by) {
    %A_s = tile.alloc_shared : !As
    scf.for %k = %c0 to %c7 step %c1 {
      %ko = arith.muli %k, %c16 : index
      tile.copy_async %R[%c0, %ko] to %A_s : !R to !As
      tile.commit_group
      tile.wait_group 0
    }
  }
  return
}

// Rows of 100 f16 are 200 bytes, not a multiple of 16: no tensor map
// describes them, so the copy stays cp.async and keeps the split.
// CHECK-LABEL: func.func @not_for_the_tma
// CHECK:         arith.minui
// TMA-LABEL:   func.func @not_for_the_tma
// TMA:           scf.for
// TMA-NEXT:        arith.minui
func.func @not_for_the_tma(%R: memref<32x100xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c7 = arith.constant 7 : index
  %c16 = arith.constant 16 : index
  tile.kernel grid(%c1, %c1) threads(64) as (%bx, %by) {
    %A_s = tile.alloc_shared : !As
    scf.for %k = %c0 to %c7 step %c1 {
      %ko = arith.muli %k, %c16 : index
      tile.copy_async %R[%c0, %ko] to %A_s : memref<32x100xf16> to !As
      tile.commit_group
      tile.wait_group 0
    }
  }
  return
}

// CHECK-LABEL: func.func @sync_too
// CHECK:         arith.minui
// TMA-LABEL:   func.func @sync_too
// TMA:           scf.for
// TMA-NEXT:        arith.minui
func.func @sync_too(%R: !R) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c7 = arith.constant 7 : index
  %c16 = arith.constant 16 : index
  tile.kernel grid(%c1, %c1) threads(64) as (%bx, %by) {
    %A_s = tile.alloc_shared : !As
    scf.for %k = %c0 to %c7 step %c1 {
      %ko = arith.muli %k, %c16 : index
      tile.copy_async %R[%c0, %ko] to %A_s : !R to !As
      tile.commit_group
      tile.wait_group 0
      tile.copy %R[%c0, %ko] to %A_s : !R to !As
    }
  }
  return
}
