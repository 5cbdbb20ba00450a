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
// CHECK: gpu.func @destination_varies_kernel
// CHECK: nvgpu.tma.async.load
// CHECK: gpu.func @wait_varies_kernel
// CHECK: nvgpu.tma.async.load
// CHECK: gpu.func @guarded_kernel
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

// In the grouped order the pair walks along a column: an odd number of rows
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
  // expected-remark @below {{blocks stay unclustered (cluster=2): a copy, commit or wait runs under control flow that depends on the block index, so the blocks of a cluster could disagree on the barriers they wait at}}
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
  // expected-remark @below {{blocks stay unclustered (cluster=2): no copy loads the same tile into the same place in two blocks of a cluster}}
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
  // expected-remark @below {{blocks stay unclustered (cluster=2): a copy, commit or wait runs under control flow that depends on the block index, so the blocks of a cluster could disagree on the barriers they wait at}}
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

// -----

// The pair loads the same tile of B, but each block puts it into version
// (k + by) mod 2 of its own buffer: multicast writes a box to the same
// address in every block of the cluster, so the partner's copy would land
// in the wrong version.
func.func @destination_varies(%B: memref<256x512xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %c128 = arith.constant 128 : index
  // expected-remark @below {{blocks stay unclustered (cluster=2): no copy loads the same tile into the same place in two blocks of a cluster}}
  tile.kernel grid(%c4, %c4) threads(128) as (%bx, %by) {
    %b = tile.alloc_shared : memref<2x32x128xf16, #gpu.address_space<workgroup>>
    %col = arith.muli %bx, %c128 : index
    scf.for %k = %c0 to %c8 step %c1 {
      %kk = arith.muli %k, %c32 : index
      %kv = arith.addi %k, %by : index
      %v = arith.remui %kv, %c2 : index
      %bv = memref.subview %b[%v, 0, 0] [1, 32, 128] [1, 1, 1] : memref<2x32x128xf16, #gpu.address_space<workgroup>> to memref<32x128xf16, strided<[128, 1], offset: ?>, #gpu.address_space<workgroup>>
      tile.barrier
      tile.copy_async %B[%kk, %col] to %bv : memref<256x512xf16> to memref<32x128xf16, strided<[128, 1], offset: ?>, #gpu.address_space<workgroup>>
      tile.commit_group
      tile.wait_group 0
      tile.barrier
    }
  }
  return
}

// -----

// Only the blocks with by = 0 wait for the first group early. The copies
// are the same everywhere, but a wait under a condition on the block index
// gives the blocks of a pair different group numbers, and so different
// mbarriers for the boxes they multicast to each other.
func.func @wait_varies(%B: memref<256x512xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %c128 = arith.constant 128 : index
  // expected-remark @below {{blocks stay unclustered (cluster=2): a copy, commit or wait runs under control flow that depends on the block index, so the blocks of a cluster could disagree on the barriers they wait at}}
  tile.kernel grid(%c4, %c4) threads(128) as (%bx, %by) {
    %b0 = tile.alloc_shared : memref<32x128xf16, #gpu.address_space<workgroup>>
    %b = tile.alloc_shared : memref<32x128xf16, #gpu.address_space<workgroup>>
    %col = arith.muli %bx, %c128 : index
    tile.copy_async %B[%c0, %col] to %b0 : memref<256x512xf16> to memref<32x128xf16, #gpu.address_space<workgroup>>
    tile.commit_group
    %first = arith.cmpi eq, %by, %c0 : index
    scf.if %first {
      tile.wait_group 0
    }
    scf.for %k = %c1 to %c8 step %c1 {
      %kk = arith.muli %k, %c32 : index
      tile.barrier
      tile.copy_async %B[%kk, %col] to %b : memref<256x512xf16> to memref<32x128xf16, #gpu.address_space<workgroup>>
      tile.commit_group
      tile.wait_group 0
      tile.barrier
    }
  }
  return
}

// -----

// Copies guarded by a condition (a trip count known only at run time, as the
// software pipeline guards a prologue's steps): the blocks of a cluster
// must issue the same copies, so the kernel stays unclustered but keeps the
// TMA. It used to fall back to cp.async with a remark that the copy was not
// followed by its commit.
func.func @guarded(%A: memref<512x256xf16>, %K: memref<?xf16>) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %n = memref.dim %K, %c0 : memref<?xf16>
  // expected-remark @below {{blocks stay unclustered (cluster=2): some copies are guarded by a condition (a trip count known only at run time), and the blocks of a cluster must issue the same copies}}
  tile.kernel grid(%c4, %c4) threads(128) as (%bx, %by) {
    %a = tile.alloc_shared : memref<128x32xf16, #gpu.address_space<workgroup>>
    %some = arith.cmpi sgt, %n, %c0 : index
    scf.if %some {
      tile.copy_async %A[%c0, %c0] to %a : memref<512x256xf16> to memref<128x32xf16, #gpu.address_space<workgroup>>
    }
    tile.commit_group
    tile.wait_group 0
    tile.barrier
  }
  return
}

// -----

// No async copies: nothing for the TMA to share, and the request to
// cluster is answered.
func.func @no_async_copies(%A: memref<512x256xf16>) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  // expected-remark @below {{blocks stay unclustered (cluster=2): the kernel has no async copies (a pipelined loop makes them) for the TMA to share}}
  tile.kernel grid(%c4, %c4) threads(128) as (%bx, %by) {
    %a = tile.alloc_shared : memref<128x32xf16, #gpu.address_space<workgroup>>
    tile.copy %A[%c0, %c0] to %a : memref<512x256xf16> to memref<128x32xf16, #gpu.address_space<workgroup>>
  }
  return
}

// -----

// Rows of 2040 bytes, which a tensor map cannot stride: the copies stay
// cp.async, and the blocks unclustered.
func.func @copies_stay_cp_async(%A: memref<512x1020xf16>) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  // expected-remark @below {{blocks stay unclustered (cluster=2): its async copies stay cp.async, not the TMA}}
  tile.kernel grid(%c4, %c4) threads(128) as (%bx, %by) {
    %a = tile.alloc_shared : memref<128x32xf16, #gpu.address_space<workgroup>>
    // expected-remark @below {{async copies stay cp.async, not the TMA}}
    tile.copy_async %A[%c0, %c0] to %a : memref<512x1020xf16> to memref<128x32xf16, #gpu.address_space<workgroup>>
    tile.commit_group
    tile.wait_group 0
    tile.barrier
  }
  return
}
