// RUN: tile-opt %s --tile-to-ptx="chip=sm_90 tma=true cluster=4 cluster-cols=2 block-group=1" -verify-diagnostics

// In row-major block order the blocks of a cluster are hardware neighbours
// in x, one row of the grid: patches of several columns need the grouped
// order. tile-to-ptx checks the option before any pass runs.

// expected-error @below {{cluster-cols=2 needs the grouped block order (block-group > 1): in row-major order the blocks of a cluster are one row}}
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
