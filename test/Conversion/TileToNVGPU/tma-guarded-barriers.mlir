// RUN: tile-opt %s --split-input-file --tile-lower-to-nvgpu="chip=sm_90 tma=true" -cse | FileCheck %s

// With TMA copies every thread waits for a group's data on the group's
// mbarrier itself, so a block barrier has one job left: to keep the copies
// after it from overwriting a buffer that some thread still reads. A barrier
// that another barrier follows on every path to a copy goes. In this
// unpipelined loop, the barrier after the wait is followed by the next
// iteration's barrier before its copies, and past the loop by the end of the
// kernel; the barrier before the copies stays.
// CHECK-LABEL: gpu.func @serial_kernel
// CHECK: scf.for
// CHECK: gpu.barrier
// CHECK-NEXT: scf.if
// CHECK: nvgpu.tma.async.load
// CHECK: nvgpu.mbarrier.try_wait.parity
// CHECK-NOT: gpu.barrier
// CHECK: gpu.return
func.func @serial(%A: memref<4096x32xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %c128 = arith.constant 128 : index
  tile.kernel grid(%c32) threads(128) as (%bx) {
    %a = tile.alloc_shared : memref<128x32xf16, #gpu.address_space<workgroup>>
    scf.for %k = %c0 to %c32 step %c1 {
      %row = arith.muli %k, %c128 : index
      tile.barrier
      tile.copy_async %A[%row, %c0] to %a : memref<4096x32xf16> to memref<128x32xf16, #gpu.address_space<workgroup>>
      tile.commit_group
      tile.wait_group 0
      tile.barrier
    }
  }
  return
}

// -----

// Without the barrier at the top, the one after the wait is all that keeps
// the next iteration's copies from overwriting the tile: it stays.
// CHECK-LABEL: gpu.func @unguarded_kernel
// CHECK: scf.for
// CHECK-NOT: gpu.barrier
// CHECK: nvgpu.tma.async.load
// CHECK: nvgpu.mbarrier.try_wait.parity
// CHECK: gpu.barrier
// CHECK-NEXT: scf.yield
func.func @unguarded(%A: memref<4096x32xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %c128 = arith.constant 128 : index
  tile.kernel grid(%c32) threads(128) as (%bx) {
    %a = tile.alloc_shared : memref<128x32xf16, #gpu.address_space<workgroup>>
    scf.for %k = %c0 to %c32 step %c1 {
      %row = arith.muli %k, %c128 : index
      tile.copy_async %A[%row, %c0] to %a : memref<4096x32xf16> to memref<128x32xf16, #gpu.address_space<workgroup>>
      tile.commit_group
      tile.wait_group 0
      tile.barrier
    }
  }
  return
}

// -----

// Past the loop a copy follows without a barrier, which the last iteration
// reaches from the barrier at the end of the body: that barrier stays, as
// does the one right before the body's copies.
// CHECK-LABEL: gpu.func @copy_after_loop_kernel
// CHECK: scf.for
// CHECK: gpu.barrier
// CHECK-NEXT: scf.if
// CHECK: nvgpu.tma.async.load
// CHECK: nvgpu.mbarrier.try_wait.parity
// CHECK: gpu.barrier
// CHECK-NEXT: scf.yield
// CHECK-NOT: gpu.barrier
// CHECK: nvgpu.tma.async.load
// CHECK: gpu.return
func.func @copy_after_loop(%A: memref<4096x32xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %c128 = arith.constant 128 : index
  tile.kernel grid(%c32) threads(128) as (%bx) {
    %a = tile.alloc_shared : memref<128x32xf16, #gpu.address_space<workgroup>>
    scf.for %k = %c0 to %c32 step %c1 {
      %row = arith.muli %k, %c128 : index
      tile.barrier
      tile.copy_async %A[%row, %c0] to %a : memref<4096x32xf16> to memref<128x32xf16, #gpu.address_space<workgroup>>
      tile.commit_group
      tile.wait_group 0
      tile.barrier
    }
    tile.copy_async %A[%c0, %c0] to %a : memref<4096x32xf16> to memref<128x32xf16, #gpu.address_space<workgroup>>
    tile.commit_group
    tile.wait_group 0
  }
  return
}

// -----

// A branch that copies without a barrier of its own leaves the barrier
// before it in place; the barrier after the last wait goes.
// CHECK-LABEL: gpu.func @branch_kernel
// CHECK: nvgpu.mbarrier.try_wait.parity
// CHECK-NEXT: gpu.barrier
// CHECK: scf.if
// CHECK: nvgpu.tma.async.load
// CHECK: nvgpu.mbarrier.try_wait.parity
// CHECK-NOT: gpu.barrier
// CHECK: gpu.return
func.func @branch(%A: memref<4096x32xf16>) {
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %c128 = arith.constant 128 : index
  tile.kernel grid(%c32) threads(128) as (%bx) {
    %a = tile.alloc_shared : memref<128x32xf16, #gpu.address_space<workgroup>>
    tile.copy_async %A[%c0, %c0] to %a : memref<4096x32xf16> to memref<128x32xf16, #gpu.address_space<workgroup>>
    tile.commit_group
    tile.wait_group 0
    tile.barrier
    %first = arith.cmpi eq, %bx, %c0 : index
    scf.if %first {
      tile.copy_async %A[%c128, %c0] to %a : memref<4096x32xf16> to memref<128x32xf16, #gpu.address_space<workgroup>>
      tile.commit_group
    }
    tile.wait_group 0
    tile.barrier
  }
  return
}

// -----

// A kernel that also writes shared memory itself keeps every barrier: they
// may order those writes.
// CHECK-LABEL: gpu.func @generic_writes_kernel
// CHECK: scf.for
// CHECK: gpu.barrier
// CHECK-NEXT: scf.if
// CHECK: nvgpu.tma.async.load
// CHECK: nvgpu.mbarrier.try_wait.parity
// CHECK: gpu.barrier
// CHECK-NEXT: scf.yield
func.func @generic_writes(%A: memref<4096x32xf16>, %B: memref<64x64xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %c128 = arith.constant 128 : index
  tile.kernel grid(%c32) threads(128) as (%bx) {
    %a = tile.alloc_shared : memref<128x32xf16, #gpu.address_space<workgroup>>
    %b = tile.alloc_shared : memref<64x64xf16, #gpu.address_space<workgroup>>
    tile.copy %B[%c0, %c0] to %b : memref<64x64xf16> to memref<64x64xf16, #gpu.address_space<workgroup>>
    scf.for %k = %c0 to %c32 step %c1 {
      %row = arith.muli %k, %c128 : index
      tile.barrier
      tile.copy_async %A[%row, %c0] to %a : memref<4096x32xf16> to memref<128x32xf16, #gpu.address_space<workgroup>>
      tile.commit_group
      tile.wait_group 0
      tile.barrier
    }
  }
  return
}

// -----

// The same loop as @serial in a kernel that also loads from global memory
// itself: a barrier may then order another thread's store before the load,
// so every barrier stays.
// CHECK-LABEL: gpu.func @global_reads_kernel
// CHECK: scf.for
// CHECK: gpu.barrier
// CHECK-NEXT: scf.if
// CHECK: nvgpu.tma.async.load
// CHECK: nvgpu.mbarrier.try_wait.parity
// CHECK: gpu.barrier
// CHECK-NEXT: scf.yield
// CHECK: memref.load
func.func @global_reads(%A: memref<4096x32xf16>, %B: memref<32xf16>, %C: memref<32xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %c128 = arith.constant 128 : index
  tile.kernel grid(%c32) threads(128) as (%bx) {
    %a = tile.alloc_shared : memref<128x32xf16, #gpu.address_space<workgroup>>
    scf.for %k = %c0 to %c32 step %c1 {
      %row = arith.muli %k, %c128 : index
      tile.barrier
      tile.copy_async %A[%row, %c0] to %a : memref<4096x32xf16> to memref<128x32xf16, #gpu.address_space<workgroup>>
      tile.commit_group
      tile.wait_group 0
      tile.barrier
    }
    %x = memref.load %B[%bx] : memref<32xf16>
    memref.store %x, %C[%bx] : memref<32xf16>
  }
  return
}

// -----

// A commit arms the next group's mbarrier, and the slot it arms was last
// waited for N groups earlier: a barrier between the waits and the commit
// keeps every thread within N groups of thread 0. Here the loop commits
// groups without copies, and its barrier, with no copy after it, is that
// barrier for the next iteration's commit: it stays.
// CHECK-LABEL: gpu.func @empty_groups_kernel
// CHECK: scf.for
// CHECK: nvgpu.mbarrier.arrive.expect_tx
// CHECK: nvgpu.mbarrier.try_wait.parity
// CHECK: gpu.barrier
// CHECK-NEXT: scf.yield
func.func @empty_groups(%A: memref<4096x32xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  tile.kernel grid(%c32) threads(128) as (%bx) {
    %a = tile.alloc_shared : memref<128x32xf16, #gpu.address_space<workgroup>>
    tile.copy_async %A[%c0, %c0] to %a : memref<4096x32xf16> to memref<128x32xf16, #gpu.address_space<workgroup>>
    tile.commit_group
    scf.for %i = %c0 to %c16 step %c1 {
      tile.commit_group
      tile.wait_group 1
      tile.barrier
    }
    tile.wait_group 0
    tile.barrier
  }
  return
}
