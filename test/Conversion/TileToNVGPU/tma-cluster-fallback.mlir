// RUN: tile-opt %s --split-input-file --tile-lower-to-nvgpu="chip=sm_90 tma=true cluster=2" -verify-diagnostics
// RUN: tile-opt %s --split-input-file --tile-lower-to-nvgpu="chip=sm_90 tma=true cluster=2" 2>/dev/null \
// RUN:   | FileCheck %s --implicit-check-not=nvvm.cluster --implicit-check-not=multicast_mask

// Kernels that cannot run in clusters of two keep one block per cluster
// (their TMA copies stay as they are), with a remark that says why.
// CHECK: gpu.func @odd_x_kernel
// CHECK: nvgpu.tma.async.load
// CHECK: gpu.func @odd_y_kernel
// CHECK: nvgpu.tma.async.load
// CHECK: gpu.func @divergent_kernel
// CHECK: nvgpu.tma.async.load
// CHECK: gpu.func @nothing_shared_kernel
// CHECK: nvgpu.tma.async.load
// CHECK: gpu.func @versions_differ_kernel
// CHECK: nvgpu.tma.async.load

// Hardware blocks 2i and 2i + 1 along x form a cluster: an odd x size would
// leave the last block without a partner.
func.func @odd_x(%A: memref<512x256xf16>) {
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c32 = arith.constant 32 : index
  %c128 = arith.constant 128 : index
  // expected-remark @below {{blocks stay unclustered (cluster=2): the grid's x size, 3, is not a multiple of 2: clusters of 2 blocks along x must tile it}}
  tile.kernel grid(%c3, %c4) threads(128) as (%bx, %by) {
    %a = tile.alloc_shared : memref<128x32xf16, #gpu.address_space<workgroup>>
    %row = arith.muli %by, %c128 : index
    tile.copy_async %A[%row, %c32] to %a : memref<512x256xf16> to memref<128x32xf16, #gpu.address_space<workgroup>>
    tile.commit_group
    tile.wait_group 0
    tile.barrier
  }
  return
}

// -----

// In the grouped order the pair walks down a column: an odd number of rows
// would pair the last row of one column with the first of the next.
func.func @odd_y(%A: memref<512x256xf16>) {
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c32 = arith.constant 32 : index
  %c128 = arith.constant 128 : index
  // expected-remark @below {{blocks stay unclustered (cluster=2): in the grouped block order (block-group=8) the 2 blocks of a cluster share a column only when the group and the grid's y size (3) are multiples of 2}}
  tile.kernel grid(%c4, %c3) threads(128) as (%bx, %by) {
    %a = tile.alloc_shared : memref<128x32xf16, #gpu.address_space<workgroup>>
    %col = arith.muli %bx, %c128 : index
    tile.copy_async %A[%col, %c32] to %a : memref<512x256xf16> to memref<128x32xf16, #gpu.address_space<workgroup>>
    tile.commit_group
    tile.wait_group 0
    tile.barrier
  }
  return
}

// -----

// The two blocks of a cluster differ in %by here; a copy under a condition
// on it could run in one block and not in the other, and the cluster
// barrier before it would never complete.
func.func @divergent(%A: memref<512x256xf16>) {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c32 = arith.constant 32 : index
  %c128 = arith.constant 128 : index
  // expected-remark @below {{blocks stay unclustered (cluster=2): a copy runs under control flow that depends on the block index, so the blocks of a cluster could disagree on the barriers they wait at}}
  tile.kernel grid(%c4, %c4) threads(128) as (%bx, %by) {
    %a = tile.alloc_shared : memref<128x32xf16, #gpu.address_space<workgroup>>
    %col = arith.muli %bx, %c128 : index
    %first = arith.cmpi ult, %by, %c1 : index
    scf.if %first {
      tile.copy_async %A[%col, %c32] to %a : memref<512x256xf16> to memref<128x32xf16, #gpu.address_space<workgroup>>
      tile.commit_group
    }
    tile.wait_group 0
    tile.barrier
  }
  return
}

// -----

// Without the grouped order (a one-dimensional grid) the pair differs in
// %bx, and the only copy depends on it.
func.func @nothing_shared(%A: memref<512x256xf16>) {
  %c4 = arith.constant 4 : index
  %c32 = arith.constant 32 : index
  %c128 = arith.constant 128 : index
  // expected-remark @below {{blocks stay unclustered (cluster=2): no copy loads the same tile in every block of a cluster}}
  tile.kernel grid(%c4) threads(128) as (%bx) {
    %a = tile.alloc_shared : memref<128x32xf16, #gpu.address_space<workgroup>>
    %row = arith.muli %bx, %c128 : index
    tile.copy_async %A[%row, %c32] to %a : memref<512x256xf16> to memref<128x32xf16, #gpu.address_space<workgroup>>
    tile.commit_group
    tile.wait_group 0
    tile.barrier
  }
  return
}

// -----

// Branches marked as versions of one body must still trace alike: here one
// commits a group more, so the blocks of a cluster would disagree on the
// mbarrier phases.
func.func @versions_differ(%A: memref<512x256xf16>) {
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c32 = arith.constant 32 : index
  %c128 = arith.constant 128 : index
  // expected-remark @below {{blocks stay unclustered (cluster=2): a copy runs under control flow that depends on the block index, so the blocks of a cluster could disagree on the barriers they wait at}}
  tile.kernel grid(%c4, %c4) threads(128) as (%bx, %by) {
    %a = tile.alloc_shared : memref<128x32xf16, #gpu.address_space<workgroup>>
    %col = arith.muli %bx, %c128 : index
    %first = arith.cmpi ult, %by, %c1 : index
    scf.if %first {
      tile.copy_async %A[%col, %c32] to %a : memref<512x256xf16> to memref<128x32xf16, #gpu.address_space<workgroup>>
      tile.commit_group
      tile.commit_group
    } else {
      tile.copy_async %A[%col, %c32] to %a : memref<512x256xf16> to memref<128x32xf16, #gpu.address_space<workgroup>>
      tile.commit_group
    } {tile.block_versions}
    tile.wait_group 0
    tile.barrier
  }
  return
}
