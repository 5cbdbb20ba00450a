// RUN: tile-opt %s --tile-to-ptx="chip=sm_80 print-budget=false" -split-input-file -verify-diagnostics

// tile-lower-to-nvgpu's checks run after the pipelining rewrite has made
// scf.if guards, scf.for loops and tile.copy_async of the user's ops: their
// errors are at the user's op and do not name the op the rewrite made.

!A = memref<256x128xf16>
!B = memref<128x256xf16>
!C = memref<256x256xf16>
!As = memref<32x16xf16, #gpu.address_space<workgroup>>
!Bs = memref<16x32xf16, #gpu.address_space<workgroup>>
!Cl = memref<32x32xf32, #gpu.address_space<private>>

func.func @trip_count_from_atomic(%A: !A, %B: !B, %C: !C, %count: memref<1xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %one = arith.constant 1 : i32
  tile.kernel grid(%c1, %c1) threads(128) as (%bx, %by) {
    %A_s = tile.alloc_shared : !As
    %B_s = tile.alloc_shared : !Bs
    %C_l = tile.alloc_fragment : !Cl
    tile.clear %C_l : !Cl
    // expected-note @+1 {{'memref.atomic_rmw' is here}}
    %old = memref.atomic_rmw addi %one, %count[%c0] : (i32, memref<1xi32>) -> i32
    %steps = arith.index_cast %old : i32 to index
    // expected-error @+1 {{tile ops here depend on the result of 'memref.atomic_rmw'}}
    tile.pipelined %c0 to %steps step %c1 num_stages = 2 as (%k) {
      %ko = arith.muli %k, %c16 : index
      tile.copy %A[%c0, %ko] to %A_s : !A to !As
      tile.copy %B[%ko, %c0] to %B_s : !B to !Bs
      tile.gemm %A_s, %B_s, %C_l : !As, !Bs, !Cl
    }
    tile.copy %C_l to %C[%c0, %c0] : !Cl to !C
  }
  return
}

// -----

func.func @scalar_copy_pipelined(%A: memref<f16>, %C: memref<f16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : memref<f16, #gpu.address_space<workgroup>>
    tile.pipelined %c0 to %c4 step %c1 num_stages = 2 as (%k) {
      // expected-error @+1 {{a tile copy or clear of a memref of rank 0 is not supported by the GPU lowering}}
      tile.copy %A to %A_s : memref<f16> to memref<f16, #gpu.address_space<workgroup>>
      tile.copy %A_s to %C : memref<f16, #gpu.address_space<workgroup>> to memref<f16>
    }
  }
  return
}
