// RUN: tile-opt %s --split-input-file --tile-lower-to-nvgpu=chip=sm_90 | FileCheck %s

// A synchronous copy into shared memory (rows of 4095 f16 are only 2-byte
// aligned, so no cp.async: realigned 8-element chunks, 4 per thread) issues
// its loads before the wait and the barrier in front of it, and the index
// they need goes up with them; only its stores wait for the barrier. The C
// store after the loop cannot come before the loads.

// CHECK-LABEL: gpu.func @over_barrier_kernel
// CHECK: scf.for %[[K:.*]] = %c0 to %c128 step %c1 {
// CHECK-NEXT: %[[ROW:.*]] = arith.muli %[[K]], %c32 : index
// CHECK-COUNT-20: vector.load {{.*}} : memref<16773120xf16>, vector<2xf16>
// CHECK-NOT: vector.store
// CHECK: nvvm.cp.async.wait.group 0
// CHECK-NEXT: gpu.barrier
// CHECK-NOT: vector.load
// CHECK-COUNT-4: vector.store {{.*}} : memref<32x128xf16, #gpu.address_space<workgroup>>, vector<8xf16>
// CHECK: nvvm.cp.async.commit.group
// CHECK-NEXT: }
func.func @over_barrier(%B: memref<4096x4095xf16>, %C: memref<4096x4095xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %c128 = arith.constant 128 : index
  tile.kernel grid(%c32) threads(128) as (%bx) {
    %s = tile.alloc_shared : memref<32x128xf16, #gpu.address_space<workgroup>>
    %col = arith.muli %bx, %c128 : index
    scf.for %k = %c0 to %c128 step %c1 {
      tile.wait_group 0
      tile.barrier
      %row = arith.muli %k, %c32 : index
      tile.copy_async %B[%row, %col] to %s : memref<4096x4095xf16> to memref<32x128xf16, #gpu.address_space<workgroup>>
      tile.commit_group
    }
    tile.wait_group 0
    tile.barrier
    tile.copy %s to %C[%c0, %col] : memref<32x128xf16, #gpu.address_space<workgroup>> to memref<4096x4095xf16>
  }
  return
}

// -----

// A global store in the same loop may come before the copy (in the previous
// iteration) and the barrier orders it for the other threads, so the loads
// stay behind the barrier.

// CHECK-LABEL: gpu.func @store_in_loop_kernel
// CHECK: scf.for
// CHECK: nvvm.cp.async.wait.group 0
// CHECK-NEXT: gpu.barrier
// CHECK-COUNT-20: vector.load {{.*}} : memref<16773120xf16>, vector<2xf16>
// CHECK-COUNT-4: vector.store {{.*}} : memref<32x128xf16, #gpu.address_space<workgroup>>, vector<8xf16>
func.func @store_in_loop(%B: memref<4096x4095xf16>, %C: memref<4096x4095xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %c128 = arith.constant 128 : index
  tile.kernel grid(%c32) threads(128) as (%bx) {
    %s = tile.alloc_shared : memref<32x128xf16, #gpu.address_space<workgroup>>
    %col = arith.muli %bx, %c128 : index
    scf.for %k = %c0 to %c128 step %c1 {
      tile.wait_group 0
      tile.barrier
      %row = arith.muli %k, %c32 : index
      tile.copy_async %B[%row, %col] to %s : memref<4096x4095xf16> to memref<32x128xf16, #gpu.address_space<workgroup>>
      tile.commit_group
      tile.wait_group 0
      tile.barrier
      tile.copy %s to %C[%row, %col] : memref<32x128xf16, #gpu.address_space<workgroup>> to memref<4096x4095xf16>
    }
  }
  return
}

// -----

// The loads go up no further than the previous step's commit: two steps of
// an unrolled loop body each load their own tile after it. A global store in
// the other branch of an scf.if outside any loop never runs before them.

// CHECK-LABEL: gpu.func @two_steps_kernel
// CHECK: scf.if
// CHECK: scf.for
// CHECK: arith.muli
// CHECK-COUNT-20: vector.load {{.*}} : memref<16773120xf16>, vector<2xf16>
// CHECK: gpu.barrier
// CHECK-COUNT-4: vector.store {{.*}} : memref<32x128xf16, #gpu.address_space<workgroup>>, vector<8xf16>
// CHECK-NEXT: nvvm.cp.async.commit.group
// CHECK-NEXT: arith.addi
// CHECK-NEXT: arith.muli
// CHECK-COUNT-20: vector.load {{.*}} : memref<16773120xf16>, vector<2xf16>
// CHECK: nvvm.cp.async.wait.group 0
// CHECK-NEXT: gpu.barrier
// CHECK-COUNT-4: vector.store {{.*}} : memref<32x128xf16, #gpu.address_space<workgroup>>, vector<8xf16>
// CHECK-NEXT: nvvm.cp.async.commit.group
// CHECK-NEXT: }
// CHECK: } else {
func.func @two_steps(%B: memref<4096x4095xf16>, %C: memref<4096x4095xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c32 = arith.constant 32 : index
  %c128 = arith.constant 128 : index
  tile.kernel grid(%c32) threads(128) as (%bx) {
    %s = tile.alloc_shared : memref<32x128xf16, #gpu.address_space<workgroup>>
    %t = tile.alloc_shared : memref<32x128xf16, #gpu.address_space<workgroup>>
    %col = arith.muli %bx, %c128 : index
    %first = arith.cmpi eq, %bx, %c0 : index
    scf.if %first {
      scf.for %k = %c0 to %c128 step %c2 {
        tile.wait_group 0
        tile.barrier
        %row = arith.muli %k, %c32 : index
        tile.copy_async %B[%row, %col] to %s : memref<4096x4095xf16> to memref<32x128xf16, #gpu.address_space<workgroup>>
        tile.commit_group
        %k1 = arith.addi %k, %c1 : index
        tile.wait_group 0
        tile.barrier
        %row1 = arith.muli %k1, %c32 : index
        tile.copy_async %B[%row1, %col] to %t : memref<4096x4095xf16> to memref<32x128xf16, #gpu.address_space<workgroup>>
        tile.commit_group
      }
    } else {
      tile.copy %s to %C[%c0, %col] : memref<32x128xf16, #gpu.address_space<workgroup>> to memref<4096x4095xf16>
    }
  }
  return
}

// -----

// With mma.sync the walk stops at the gemm's last ldmatrix: loads above it
// would hold their registers through the gemm. They still pass the barrier
// after the gemm and its last mma.sync ops.

// CHECK-LABEL: gpu.func @mma_sync_kernel
// CHECK: scf.for
// CHECK: gpu.barrier
// CHECK-COUNT-12: nvgpu.ldmatrix
// CHECK-NOT: nvgpu.ldmatrix
// CHECK-COUNT-20: vector.load {{.*}} : memref<16773120xf16>, vector<2xf16>
// CHECK: nvgpu.mma.sync
// CHECK: gpu.barrier
// CHECK-COUNT-4: vector.store {{.*}} : memref<32x128xf16, #gpu.address_space<workgroup>>, vector<8xf16>
func.func @mma_sync(%A: memref<4096x4096xf16>, %B: memref<4096x4095xf16>, %C: memref<4096x4095xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %c128 = arith.constant 128 : index
  tile.kernel grid(%c32) threads(128) as (%bx) {
    %a = tile.alloc_shared : memref<64x32xf16, #gpu.address_space<workgroup>>
    %b = tile.alloc_shared : memref<32x128xf16, #gpu.address_space<workgroup>>
    %acc = tile.alloc_fragment : memref<64x128xf32, #gpu.address_space<private>>
    tile.clear %acc : memref<64x128xf32, #gpu.address_space<private>>
    %col = arith.muli %bx, %c128 : index
    scf.for %k = %c0 to %c128 step %c1 {
      tile.wait_group 0
      tile.barrier
      tile.gemm %a, %b, %acc : memref<64x32xf16, #gpu.address_space<workgroup>>, memref<32x128xf16, #gpu.address_space<workgroup>>, memref<64x128xf32, #gpu.address_space<private>>
      tile.barrier
      %row = arith.muli %k, %c32 : index
      tile.copy_async %B[%row, %col] to %b : memref<4096x4095xf16> to memref<32x128xf16, #gpu.address_space<workgroup>>
      tile.commit_group
    }
    tile.copy %acc to %C[%c0, %col] : memref<64x128xf32, #gpu.address_space<private>> to memref<4096x4095xf32>
  }
  return
}
