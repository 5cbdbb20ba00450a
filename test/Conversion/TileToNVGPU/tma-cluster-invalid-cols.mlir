// RUN: tile-opt %s --split-input-file --tile-lower-to-nvgpu="chip=sm_90 tma=true cluster=4 cluster-cols=3" -verify-diagnostics
// RUN: not tile-opt %s --tile-lower-to-nvgpu="chip=sm_90 tma=true cluster=2 cluster-cols=4" 2>&1 | FileCheck %s --check-prefix=WIDER
// RUN: not tile-opt %s --tile-lower-to-nvgpu="chip=sm_90 cluster-cols=2" 2>&1 | FileCheck %s --check-prefix=NOCLUSTER

// A cluster is cluster / cluster-cols rows of cluster-cols blocks: the
// columns must divide the cluster, and be 1, 2, 4 or 8 (3 was said not to
// divide a cluster of 4, and given without a cluster, not to divide 1).

// WIDER: error: cluster-cols=4 does not divide cluster=2: a cluster is cluster / cluster-cols rows of cluster-cols blocks{{$}}
// NOCLUSTER: error: cluster-cols=2 does not divide cluster=1: a cluster is cluster / cluster-cols rows of cluster-cols blocks (cluster is 1 where not given: give it with tma=true)

// expected-error @below {{cluster-cols=3 is not supported: use 1, 2, 4 or 8}}
module {
  func.func @copy(%A: memref<1024x64xf16>) {
    %c0 = arith.constant 0 : index
    %c4 = arith.constant 4 : index
    tile.kernel grid(%c4, %c4) threads(64) as (%bx, %by) {
      %a = tile.alloc_shared : memref<64x64xf16, #gpu.address_space<workgroup>>
      tile.copy_async %A[%c0, %c0] to %a : memref<1024x64xf16> to memref<64x64xf16, #gpu.address_space<workgroup>>
      tile.commit_group
      tile.wait_group 0
      tile.barrier
    }
    return
  }
}
