// RUN: tile-opt %s --split-input-file --tile-lower-to-nvgpu="chip=sm_90 tma=true" -cse | FileCheck %s
// RUN: tile-opt %s --split-input-file --tile-lower-to-nvgpu="chip=sm_90 tma=true cluster=2" -cse | FileCheck %s --check-prefix=CLUSTER

// With TMA copies each thread waits for its data on the mbarrier, so the TMA
// lowering drops a barrier whose one job, keeping the next copies from
// overwriting data still being read, another barrier does. A kernel that
// loads from global memory itself keeps them all: a barrier may also order
// another thread's store before the load. Here the barrier right after the
// wait would go for the one after the load; both stay.
// CHECK-LABEL: gpu.func @pair_kernel
// CHECK: scf.for
// CHECK: nvgpu.mbarrier.try_wait.parity
// CHECK: gpu.barrier
// CHECK-NEXT: memref.load
// CHECK-NEXT: memref.store
// CHECK-NEXT: gpu.barrier
func.func @pair(%A: memref<4096x32xf16>, %B: memref<32xf16>, %C: memref<32xf16>) {
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
      %x = memref.load %B[%k] : memref<32xf16>
      memref.store %x, %C[%bx] : memref<32xf16>
      tile.barrier
    }
  }
  return
}

// -----

// In clusters the barrier right before a run of copies would give way to
// the relaxed cluster barrier, which orders execution but no memory
// accesses: with a global load in the kernel it stays in front of it.
// CLUSTER-LABEL: gpu.func @clustered_kernel
// CLUSTER: scf.for
// CLUSTER: gpu.barrier
// CLUSTER-NEXT: nvvm.cluster.arrive.relaxed {aligned}
// CLUSTER-NEXT: nvvm.cluster.wait {aligned}
// CLUSTER: nvgpu.tma.async.load {{.*}}multicast_mask
func.func @clustered(%A: memref<512x256xf16>, %B: memref<256x512xf16>, %S: memref<8xf16>, %T: memref<8xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
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
      %x = memref.load %S[%k] : memref<8xf16>
      memref.store %x, %T[%k] : memref<8xf16>
    }
  }
  return
}
