// RUN: tile-opt %s --test-tile-lower-fragments=chip=sm_80 | FileCheck %s

// A loop with a schedule that no pipelining pass rewrote is a serial loop.
// The gemm inside it becomes many ops, more statements than the 'stage'
// list has entries: the loop is made an scf.for first, so the output verifies.

// CHECK-LABEL: func.func @scheduled_loop
// CHECK-NOT:     tile.pipelined
// CHECK:         scf.for
// CHECK:           nvgpu.mma.sync
!As = memref<16x16xf16, #gpu.address_space<workgroup>>
!Cl = memref<16x16xf32, #gpu.address_space<private>>
func.func @scheduled_loop() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  tile.kernel grid(%c1) threads(32) as (%bx) {
    %A_s = tile.alloc_shared : !As
    %C_l = tile.alloc_fragment : !Cl
    tile.pipelined %c0 to %c4 step %c1 stage = [0] as (%k) {
      tile.gemm %A_s, %A_s, %C_l : !As, !As, !Cl
    }
  }
  return
}
