// RUN: tile-opt --tile-print-schedule -verify-diagnostics %s -o /dev/null

// The printer checks the schedule it shows with the same verifier as
// planning and the rewrite: an illegal hand-written schedule is an error,
// not a misleading table.

!A = memref<256x256xf16>
!B = memref<256x256xf16>
!As = memref<64x32xf16, #gpu.address_space<workgroup>>
!Bs = memref<32x64xf16, #gpu.address_space<workgroup>>
!Cl = memref<64x64xf32, #gpu.address_space<private>>

func.func @gemm_before_copy(%A: !A, %B: !B) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : !As
    %B_s = tile.alloc_shared : !Bs
    %C_l = tile.alloc_fragment : !Cl
    tile.pipelined %c0 to %c8 step %c1 stage = [0, 1, 0] as (%k) {
      %ko = arith.muli %k, %c32 : index
      tile.copy %A[%c0, %ko] to %A_s : !A to !As
      // expected-note @+1 {{statement #1 ('tile.copy', stage 1) writes shared tile %1 (32x64xf16) here}}
      tile.copy %B[%ko, %c0] to %B_s : !B to !Bs
      // expected-error @+1 {{statement #2 ('tile.gemm', stage 0) reads shared tile %1 (32x64xf16) that statement #1 ('tile.copy', stage 1) writes, so it cannot run in an earlier stage}}
      tile.gemm %A_s, %B_s, %C_l : !As, !Bs, !Cl
    }
  }
  return
}
