// RUN: tile-opt %s --tile-to-ptx="chip=sm_90a tma=true cluster=3" -verify-diagnostics
// RUN: not tile-opt %s --tile-to-ptx="chip=sm_90a tma=true cluster=3" -o /dev/null 2>&1 \
// RUN:   | FileCheck %s

// The options tile-to-ptx passes on to tile-lower-to-nvgpu are checked
// before the pipeline runs: the error comes alone, not after the
// shared-memory budget table that tile-smem-budget prints on the way.

// CHECK-NOT: stages=
// CHECK: error: cluster=3 is not supported: use 1, 2, 4 or 8
// CHECK-NOT: stages=

!A = memref<256x256xf16>
!As = memref<128x32xf16, #gpu.address_space<workgroup>>
!Bs = memref<32x128xf16, #gpu.address_space<workgroup>>
!Cl = memref<128x128xf32, #gpu.address_space<private>>

// expected-error @below {{cluster=3 is not supported: use 1, 2, 4 or 8}}
module {
  func.func @gemm(%A: !A, %B: !A, %C: !A) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c8 = arith.constant 8 : index
    %c32 = arith.constant 32 : index
    %c128 = arith.constant 128 : index
    tile.kernel grid(%c2, %c2) threads(128) as (%bx, %by) {
      %A_s = tile.alloc_shared : !As
      %B_s = tile.alloc_shared : !Bs
      %C_l = tile.alloc_fragment : !Cl
      tile.clear %C_l : !Cl
      %row = arith.muli %by, %c128 : index
      %col = arith.muli %bx, %c128 : index
      tile.pipelined %c0 to %c8 step %c1 num_stages = 3 as (%k) {
        %ko = arith.muli %k, %c32 : index
        tile.copy %A[%row, %ko] to %A_s : !A to !As
        tile.copy %B[%ko, %col] to %B_s : !A to !Bs
        tile.gemm %A_s, %B_s, %C_l : !As, !Bs, !Cl
      }
      tile.copy %C_l to %C[%row, %col] : !Cl to !A
    }
    return
  }
}
