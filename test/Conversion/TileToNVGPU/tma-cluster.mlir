// RUN: tile-opt %s --split-input-file --tile-lower-to-nvgpu="chip=sm_90 tma=true cluster=2" -cse | FileCheck %s
// RUN: tile-opt %s --split-input-file --tile-lower-to-nvgpu="chip=sm_90 tma=true cluster=2 block-group=1" -cse | FileCheck %s --check-prefix=ROWS
// RUN: tile-opt %s --split-input-file --tile-lower-to-nvgpu="chip=sm_90 tma=true cluster=4" -cse | FileCheck %s --check-prefix=FOUR
// RUN: tile-opt %s --split-input-file --tile-lower-to-nvgpu="chip=sm_90 tma=true cluster=4 cluster-cols=2" -cse | FileCheck %s --check-prefix=PATCH

// cluster=2: blocks run in clusters of two along hardware x. In the grouped
// block order (block-group=8) the two are neighbours in y, so B's tile,
// whose coordinates do not depend on %by, is the same in both: each block
// issues one of its two boxes into both blocks' shared memory (multicast
// mask 0b11), block rank 0 the first and rank 1 the second, while A's tile
// stays per block. Each block's mbarrier still expects the whole group's
// 16384 bytes. A relaxed cluster barrier takes the place of the barrier right
// before the copies, and one follows the mbarrier initialization and ends
// the kernel. No block barrier is left: the one after the step's wait only
// kept the next copies from overwriting data still being read (every thread
// waits for the data on the mbarrier itself), and the cluster barrier before
// those copies orders the block's threads too.
// CHECK-LABEL: func.func @pipelined
// CHECK: gpu.launch_func
// CHECK-SAME: cluster = array<i32: 2, 1, 1>
// CHECK: gpu.func @pipelined_kernel
// CHECK-SAME: nvvm.cluster_dim = array<i32: 2, 1, 1>
// CHECK: %[[LEADER:.*]] = arith.cmpi eq, %thread_id_x, %c0 : index
// CHECK: %[[RANK:.*]] = nvvm.read.ptx.sreg.cluster.ctarank : i32
// CHECK: %[[IS0:.*]] = arith.cmpi eq, %[[RANK]], %c0_i32 : i32
// CHECK: %[[RANK0:.*]] = arith.andi %[[LEADER]], %[[IS0]] : i1
// CHECK: %[[IS1:.*]] = arith.cmpi eq, %[[RANK]], %c1_i32 : i32
// CHECK: %[[RANK1:.*]] = arith.andi %[[LEADER]], %[[IS1]] : i1
// CHECK: nvvm.fence.mbarrier.init
// CHECK-NEXT: nvvm.cluster.arrive.relaxed {aligned}
// CHECK-NEXT: nvvm.cluster.wait {aligned}
// CHECK-NOT: gpu.barrier
// CHECK: scf.for
// CHECK-NOT: gpu.barrier
// CHECK: nvvm.cluster.arrive.relaxed {aligned}
// CHECK-NEXT: nvvm.cluster.wait {aligned}
// CHECK-NEXT: scf.if
// CHECK: nvgpu.tma.async.load %{{.*}} to %{{[^ ]*}}, predicate = %[[LEADER]] : <tensor = memref<128x32xf16
// CHECK: nvgpu.tma.async.load %{{.*}} multicast_mask = %c3_i16, predicate = %[[RANK0]] : <tensor = memref<32x64xf16
// CHECK: nvgpu.tma.async.load %{{.*}} multicast_mask = %c3_i16, predicate = %[[RANK1]] : <tensor = memref<32x64xf16
// CHECK: nvgpu.mbarrier.arrive.expect_tx %{{.*}}, %c16384, predicate = %[[LEADER]]
// CHECK: nvgpu.mbarrier.try_wait.parity
// CHECK-NOT: gpu.barrier
// CHECK: scf.yield
// CHECK-NOT: gpu.barrier
// CHECK: nvvm.cluster.arrive.relaxed {aligned}
// CHECK-NEXT: nvvm.cluster.wait {aligned}
// CHECK-NEXT: gpu.return

// In hardware order (block-group=1) the two blocks are neighbours in x and
// share A's tile (one box, issued by rank 0) instead.
// ROWS-LABEL: func.func @pipelined
// ROWS: %[[LEADER:.*]] = arith.cmpi eq, %thread_id_x, %c0 : index
// ROWS: %[[RANK:.*]] = nvvm.read.ptx.sreg.cluster.ctarank : i32
// ROWS: %[[IS0:.*]] = arith.cmpi eq, %[[RANK]], %c0_i32 : i32
// ROWS: %[[RANK0:.*]] = arith.andi %[[LEADER]], %[[IS0]] : i1
// ROWS: scf.if
// ROWS: nvgpu.tma.async.load %{{.*}} multicast_mask = %c3_i16, predicate = %[[RANK0]] : <tensor = memref<128x32xf16
// ROWS: nvgpu.tma.async.load %{{.*}} to %{{[^ ]*}}, predicate = %[[LEADER]] : <tensor = memref<32x64xf16
// ROWS: nvgpu.tma.async.load %{{.*}} to %{{[^ ]*}}, predicate = %[[LEADER]] : <tensor = memref<32x64xf16

// cluster=4: the four blocks of a column (a group of 8 rows holds two such
// clusters) share B's tile; its two boxes go to ranks 0 and 1, and each
// reaches all four blocks (mask 0b1111).
// FOUR-LABEL: func.func @pipelined
// FOUR: gpu.launch_func
// FOUR-SAME: cluster = array<i32: 4, 1, 1>
// FOUR: gpu.func @pipelined_kernel
// FOUR-SAME: nvvm.cluster_dim = array<i32: 4, 1, 1>
// FOUR: %[[LEADER:.*]] = arith.cmpi eq, %thread_id_x, %c0 : index
// FOUR: %[[RANK:.*]] = nvvm.read.ptx.sreg.cluster.ctarank : i32
// FOUR: %[[IS0:.*]] = arith.cmpi eq, %[[RANK]], %c0_i32 : i32
// FOUR: %[[RANK0:.*]] = arith.andi %[[LEADER]], %[[IS0]] : i1
// FOUR: %[[IS1:.*]] = arith.cmpi eq, %[[RANK]], %c1_i32 : i32
// FOUR: %[[RANK1:.*]] = arith.andi %[[LEADER]], %[[IS1]] : i1
// FOUR: scf.if
// FOUR: nvgpu.tma.async.load %{{.*}} to %{{[^ ]*}}, predicate = %[[LEADER]] : <tensor = memref<128x32xf16
// FOUR: nvgpu.tma.async.load %{{.*}} multicast_mask = %c15_i16, predicate = %[[RANK0]] : <tensor = memref<32x64xf16
// FOUR: nvgpu.tma.async.load %{{.*}} multicast_mask = %c15_i16, predicate = %[[RANK1]] : <tensor = memref<32x64xf16
// FOUR: nvgpu.mbarrier.arrive.expect_tx %{{.*}}, %c16384, predicate = %[[LEADER]]

// cluster=4 cluster-cols=2: the four blocks compute a 2 x 2 patch of tiles,
// in the order the hardware numbers the ranks: rank r is row r mod 2 and
// column r / 2 of the patch. The block order walks the grid's 2 x 2 patches
// in the grouped order of a grid of patches (4 rows of them per group), each
// index mirrored to start at the far corner. A's tile depends on the row
// only: the two blocks of a row (ranks r mod 2 + 2j) share it, and its one
// box is issued by the row's block in column 0, multicast to ranks 0b0101
// shifted by the row. B's tile depends on the column only: its two boxes go
// to the column's two blocks (rows 0 and 1), multicast to 0b0011 shifted to
// the column's first rank. Each block still expects all 16384 bytes.
// PATCH-LABEL: func.func @pipelined
// PATCH: gpu.launch_func
// PATCH-SAME: cluster = array<i32: 4, 1, 1>
// PATCH: gpu.func @pipelined_kernel
// PATCH: %[[GX:.*]] = gpu.grid_dim x
// PATCH: %[[GY:.*]] = gpu.grid_dim y
// PATCH: %[[ID:.*]] = arith.addi
// PATCH: %[[IN:.*]] = arith.remui %[[ID]], %c4 : index
// PATCH: %[[PATCH:.*]] = arith.divui %[[ID]], %c4 : index
// PATCH: %[[PGX:.*]] = arith.divui %[[GX]], %c2 : index
// PATCH: %[[PGY:.*]] = arith.divui %[[GY]], %c2 : index
// PATCH: %[[PERGROUP:.*]] = arith.muli %[[PGX]], %c4 : index
// PATCH: %[[PX2:.*]] = arith.muli %{{.*}}, %c2 : index
// PATCH-NEXT: %[[COL:.*]] = arith.divui %[[IN]], %c2 : index
// PATCH-NEXT: %[[X:.*]] = arith.addi %[[PX2]], %[[COL]] : index
// PATCH-NEXT: %[[PY2:.*]] = arith.muli %{{.*}}, %c2 : index
// PATCH-NEXT: %[[ROW:.*]] = arith.remui %[[IN]], %c2 : index
// PATCH-NEXT: %[[Y:.*]] = arith.addi %[[PY2]], %[[ROW]] : index
// PATCH: %[[LASTX:.*]] = arith.subi %[[GX]], %c1 overflow<nsw, nuw> : index
// PATCH: %[[BX:.*]] = arith.subi %[[LASTX]], %[[X]] overflow<nsw, nuw> : index
// PATCH: %[[LASTY:.*]] = arith.subi %[[GY]], %c1 overflow<nsw, nuw> : index
// PATCH: %[[BY:.*]] = arith.subi %[[LASTY]], %[[Y]] overflow<nsw, nuw> : index
// PATCH: %[[LEADER:.*]] = arith.cmpi eq, %thread_id_x, %c0 : index
// PATCH: %[[RANK:.*]] = nvvm.read.ptx.sreg.cluster.ctarank : i32
// PATCH: %[[RROW:.*]] = arith.remui %[[RANK]], %c2_i32 : i32
// PATCH: %[[RCOL:.*]] = arith.divui %[[RANK]], %c2_i32 : i32
// PATCH: %[[FIRST:.*]] = arith.subi %[[RANK]], %[[RROW]] : i32
// PATCH: %[[CBITS:.*]] = arith.shli %c3_i32, %[[FIRST]] : i32
// PATCH: %[[CMASK:.*]] = arith.trunci %[[CBITS]] : i32 to i16
// PATCH: %[[RBITS:.*]] = arith.shli %c5_i32, %[[RROW]] : i32
// PATCH: %[[RMASK:.*]] = arith.trunci %[[RBITS]] : i32 to i16
// PATCH: %[[ISROW0:.*]] = arith.cmpi eq, %[[RROW]], %c0_i32 : i32
// PATCH: %[[ROW0:.*]] = arith.andi %[[LEADER]], %[[ISROW0]] : i1
// PATCH: %[[ISROW1:.*]] = arith.cmpi eq, %[[RROW]], %c1_i32 : i32
// PATCH: %[[ROW1:.*]] = arith.andi %[[LEADER]], %[[ISROW1]] : i1
// PATCH: %[[ISCOL0:.*]] = arith.cmpi eq, %[[RCOL]], %c0_i32 : i32
// PATCH: %[[COL0:.*]] = arith.andi %[[LEADER]], %[[ISCOL0]] : i1
// PATCH: %[[AROW:.*]] = arith.muli %[[BY]], %c128 : index
// PATCH: %[[BCOL:.*]] = arith.muli %[[BX]], %c128 : index
// PATCH: scf.for
// PATCH: nvvm.cluster.arrive.relaxed {aligned}
// PATCH-NEXT: nvvm.cluster.wait {aligned}
// PATCH-NEXT: scf.if
// PATCH: nvgpu.tma.async.load %{{.*}}[%{{.*}}, %[[AROW]]], {{.*}} multicast_mask = %[[RMASK]], predicate = %[[COL0]] : <tensor = memref<128x32xf16
// PATCH-NOT: <tensor = memref<128x32xf16
// PATCH: nvgpu.tma.async.load %{{.*}}[%[[BCOL]], %{{.*}}], {{.*}} multicast_mask = %[[CMASK]], predicate = %[[ROW0]] : <tensor = memref<32x64xf16
// PATCH: nvgpu.tma.async.load %{{.*}} multicast_mask = %[[CMASK]], predicate = %[[ROW1]] : <tensor = memref<32x64xf16
// PATCH: nvgpu.mbarrier.arrive.expect_tx %{{.*}}, %c16384, predicate = %[[LEADER]]

func.func @pipelined(%A: memref<512x256xf16>, %B: memref<256x512xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %c128 = arith.constant 128 : index
  tile.kernel grid(%c4, %c4) threads(128) as (%bx, %by) {
    %a = tile.alloc_shared : memref<2x128x32xf16, #gpu.address_space<workgroup>>
    %b = tile.alloc_shared : memref<2x32x128xf16, #gpu.address_space<workgroup>>
    %row = arith.muli %by, %c128 : index
    %col = arith.muli %bx, %c128 : index
    scf.for %k = %c0 to %c8 step %c1 {
      %v = arith.remui %k, %c2 : index
      %kk = arith.muli %k, %c32 : index
      %av = memref.subview %a[%v, 0, 0] [1, 128, 32] [1, 1, 1] : memref<2x128x32xf16, #gpu.address_space<workgroup>> to memref<128x32xf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
      %bv = memref.subview %b[%v, 0, 0] [1, 32, 128] [1, 1, 1] : memref<2x32x128xf16, #gpu.address_space<workgroup>> to memref<32x128xf16, strided<[128, 1], offset: ?>, #gpu.address_space<workgroup>>
      tile.barrier
      tile.copy_async %A[%row, %kk] to %av : memref<512x256xf16> to memref<128x32xf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
      tile.copy_async %B[%kk, %col] to %bv : memref<256x512xf16> to memref<32x128xf16, strided<[128, 1], offset: ?>, #gpu.address_space<workgroup>>
      tile.commit_group
      tile.wait_group 0
      tile.barrier
    }
  }
  return
}

// -----

// A kernel that writes shared memory itself keeps the barrier before the
// copies (a relaxed cluster barrier does not order those writes) and adds
// the cluster barrier after it.
// CHECK-LABEL: func.func @shared_writes
// CHECK: scf.for
// CHECK: gpu.barrier
// CHECK-NEXT: nvvm.cluster.arrive.relaxed {aligned}
// CHECK-NEXT: nvvm.cluster.wait {aligned}
// CHECK-NEXT: scf.if
// CHECK: nvgpu.tma.async.load
func.func @shared_writes(%A: memref<512x256xf16>, %B: memref<256x512xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %c128 = arith.constant 128 : index
  tile.kernel grid(%c4, %c4) threads(128) as (%bx, %by) {
    %s = tile.alloc_shared : memref<32x128xf16, #gpu.address_space<workgroup>>
    %b = tile.alloc_shared : memref<32x128xf16, #gpu.address_space<workgroup>>
    %col = arith.muli %bx, %c128 : index
    tile.clear %s : memref<32x128xf16, #gpu.address_space<workgroup>>
    scf.for %k = %c0 to %c8 step %c1 {
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

// The interior and edge versions of tile-specialize-interior-blocks branch on
// the block index, but trace alike (the same copies, groups and barriers),
// so a block and its partner meet at the same cluster barriers whichever
// version each runs: both versions multicast B's boxes.
// CHECK-LABEL: func.func @versions
// CHECK: gpu.launch_func
// CHECK-SAME: cluster = array<i32: 2, 1, 1>
// CHECK: scf.if
// CHECK: nvvm.cluster.arrive.relaxed
// CHECK: multicast_mask = %c3_i16
// CHECK: } else {
// CHECK: nvvm.cluster.arrive.relaxed
// CHECK: multicast_mask = %c3_i16
// CHECK: nvvm.cluster.arrive.relaxed
// CHECK-NEXT: nvvm.cluster.wait
// CHECK-NEXT: gpu.return
func.func @versions(%A: memref<500x256xf16>, %B: memref<256x504xf16>) {
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c32 = arith.constant 32 : index
  %c128 = arith.constant 128 : index
  tile.kernel grid(%c4, %c4) threads(128) as (%bx, %by) {
    %a = tile.alloc_shared : memref<128x32xf16, #gpu.address_space<workgroup>>
    %b = tile.alloc_shared : memref<32x128xf16, #gpu.address_space<workgroup>>
    %inx = arith.cmpi ult, %bx, %c3 : index
    %iny = arith.cmpi ult, %by, %c3 : index
    %in = arith.andi %inx, %iny : i1
    scf.if %in {
      %row = arith.muli %by, %c128 : index
      %col = arith.muli %bx, %c128 : index
      tile.copy_async %A[%row, %c32] to %a : memref<500x256xf16> to memref<128x32xf16, #gpu.address_space<workgroup>>
      tile.copy_async %B[%c32, %col] to %b : memref<256x504xf16> to memref<32x128xf16, #gpu.address_space<workgroup>>
      tile.commit_group
      tile.wait_group 0
      tile.barrier
    } else {
      %row = arith.muli %by, %c128 : index
      %col = arith.muli %bx, %c128 : index
      tile.copy_async %A[%row, %c32] to %a : memref<500x256xf16> to memref<128x32xf16, #gpu.address_space<workgroup>>
      tile.copy_async %B[%c32, %col] to %b : memref<256x504xf16> to memref<32x128xf16, #gpu.address_space<workgroup>>
      tile.commit_group
      tile.wait_group 0
      tile.barrier
    } {tile.block_versions}
  }
  return
}

// -----

// A grid computed on the host from constants (ceildiv) is as good as a
// constant one: 4x4 blocks, whose pairs share B.
// CHECK-LABEL: func.func @host_grid
// CHECK: gpu.launch_func
// CHECK-SAME: cluster = array<i32: 2, 1, 1>
// CHECK: multicast_mask = %c3_i16
func.func @host_grid(%A: memref<512x256xf16>, %B: memref<256x512xf16>) {
  %c32 = arith.constant 32 : index
  %c128 = arith.constant 128 : index
  %n = arith.constant 512 : index
  %gx = arith.ceildivui %n, %c128 : index
  tile.kernel grid(%gx, %gx) threads(128) as (%bx, %by) {
    %b = tile.alloc_shared : memref<32x128xf16, #gpu.address_space<workgroup>>
    %col = arith.muli %bx, %c128 : index
    tile.copy_async %B[%c32, %col] to %b : memref<256x512xf16> to memref<32x128xf16, #gpu.address_space<workgroup>>
    tile.commit_group
    tile.wait_group 0
    tile.barrier
  }
  return
}
