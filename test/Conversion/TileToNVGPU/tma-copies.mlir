// RUN: tile-opt %s --split-input-file --tile-lower-to-nvgpu="chip=sm_90 tma=true" -cse | FileCheck %s
// No cp.async is left in the first kernel, from its signature to its return:
// RUN: tile-opt %s --split-input-file --tile-lower-to-nvgpu="chip=sm_90 tma=true" -cse | FileCheck %s --check-prefix=NOCP
// NOCP-LABEL: gpu.func @ab_kernel
// NOCP-NOT: {{nvgpu.device_async_copy|nvvm.cp.async}}
// NOCP: gpu.return

// A two-stage loop of the seed's tiles with tma=true. On the host, one tensor
// map per operand: A's 128x32 tile has 64-byte rows, swizzled as the TMA's
// 64B pattern, in one box; B's 32x128 tile is two 128-byte panels, each a
// 32x64 box with the 128B swizzle. The maps follow the memrefs as pointer
// parameters, and the launch description names them.
// CHECK-LABEL: func.func @ab(
// CHECK-SAME: %[[A:.*]]: memref<4096x4096xf16>, %[[B:.*]]: memref<4096x4096xf16>)
// CHECK: %[[UA:.*]] = memref.cast %[[A]] : memref<4096x4096xf16> to memref<*xf16>
// CHECK: %[[MA:.*]] = nvgpu.tma.create.descriptor %[[UA]] box[%c128, %c32] {{.*}}tensor = memref<128x32xf16, #gpu.address_space<workgroup>>, swizzle = swizzle_64b, l2promo = l2promo_128b, oob = zero
// CHECK: %[[UB:.*]] = memref.cast %[[B]]
// CHECK: %[[MB:.*]] = nvgpu.tma.create.descriptor %[[UB]] box[%c32, %c64] {{.*}}tensor = memref<32x64xf16, #gpu.address_space<workgroup>>, swizzle = swizzle_128b
// CHECK: %[[PA:.*]] = builtin.unrealized_conversion_cast %[[MA]] {{.*}} to !llvm.ptr
// CHECK: %[[PB:.*]] = builtin.unrealized_conversion_cast %[[MB]] {{.*}} to !llvm.ptr
// CHECK: gpu.launch_func @tile_kernels::@ab_kernel
// CHECK-SAME: args(%[[A]] : memref<4096x4096xf16>, %[[B]] : memref<4096x4096xf16>, %[[PA]] : !llvm.ptr, %[[PB]] : !llvm.ptr)
// CHECK-SAME: tensormaps = ["A 128x32 swizzle 64", "B 32x64 swizzle 128"]

// In the kernel: thread 0 initializes 8 mbarriers (at most 2 groups are in
// flight, after a commit and before the wait: 2 * (2 + 1) rounded up to a
// power of two) and prefetches the maps. Step k's group is number k (the
// counters are iter_args), so its boxes and its arrival use mbarrier k mod 8. A's box sits at (column k*32,
// row 128*by); B's two panels at columns 128*bx and 128*bx + 64, 2048
// elements apart in the tile; the arrival expects 8192 + 2 * 4096 bytes.
// The loop enters with no group in flight and ends each step with one, so
// how many groups a wait retires depends on the step: the wait is a loop
// that retires every group up to the last but one, in every thread, at
// parity (g / 8) mod 2; a last wait before the kernel ends retires the rest.
// Thread 0's boxes and arrival sit in one scf.if on warp 0, a branch the
// other warps take as a whole.
// The kernel lists the maps' parameters for tile-tensormap-params.
// CHECK: gpu.func @ab_kernel(%{{.*}}: memref<4096x4096xf16>, %{{.*}}: memref<4096x4096xf16>, %[[DA:.*]]: !llvm.ptr, %[[DB:.*]]: !llvm.ptr) kernel
// CHECK-SAME: tile.tensormap_params = array<i64: 2, 3>
// CHECK-DAG: %[[TA:.*]] = builtin.unrealized_conversion_cast %[[DA]] : !llvm.ptr to !nvgpu.tensormap.descriptor
// CHECK-DAG: %[[TB:.*]] = builtin.unrealized_conversion_cast %[[DB]] : !llvm.ptr to !nvgpu.tensormap.descriptor
// CHECK: %[[TID:.*]] = gpu.thread_id x
// CHECK: %[[LEAD:.*]] = arith.cmpi eq, %[[TID]], %c0
// CHECK: %[[WARP0:.*]] = arith.cmpi ult, %[[TID]], %c32
// CHECK: %[[BARS:.*]] = nvgpu.mbarrier.create -> <memorySpace = #gpu.address_space<workgroup>, num_barriers = 8>
// CHECK: nvgpu.mbarrier.init %[[BARS]][%c0], %c1, predicate = %[[LEAD]]
// CHECK: nvgpu.mbarrier.init %[[BARS]][%c7], %c1, predicate = %[[LEAD]]
// CHECK: nvvm.fence.mbarrier.init
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: nvgpu.tma.prefetch.descriptor %[[TA]], predicate = %[[LEAD]]
// CHECK-NEXT: nvgpu.tma.prefetch.descriptor %[[TB]], predicate = %[[LEAD]]
// CHECK: %[[ROW:.*]] = arith.muli %{{.*}}, %c128
// CHECK: %[[COL:.*]] = arith.muli %{{.*}}, %c128
// CHECK: %[[LOOP:.*]]:2 = scf.for %[[K:.*]] = %c0 to %c128 step %c1 iter_args(%[[COMMITTED:.*]] = %c0_i32, %[[WAITED:.*]] = %c0_i32) -> (i32, i32)
// CHECK: %[[KO:.*]] = arith.muli %[[K]], %c32
// CHECK: scf.if %[[WARP0]] {
// CHECK: %[[VOFF:.*]] = arith.muli %{{.*}}, %c4096
// CHECK: %[[SLOT32:.*]] = arith.andi %[[COMMITTED]], %c7_i32
// CHECK: %[[SLOT:.*]] = arith.index_castui %[[SLOT32]] : i32 to index
// CHECK: %[[DSTA:.*]] = memref.reinterpret_cast %{{.*}} to offset: [%[[VOFF]]], sizes: [128, 32], strides: [32, 1]
// CHECK: nvgpu.tma.async.load %[[TA]][%[[KO]], %[[ROW]]], %[[BARS]][%[[SLOT]]] to %[[DSTA]], predicate = %[[LEAD]]
// CHECK: %[[DSTB0:.*]] = memref.reinterpret_cast %{{.*}} to offset: [%[[VOFF]]], sizes: [32, 64], strides: [64, 1]
// CHECK: nvgpu.tma.async.load %[[TB]][%[[COL]], %[[KO]]], %[[BARS]][%[[SLOT]]] to %[[DSTB0]], predicate = %[[LEAD]]
// CHECK: %[[P1:.*]] = arith.addi %[[VOFF]], %c2048
// CHECK: %[[DSTB1:.*]] = memref.reinterpret_cast %{{.*}} to offset: [%[[P1]]], sizes: [32, 64]
// CHECK: %[[COL1:.*]] = arith.addi %[[COL]], %c64
// CHECK: nvgpu.tma.async.load %[[TB]][%[[COL1]], %[[KO]]], %[[BARS]][%[[SLOT]]] to %[[DSTB1]], predicate = %[[LEAD]]
// CHECK: nvgpu.mbarrier.arrive.expect_tx %[[BARS]][%[[SLOT]]], %c16384, predicate = %[[LEAD]]
// CHECK-NEXT: }
// CHECK: %[[NEXT:.*]] = arith.addi %[[COMMITTED]], %[[ONE:.*]] : i32
// CHECK: %[[LAST:.*]] = arith.subi %[[NEXT]], %c2_i32
// CHECK: %[[W:.*]] = scf.while (%[[G:.*]] = %[[WAITED]]) : (i32) -> i32 {
// CHECK: arith.cmpi sle, %[[G]], %[[LAST]]
// CHECK: } do {
// CHECK: ^bb0(%[[G2:.*]]: i32):
// CHECK: %[[PH:.*]] = arith.shrui %[[G2]], %c3_i32
// CHECK: %[[PAR:.*]] = arith.andi %[[PH]], %[[ONE]]
// CHECK: %[[BIT:.*]] = arith.trunci %[[PAR]] : i32 to i1
// CHECK: %[[GS32:.*]] = arith.andi %[[G2]], %c7_i32
// CHECK: %[[GS:.*]] = arith.index_castui %[[GS32]] : i32 to index
// CHECK: nvgpu.mbarrier.try_wait.parity %[[BARS]][%[[GS]]], %[[BIT]],
// CHECK: gpu.barrier
// CHECK: scf.yield %[[NEXT]], %[[W]] : i32, i32
// CHECK: %[[END:.*]] = arith.subi %[[LOOP]]#0, %c1_i32
// CHECK: scf.while (%[[G3:.*]] = %[[LOOP]]#1)
// CHECK: arith.cmpi sle, %[[G3]], %[[END]]
// CHECK: nvgpu.mbarrier.try_wait.parity
// CHECK: gpu.return
func.func @ab(%A: memref<4096x4096xf16>, %B: memref<4096x4096xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c32 = arith.constant 32 : index
  %c128 = arith.constant 128 : index
  tile.kernel grid(%c32, %c32) threads(128) as (%bx, %by) {
    %a = tile.alloc_shared : memref<2x128x32xf16, #gpu.address_space<workgroup>>
    %b = tile.alloc_shared : memref<2x32x128xf16, #gpu.address_space<workgroup>>
    %row = arith.muli %by, %c128 : index
    %col = arith.muli %bx, %c128 : index
    scf.for %k = %c0 to %c128 step %c1 {
      %v = arith.remui %k, %c2 : index
      %ko = arith.muli %k, %c32 : index
      %av = memref.subview %a[%v, 0, 0] [1, 128, 32] [1, 1, 1] : memref<2x128x32xf16, #gpu.address_space<workgroup>> to memref<128x32xf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
      %bv = memref.subview %b[%v, 0, 0] [1, 32, 128] [1, 1, 1] : memref<2x32x128xf16, #gpu.address_space<workgroup>> to memref<32x128xf16, strided<[128, 1], offset: ?>, #gpu.address_space<workgroup>>
      tile.copy_async %A[%row, %ko] to %av : memref<4096x4096xf16> to memref<128x32xf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
      tile.copy_async %B[%ko, %col] to %bv : memref<4096x4096xf16> to memref<32x128xf16, strided<[128, 1], offset: ?>, #gpu.address_space<workgroup>>
      tile.commit_group
      tile.wait_group 1
      tile.barrier
    }
  }
  return
}

// -----

// Groups inside an scf.if (the interior-block versioning): both branches
// count their commits, and the if yields the counters. A tile of 16-byte
// rows (8 f16) keeps the identity layout: no swizzle. The wait after the if
// starts from the counters the if yields. The barrier after it goes: no
// copy follows, and each thread waits for the data on the mbarrier itself.
// CHECK-LABEL: func.func @branches
// CHECK: nvgpu.tma.create.descriptor %{{.*}} box[%c64, %c8] {{.*}}swizzle = none
// CHECK: gpu.func @branches_kernel
// CHECK: nvgpu.mbarrier.create -> <memorySpace = #gpu.address_space<workgroup>, num_barriers = 4>
// CHECK: %[[IF:.*]]:2 = scf.if %{{.*}} -> (i32, i32) {
// CHECK: nvgpu.tma.async.load
// CHECK: nvgpu.mbarrier.arrive.expect_tx %{{.*}}, %c1024,
// CHECK: scf.yield %{{.*}}, %c0_i32 : i32, i32
// CHECK: } else {
// CHECK: nvgpu.tma.async.load
// CHECK: nvgpu.tma.async.load
// CHECK: nvgpu.mbarrier.arrive.expect_tx %{{.*}}, %c2048,
// CHECK: scf.yield %{{.*}}, %c0_i32 : i32, i32
// CHECK: }
// Both branches leave one group in flight, so the wait_group 0 after the if
// retires exactly one, group IF#1, without a loop.
// CHECK: %[[PH:.*]] = arith.shrui %[[IF]]#1, %c2_i32
// CHECK: %[[GS:.*]] = arith.andi %[[IF]]#1, %c3_i32
// CHECK-NOT: scf.while
// CHECK: nvgpu.mbarrier.try_wait.parity
// CHECK-NEXT: gpu.return
func.func @branches(%A: memref<1024x8xf16>) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  tile.kernel grid(%c2) threads(64) as (%bx) {
    %a = tile.alloc_shared : memref<64x8xf16, #gpu.address_space<workgroup>>
    %b = tile.alloc_shared : memref<64x8xf16, #gpu.address_space<workgroup>>
    %row = arith.muli %bx, %c64 : index
    %first = arith.cmpi eq, %bx, %c0 : index
    scf.if %first {
      tile.copy_async %A[%row, %c0] to %a : memref<1024x8xf16> to memref<64x8xf16, #gpu.address_space<workgroup>>
      tile.commit_group
    } else {
      tile.copy_async %A[%row, %c0] to %a : memref<1024x8xf16> to memref<64x8xf16, #gpu.address_space<workgroup>>
      tile.copy_async %A[%c0, %c0] to %b : memref<1024x8xf16> to memref<64x8xf16, #gpu.address_space<workgroup>>
      tile.commit_group
    }
    tile.wait_group 0
    tile.barrier
  }
  return
}

// -----

// A tensor whose sizes are known only at run time, its rows promised a
// multiple of 8 f16 (16 bytes: the tensor map's row pitch may be any such
// multiple): the map is made over the memref as it is, the launch encodes it
// from the shape it is given, and the kernel's copies are TMA boxes. The
// grid's blocks past the tensor's rows load boxes that the TMA clips.
// CHECK-LABEL: func.func @dynamic_sizes(
// CHECK-SAME: %[[A:.*]]: memref<?x?xf16> {tile.divisibility = 8 : i64})
// CHECK: %[[UA:.*]] = memref.cast %[[A]] : memref<?x?xf16> to memref<*xf16>
// CHECK: nvgpu.tma.create.descriptor %[[UA]] box[%c128, %c32] {{.*}}tensor = memref<128x32xf16, #gpu.address_space<workgroup>>, swizzle = swizzle_64b
// CHECK: gpu.launch_func @tile_kernels::@dynamic_sizes_kernel
// CHECK-SAME: tensormaps = ["A 128x32 swizzle 64"]
// CHECK: gpu.func @dynamic_sizes_kernel(
// CHECK: nvgpu.tma.async.load
// CHECK-NOT: nvgpu.device_async_copy
// CHECK: gpu.return
func.func @dynamic_sizes(%A: memref<?x?xf16> {tile.divisibility = 8 : i64}) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c128 = arith.constant 128 : index
  %M = memref.dim %A, %c0 : memref<?x?xf16>
  %g = arith.ceildivui %M, %c128 : index
  tile.kernel grid(%g) threads(128) as (%bx) {
    %a = tile.alloc_shared : memref<128x32xf16, #gpu.address_space<workgroup>>
    %row = arith.muli %bx, %c128 : index
    tile.copy_async %A[%row, %c0] to %a : memref<?x?xf16> to memref<128x32xf16, #gpu.address_space<workgroup>>
    tile.commit_group
    tile.wait_group 0
    tile.barrier
  }
  return
}

// -----

// A prologue's steps guarded by the trip count (a K known only at run time,
// fewer steps than the pipeline's depth): each copy sits alone in an scf.if
// before the group's commit. Thread 0 issues its boxes under the condition,
// and the group's arrival expects its bytes where the condition holds and
// none where it does not, so that a group whose copies were skipped
// completes its phase on the arrival alone.
// CHECK-LABEL: gpu.func @guarded_kernel
// CHECK: %[[C:.*]] = arith.cmpi ult, %c1, %{{.*}} : index
// CHECK: scf.if %[[C]]
// CHECK: nvgpu.tma.async.load
// CHECK: %[[BYTES:.*]] = arith.select %[[C]], %c8192, %c0 : index
// CHECK: nvgpu.mbarrier.arrive.expect_tx %{{.*}}[%{{.*}}], %[[BYTES]]
// CHECK-NOT: nvgpu.device_async_copy
// CHECK: gpu.return
func.func @guarded(%A: memref<?x?xf16> {tile.divisibility = 8 : i64}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c32 = arith.constant 32 : index
  %K = memref.dim %A, %c1 : memref<?x?xf16>
  %kt = arith.ceildivui %K, %c32 : index
  tile.kernel grid(%c2) threads(128) as (%bx) {
    %a = tile.alloc_shared : memref<128x32xf16, #gpu.address_space<workgroup>>
    %in = arith.cmpi ult, %c1, %kt : index
    scf.if %in {
      tile.copy_async %A[%c0, %c32] to %a : memref<?x?xf16> to memref<128x32xf16, #gpu.address_space<workgroup>>
    }
    tile.commit_group
    tile.wait_group 0
    tile.barrier
  }
  return
}

// -----

// The software pipeline's shape: a prologue commits two groups, each step of
// the steady state waits for all but one and commits one more, and the
// drain waits for the rest. Every step starts with 2 groups in flight and
// ends with 2, so the count is known everywhere: each wait retires a fixed
// number of groups in straight-line code (one per step, one and then the
// last before the kernel ends), with no scf.while.
// CHECK-LABEL: gpu.func @pipelined_kernel
// CHECK-NOT: scf.while
// CHECK: %[[LOOP:.*]]:2 = scf.for {{.*}} iter_args(%[[C:.*]] = %c2_i32, %[[W:.*]] = %c0_i32) -> (i32, i32)
// CHECK: %[[GS:.*]] = arith.andi %[[W]], %c7_i32{{.*}}
// CHECK: %[[SLOT:.*]] = arith.index_castui %[[GS]]
// CHECK: nvgpu.mbarrier.try_wait.parity %{{.*}}[%[[SLOT]]]
// CHECK-NEXT: %[[W1:.*]] = arith.addi %[[W]], %c1_i32{{.*}}
// CHECK-NEXT: gpu.barrier
// CHECK: nvgpu.mbarrier.arrive.expect_tx
// CHECK: %[[C1:.*]] = arith.addi %[[C]], %c1_i32{{.*}}
// CHECK: scf.yield %[[C1]], %[[W1]] : i32, i32
// CHECK: arith.andi %[[LOOP]]#1, %c7_i32{{.*}}
// CHECK: nvgpu.mbarrier.try_wait.parity
// CHECK: %[[NEXT:.*]] = arith.addi %[[LOOP]]#1, %c1_i32{{.*}}
// CHECK: arith.andi %[[NEXT]], %c7_i32{{.*}}
// CHECK: nvgpu.mbarrier.try_wait.parity
// CHECK-NOT: nvgpu.mbarrier.try_wait.parity
// CHECK: gpu.return
func.func @pipelined(%A: memref<4096x32xf16>) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c32 = arith.constant 32 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  tile.kernel grid(%c32) threads(128) as (%bx) {
    %a = tile.alloc_shared : memref<3x128x32xf16, #gpu.address_space<workgroup>>
    %a0 = memref.subview %a[0, 0, 0] [1, 128, 32] [1, 1, 1] : memref<3x128x32xf16, #gpu.address_space<workgroup>> to memref<128x32xf16, strided<[32, 1]>, #gpu.address_space<workgroup>>
    %a1 = memref.subview %a[1, 0, 0] [1, 128, 32] [1, 1, 1] : memref<3x128x32xf16, #gpu.address_space<workgroup>> to memref<128x32xf16, strided<[32, 1], offset: 4096>, #gpu.address_space<workgroup>>
    tile.copy_async %A[%c0, %c0] to %a0 : memref<4096x32xf16> to memref<128x32xf16, strided<[32, 1]>, #gpu.address_space<workgroup>>
    tile.commit_group
    tile.copy_async %A[%c128, %c0] to %a1 : memref<4096x32xf16> to memref<128x32xf16, strided<[32, 1], offset: 4096>, #gpu.address_space<workgroup>>
    tile.commit_group
    scf.for %k = %c2 to %c32 step %c3 {
      %v = arith.remui %k, %c3 : index
      %row = arith.muli %k, %c128 : index
      %av = memref.subview %a[%v, 0, 0] [1, 128, 32] [1, 1, 1] : memref<3x128x32xf16, #gpu.address_space<workgroup>> to memref<128x32xf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
      tile.wait_group 1
      tile.barrier
      tile.copy_async %A[%row, %c0] to %av : memref<4096x32xf16> to memref<128x32xf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
      tile.commit_group
    }
    tile.wait_group 1
    tile.barrier
    tile.wait_group 0
    tile.barrier
  }
  return
}

// -----

// The shape of a persistent loop: each trip waits for the group in flight
// and, if another trip follows, commits the next one (tile-persistent-blocks
// prefetches the next tile's first stages in a branch). The branch without
// the group commits an empty one instead (an arrival expecting 0 bytes), so
// one group is in flight after the if on both paths, every trip starts and
// ends with one, and the waits retire exactly one group in straight-line
// code, with no scf.while.
// CHECK-LABEL: gpu.func @persistent_kernel
// CHECK-NOT: scf.while
// CHECK: scf.for {{.*}} iter_args(%[[C:.*]] = %c1_i32, %[[W:.*]] = %c0_i32) -> (i32, i32)
// CHECK: arith.andi %[[W]], %c3_i32{{.*}}
// CHECK: nvgpu.mbarrier.try_wait.parity
// CHECK: %[[W1:.*]] = arith.addi %[[W]], %c1_i32{{.*}}
// CHECK: %[[IF:.*]]:2 = scf.if %{{.*}} -> (i32, i32) {
// CHECK: nvgpu.tma.async.load
// CHECK: nvgpu.mbarrier.arrive.expect_tx %{{.*}}, %c8192, predicate
// CHECK: %[[CT:.*]] = arith.addi %[[C]], %c1_i32{{.*}}
// CHECK: scf.yield %[[CT]], %[[W1]] : i32, i32
// CHECK: } else {
// CHECK-NOT: nvgpu.tma.async.load
// CHECK: nvgpu.mbarrier.arrive.expect_tx %{{.*}}, %c0, predicate
// CHECK: %[[CE:.*]] = arith.addi %[[C]], %c1_i32{{.*}}
// CHECK: scf.yield %[[CE]], %[[W1]] : i32, i32
// CHECK: scf.yield %[[IF]]#0, %[[IF]]#1 : i32, i32
// CHECK: nvgpu.mbarrier.try_wait.parity
// CHECK-NOT: scf.while
// CHECK: gpu.return
func.func @persistent(%A: memref<4096x32xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %c128 = arith.constant 128 : index
  tile.kernel grid(%c32) threads(128) as (%bx) {
    %a = tile.alloc_shared : memref<2x128x32xf16, #gpu.address_space<workgroup>>
    %a0 = memref.subview %a[0, 0, 0] [1, 128, 32] [1, 1, 1] : memref<2x128x32xf16, #gpu.address_space<workgroup>> to memref<128x32xf16, strided<[32, 1]>, #gpu.address_space<workgroup>>
    tile.copy_async %A[%c0, %c0] to %a0 : memref<4096x32xf16> to memref<128x32xf16, strided<[32, 1]>, #gpu.address_space<workgroup>>
    tile.commit_group
    scf.for %t = %c0 to %c8 step %c1 {
      tile.wait_group 0
      tile.barrier
      %next = arith.addi %t, %c1 : index
      %more = arith.cmpi ult, %next, %c8 : index
      scf.if %more {
        %v = arith.remui %next, %c1 : index
        %row = arith.muli %next, %c128 : index
        %av = memref.subview %a[%v, 0, 0] [1, 128, 32] [1, 1, 1] : memref<2x128x32xf16, #gpu.address_space<workgroup>> to memref<128x32xf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
        tile.copy_async %A[%row, %c0] to %av : memref<4096x32xf16> to memref<128x32xf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
        tile.commit_group
      }
    }
    tile.wait_group 0
    tile.barrier
  }
  return
}

// -----

// Tiles that start 8 columns (16 bytes) early, as a K loop with a lead of 8
// writes: the innermost coordinate is a multiple of 16 bytes, so the copies
// keep the TMA, whose first box lies partly before the tensor (the tensor
// map's out-of-bounds fill gives zeros there). A lead of 2 would not
// (tma-copies-fallback.mlir).
// CHECK-LABEL: func.func @lead_column
// CHECK: gpu.func @lead_column_kernel
// CHECK: scf.for %[[K:[^ ]*]] = %c0 to %c2 step %c1
// CHECK: %[[KB:.*]] = arith.muli %[[K]], %c32
// CHECK: %[[KO:.*]] = arith.subi %[[KB]], %c8
// CHECK: nvgpu.tma.async.load %{{.*}}[%[[KO]], %c0]
func.func @lead_column(%A: memref<1024x64xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  tile.kernel grid(%c2) threads(64) as (%bx) {
    %a = tile.alloc_shared : memref<64x32xf16, #gpu.address_space<workgroup>>
    scf.for %k = %c0 to %c2 step %c1 {
      %kb = arith.muli %k, %c32 : index
      %ko = arith.subi %kb, %c8 : index
      tile.copy_async %A[%c0, %ko] to %a : memref<1024x64xf16> to memref<64x32xf16, #gpu.address_space<workgroup>>
      tile.commit_group
      tile.wait_group 0
      tile.barrier
    }
  }
  return
}

// -----

// A loop that commits one group and waits for all but 17: at most 18 groups
// in flight, so a ring of 64 mbarriers (twice that plus one, rounded up to a
// power of two). The bound takes 18 rounds through the loop to settle; the
// analysis used to give up after 16 and refuse the TMA.
// CHECK-LABEL: func.func @wait_17
// CHECK: nvgpu.mbarrier.create -> <memorySpace = #gpu.address_space<workgroup>, num_barriers = 64>
// CHECK: nvgpu.tma.async.load
func.func @wait_17(%A: memref<4096x32xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %a = tile.alloc_shared : memref<16x32xf16, #gpu.address_space<workgroup>>
    scf.for %k = %c0 to %c64 step %c1 {
      tile.wait_group 17
      tile.barrier
      tile.copy_async %A[%c0, %c0] to %a : memref<4096x32xf16> to memref<16x32xf16, #gpu.address_space<workgroup>>
      tile.commit_group
    }
    tile.wait_group 0
  }
  return
}

