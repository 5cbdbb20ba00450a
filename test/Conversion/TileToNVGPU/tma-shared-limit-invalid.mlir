// RUN: tile-opt %s --tile-lower-to-nvgpu="chip=sm_90 tma=true" -verify-diagnostics

// The tiles take exactly the 232448 bytes sm_90 allows (what
// tile-smem-budget counts), but the TMA copy's mbarriers come on top: 1024
// bytes of static shared memory. The error names both parts.
func.func @mbarriers_over_the_limit(%A: memref<64x64xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{kernel needs 233472 bytes of shared memory but sm_90 allows 232448 per block (232448 for its tiles, 1024 for the mbarriers of its TMA copies)}}
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %s = tile.alloc_shared : memref<16x64xf16, #gpu.address_space<workgroup>>
    %x = tile.alloc_shared : memref<240x480xf16, #gpu.address_space<workgroup>>
    tile.clear %x : memref<240x480xf16, #gpu.address_space<workgroup>>
    tile.copy_async %A[%c0, %c0] to %s : memref<64x64xf16> to memref<16x64xf16, #gpu.address_space<workgroup>>
    tile.commit_group
    tile.wait_group 0
    tile.barrier
  }
  return
}
