// RUN: tile-opt %s --split-input-file --tile-lower-to-nvgpu="chip=sm_90 tma=true split-barriers=true" -cse -verify-diagnostics | FileCheck %s

// split-barriers=true: the barrier right before a group's TMA copies becomes
// named barrier 1 + group mod 8, at which warp 0 (whose thread 0 issues the
// copies right after) waits while the other warps arrive and run on. The
// barriers after the loop, which no copies follow, go: each thread waits for
// its data on the mbarrier itself.
// CHECK-LABEL: func.func @pipelined
// CHECK: gpu.func @pipelined_kernel
// CHECK: %[[WARP0:.*]] = arith.cmpi ult, %{{.*}}, %c32 : index
// CHECK: scf.for
// CHECK: nvgpu.mbarrier.try_wait.parity
// CHECK: %[[SLOT:.*]] = arith.andi %{{.*}}, %c7_i32{{.*}} : i32
// CHECK: %[[ID:.*]] = arith.addi %[[SLOT]], %c1_i32 : i32
// CHECK: scf.if %[[WARP0]] {
// CHECK-NEXT: nvvm.barrier id = %[[ID]] number_of_threads = %c128_i32
// CHECK-NEXT: } else {
// CHECK-NEXT: nvvm.barrier.arrive id = %[[ID]] number_of_threads = %c128_i32
// CHECK-NEXT: }
// CHECK-NEXT: scf.if %[[WARP0]] {
// CHECK: nvgpu.tma.async.load
// CHECK: nvgpu.mbarrier.arrive.expect_tx
// CHECK: scf.yield
// CHECK-NOT: {{nvvm.barrier|gpu.barrier}}
// CHECK: gpu.return
func.func @pipelined(%A: memref<4096x32xf16>) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c32 = arith.constant 32 : index
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

// A kernel that also writes a shared tile itself (tile.clear) keeps every
// barrier CTA-wide: one may order those writes.
// CHECK-LABEL: func.func @generic_write
// CHECK-NOT: nvvm.barrier
// CHECK: gpu.return
func.func @generic_write(%A: memref<4096x32xf16>) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c32 = arith.constant 32 : index
  %c128 = arith.constant 128 : index
  // expected-remark @below {{barriers stay CTA-wide (split-barriers): the kernel writes shared memory other than through tile.copy_async, and a barrier may order those writes}}
  tile.kernel grid(%c32) threads(128) as (%bx) {
    %a = tile.alloc_shared : memref<2x128x32xf16, #gpu.address_space<workgroup>>
    %s = tile.alloc_shared : memref<128x32xf16, #gpu.address_space<workgroup>>
    %a0 = memref.subview %a[0, 0, 0] [1, 128, 32] [1, 1, 1] : memref<2x128x32xf16, #gpu.address_space<workgroup>> to memref<128x32xf16, strided<[32, 1]>, #gpu.address_space<workgroup>>
    tile.clear %s : memref<128x32xf16, #gpu.address_space<workgroup>>
    tile.copy_async %A[%c0, %c0] to %a0 : memref<4096x32xf16> to memref<128x32xf16, strided<[32, 1]>, #gpu.address_space<workgroup>>
    tile.commit_group
    scf.for %k = %c2 to %c32 step %c2 {
      %v = arith.remui %k, %c2 : index
      %row = arith.muli %k, %c128 : index
      %av = memref.subview %a[%v, 0, 0] [1, 128, 32] [1, 1, 1] : memref<2x128x32xf16, #gpu.address_space<workgroup>> to memref<128x32xf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
      tile.wait_group 0
      tile.barrier
      tile.copy_async %A[%row, %c0] to %av : memref<4096x32xf16> to memref<128x32xf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
      tile.commit_group
    }
    tile.wait_group 0
    tile.barrier
  }
  return
}

// -----

// Eight groups in flight: a warp could come round to a named barrier again
// before warp 0 has waited there, so nothing is split.
// CHECK-LABEL: func.func @deep
// CHECK-NOT: nvvm.barrier
// CHECK: gpu.return
func.func @deep(%A: memref<4096x32xf16>) {
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  // expected-remark @below {{barriers stay CTA-wide (split-barriers): more groups are in flight than there are named barriers to split them with}}
  tile.kernel grid(%c32) threads(128) as (%bx) {
    %a = tile.alloc_shared : memref<128x32xf16, #gpu.address_space<workgroup>>
    tile.copy_async %A[%c0, %c0] to %a : memref<4096x32xf16> to memref<128x32xf16, #gpu.address_space<workgroup>>
    tile.commit_group
    tile.commit_group
    tile.commit_group
    tile.commit_group
    tile.commit_group
    tile.commit_group
    tile.commit_group
    tile.commit_group
    tile.wait_group 0
    tile.barrier
    tile.copy_async %A[%c0, %c0] to %a : memref<4096x32xf16> to memref<128x32xf16, #gpu.address_space<workgroup>>
    tile.commit_group
    tile.wait_group 0
    tile.barrier
  }
  return
}
// -----

// Two barriers before the copies of one group: only the first splits. Both
// would take the group's id, and a warp arriving there twice counts as two
// warps, so warp 0 could pass before every warp has arrived.
// CHECK-LABEL: func.func @two_barriers
// CHECK: scf.for
// CHECK: scf.if %[[WARP0:.*]] {
// CHECK-NEXT: nvvm.barrier id = %[[ID:.*]] number_of_threads = %c128_i32
// CHECK-NEXT: } else {
// CHECK-NEXT: nvvm.barrier.arrive id = %[[ID]] number_of_threads = %c128_i32
// CHECK-NEXT: }
// CHECK: nvgpu.tma.async.load
// CHECK-NOT: nvvm.barrier
// CHECK: gpu.barrier
// CHECK-NOT: nvvm.barrier
// CHECK: nvgpu.tma.async.load
// CHECK: gpu.return
func.func @two_barriers(%A: memref<4096x32xf16>, %B: memref<4096x32xf16>) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c32 = arith.constant 32 : index
  %c128 = arith.constant 128 : index
  tile.kernel grid(%c32) threads(128) as (%bx) {
    %a = tile.alloc_shared : memref<2x128x32xf16, #gpu.address_space<workgroup>>
    %b = tile.alloc_shared : memref<2x128x32xf16, #gpu.address_space<workgroup>>
    %a0 = memref.subview %a[0, 0, 0] [1, 128, 32] [1, 1, 1] : memref<2x128x32xf16, #gpu.address_space<workgroup>> to memref<128x32xf16, strided<[32, 1]>, #gpu.address_space<workgroup>>
    %b0 = memref.subview %b[0, 0, 0] [1, 128, 32] [1, 1, 1] : memref<2x128x32xf16, #gpu.address_space<workgroup>> to memref<128x32xf16, strided<[32, 1]>, #gpu.address_space<workgroup>>
    tile.copy_async %A[%c0, %c0] to %a0 : memref<4096x32xf16> to memref<128x32xf16, strided<[32, 1]>, #gpu.address_space<workgroup>>
    tile.copy_async %B[%c0, %c0] to %b0 : memref<4096x32xf16> to memref<128x32xf16, strided<[32, 1]>, #gpu.address_space<workgroup>>
    tile.commit_group
    scf.for %k = %c2 to %c32 step %c2 {
      %v = arith.remui %k, %c2 : index
      %row = arith.muli %k, %c128 : index
      %av = memref.subview %a[%v, 0, 0] [1, 128, 32] [1, 1, 1] : memref<2x128x32xf16, #gpu.address_space<workgroup>> to memref<128x32xf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
      %bv = memref.subview %b[%v, 0, 0] [1, 128, 32] [1, 1, 1] : memref<2x128x32xf16, #gpu.address_space<workgroup>> to memref<128x32xf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
      tile.wait_group 0
      tile.barrier
      tile.copy_async %A[%row, %c0] to %av : memref<4096x32xf16> to memref<128x32xf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
      tile.barrier
      tile.copy_async %B[%row, %c0] to %bv : memref<4096x32xf16> to memref<128x32xf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
      tile.commit_group
    }
    tile.wait_group 0
    tile.barrier
  }
  return
}

// -----

// A kernel that writes global memory and reads it back (a value handed
// between threads) keeps every barrier CTA-wide: warps that only arrive at
// a split barrier could read the value before it is written.
// CHECK-LABEL: func.func @global_round_trip
// CHECK-NOT: nvvm.barrier
// CHECK: gpu.return
func.func @global_round_trip(%A: memref<4096x32xf16>, %P: memref<128xindex>, %Q: memref<128xindex>) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c32 = arith.constant 32 : index
  %c127 = arith.constant 127 : index
  %c128 = arith.constant 128 : index
  // expected-remark @below {{barriers stay CTA-wide (split-barriers): the kernel reads global memory other than through tile.copy_async, and a barrier may order another thread's write before those reads}}
  tile.kernel grid(%c32) threads(128) as (%bx) {
    %a = tile.alloc_shared : memref<2x128x32xf16, #gpu.address_space<workgroup>>
    %a0 = memref.subview %a[0, 0, 0] [1, 128, 32] [1, 1, 1] : memref<2x128x32xf16, #gpu.address_space<workgroup>> to memref<128x32xf16, strided<[32, 1]>, #gpu.address_space<workgroup>>
    %tid = gpu.thread_id x
    %mirror = arith.subi %c127, %tid : index
    tile.copy_async %A[%c0, %c0] to %a0 : memref<4096x32xf16> to memref<128x32xf16, strided<[32, 1]>, #gpu.address_space<workgroup>>
    tile.commit_group
    scf.for %k = %c2 to %c32 step %c2 {
      %v = arith.remui %k, %c2 : index
      %row = arith.muli %k, %c128 : index
      %av = memref.subview %a[%v, 0, 0] [1, 128, 32] [1, 1, 1] : memref<2x128x32xf16, #gpu.address_space<workgroup>> to memref<128x32xf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
      memref.store %k, %P[%tid] : memref<128xindex>
      tile.wait_group 0
      tile.barrier
      %y = memref.load %P[%mirror] : memref<128xindex>
      memref.store %y, %Q[%tid] : memref<128xindex>
      tile.copy_async %A[%row, %c0] to %av : memref<4096x32xf16> to memref<128x32xf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
      tile.commit_group
    }
    tile.wait_group 0
    tile.barrier
  }
  return
}
