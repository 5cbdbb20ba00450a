// RUN: tile-opt %s --tile-lower-to-nvgpu="chip=sm_90 tma=true cluster=3" -verify-diagnostics

// Clusters hold 1, 2, 4 or 8 blocks (8 is the most every sm_90 GPU runs).

// expected-error @below {{cluster=3 is not supported: use 1, 2, 4 or 8}}
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
