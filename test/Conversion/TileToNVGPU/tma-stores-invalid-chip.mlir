// RUN: tile-opt %s --tile-lower-to-nvgpu="chip=sm_89 tma-store=true" -verify-diagnostics

// TMA stores exist from sm_90 on.

// expected-error @below {{tma-store=true needs sm_90 or newer (the Tensor Memory Accelerator), not sm_89}}
module {
  func.func @looped(%C: memref<1000x256xf16>) {
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %c8 = arith.constant 8 : index
    %c128 = arith.constant 128 : index
    tile.kernel grid(%c2) threads(128) as (%bx) {
      %F = tile.alloc_fragment : memref<128x128xf32, #gpu.address_space<private>>
      scf.for %t = %bx to %c8 step %c2 {
        tile.clear %F : memref<128x128xf32, #gpu.address_space<private>>
        %row = arith.muli %t, %c128 : index
        tile.copy %F to %C[%row, %c0] : memref<128x128xf32, #gpu.address_space<private>> to memref<1000x256xf16>
      }
    }
    return
  }
}
