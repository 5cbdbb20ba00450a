// RUN: tile-opt %s --tile-lower-to-nvgpu="chip=sm_80 tma=true" -verify-diagnostics
// RUN: tile-opt %s --tile-lower-to-nvgpu="chip=sm_86 tma=false" | FileCheck %s

// The TMA exists from sm_90 on; without tma the same module lowers to
// cp.async.
// CHECK: nvgpu.device_async_copy

// expected-error @below {{tma=true needs sm_90 or newer (the Tensor Memory Accelerator), not sm_80}}
module {
  func.func @copy(%A: memref<1024x64xf16>) {
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    tile.kernel grid(%c2) threads(64) as (%bx) {
      %a = tile.alloc_shared : memref<64x64xf16, #gpu.address_space<workgroup>>
      tile.copy_async %A[%c0, %c0] to %a : memref<1024x64xf16> to memref<64x64xf16, #gpu.address_space<workgroup>>
      tile.commit_group
      tile.wait_group 0
      tile.barrier
    }
    return
  }
}
