// RUN: tile-opt %s --tile-lower-to-nvgpu="chip=sm_90 cluster=2" -verify-diagnostics

// The blocks of a cluster share tiles through the TMA: without tma=true
// there is nothing to share.

// expected-error @below {{cluster=2 needs tma=true: the blocks of a cluster share tiles through TMA multicast}}
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
