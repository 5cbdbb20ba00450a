// RUN: tile-opt %s --split-input-file --tile-lower-to-nvgpu="chip=sm_90 tma=true cluster=4 cluster-cols=2" -verify-diagnostics
// RUN: tile-opt %s --split-input-file --tile-lower-to-nvgpu="chip=sm_90 tma=true cluster=4 cluster-cols=2" -cse 2>/dev/null \
// RUN:   | FileCheck %s

// Kernels that cannot run in 2 x 2 patches keep one block per cluster, with
// a remark that says why; a copy that depends on both block indices stays
// each block's own.
// CHECK-LABEL: gpu.func @one_dimensional_kernel
// CHECK-NOT: multicast_mask
// CHECK-LABEL: gpu.func @odd_rows_kernel
// CHECK-NOT: multicast_mask
// CHECK-LABEL: gpu.func @nothing_shared_kernel
// CHECK-NOT: multicast_mask
// CHECK-LABEL: gpu.func @diagonal_kernel
// CHECK-SAME: nvvm.cluster_dim = array<i32: 4, 1, 1>
// CHECK: nvgpu.tma.async.load {{.*}} to %{{[^ ]*}}, predicate = %{{.*}} : <tensor = memref<64x64xf16
// CHECK: nvgpu.tma.async.load {{.*}} multicast_mask = %{{.*}}, predicate = %{{.*}} : <tensor = memref<32x64xf16
// CHECK: nvgpu.tma.async.load {{.*}} multicast_mask = %{{.*}}, predicate = %{{.*}} : <tensor = memref<32x64xf16
// CHECK-NOT: multicast_mask
// CHECK: gpu.return

// A patch has rows and columns only in a two-dimensional grid.
func.func @one_dimensional(%A: memref<512x256xf16>) {
  %c4 = arith.constant 4 : index
  %c32 = arith.constant 32 : index
  // expected-remark @below {{blocks stay unclustered (cluster=4): clusters of more than one column (cluster-cols=2) need a two-dimensional grid in the grouped block order}}
  tile.kernel grid(%c4) threads(128) as (%bx) {
    %a = tile.alloc_shared : memref<128x32xf16, #gpu.address_space<workgroup>>
    tile.copy_async %A[%c32, %c32] to %a : memref<512x256xf16> to memref<128x32xf16, #gpu.address_space<workgroup>>
    tile.commit_group
    tile.wait_group 0
    tile.barrier
  }
  return
}

// -----

// Three rows of blocks do not split into patches of two rows.
func.func @odd_rows(%A: memref<512x256xf16>) {
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c32 = arith.constant 32 : index
  %c128 = arith.constant 128 : index
  // expected-remark @below {{blocks stay unclustered (cluster=4): in the grouped block order (block-group=8) the 2 rows of a cluster lie in one group only when the group and the grid's y size (3) are multiples of 2}}
  tile.kernel grid(%c4, %c3) threads(128) as (%bx, %by) {
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

// A tile at (by, bx) is every block's own: no two blocks of a patch load it.
func.func @nothing_shared(%A: memref<512x512xf16>) {
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  // expected-remark @below {{blocks stay unclustered (cluster=4): no copy loads the same tile into the same place in two blocks of a cluster}}
  tile.kernel grid(%c4, %c4) threads(128) as (%bx, %by) {
    %a = tile.alloc_shared : memref<64x64xf16, #gpu.address_space<workgroup>>
    %row = arith.muli %by, %c64 : index
    %col = arith.muli %bx, %c64 : index
    tile.copy_async %A[%row, %col] to %a : memref<512x512xf16> to memref<64x64xf16, #gpu.address_space<workgroup>>
    tile.commit_group
    tile.wait_group 0
    tile.barrier
  }
  return
}

// -----

// Beside such a tile, B's tile (which depends on the column only) is still
// shared by the blocks of each column.
func.func @diagonal(%A: memref<512x512xf16>, %B: memref<256x512xf16>) {
  %c4 = arith.constant 4 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  tile.kernel grid(%c4, %c4) threads(128) as (%bx, %by) {
    %a = tile.alloc_shared : memref<64x64xf16, #gpu.address_space<workgroup>>
    %b = tile.alloc_shared : memref<32x128xf16, #gpu.address_space<workgroup>>
    %row = arith.muli %by, %c64 : index
    %col = arith.muli %bx, %c64 : index
    tile.copy_async %A[%row, %col] to %a : memref<512x512xf16> to memref<64x64xf16, #gpu.address_space<workgroup>>
    tile.copy_async %B[%c32, %col] to %b : memref<256x512xf16> to memref<32x128xf16, #gpu.address_space<workgroup>>
    tile.commit_group
    tile.wait_group 0
    tile.barrier
  }
  return
}
