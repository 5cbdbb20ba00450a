// RUN: tile-opt %s --split-input-file --tile-lower-to-nvgpu=chip=sm_90 | FileCheck %s
// RUN: tile-opt %s --split-input-file --tile-lower-to-nvgpu=chip=sm_90 | FileCheck %s --check-prefix=BAR

// The pipelined level's synchronization maps one to one: commit_group and
// wait_group N to the cp.async group ops with the same count, barrier to
// gpu.barrier; the multi-buffered tile's version (iteration mod 2) becomes
// the leading index of the copy's destination. No barrier is added.

// CHECK-LABEL: gpu.func @steady_state_kernel
// The kernel's one barrier is the loop's tile.barrier.
// BAR-LABEL: gpu.func @steady_state_kernel
// BAR-NOT: gpu.barrier
// BAR: nvvm.cp.async.wait.group 1
// BAR-NEXT: gpu.barrier
// BAR-NOT: gpu.barrier
// BAR: gpu.return
// CHECK: scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK: %[[V:.*]] = arith.remui %[[K]], %c2
// CHECK-NEXT: memref.subview
// CHECK: nvvm.cp.async.wait.group 1
// CHECK-NEXT: gpu.barrier
// CHECK-NEXT: arith.muli
// Rows k*64 + r <= 511 stay inside the 1024-row tensor: no srcElements.
// CHECK: nvgpu.device_async_copy %{{.*}}, %{{.*}}[%[[V]], %{{.*}}, %{{.*}}], 8 {bypassL1}
// CHECK: nvvm.cp.async.commit.group
// CHECK-NOT: gpu.barrier
// CHECK: }
func.func @steady_state(%A: memref<1024x64xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %c64 = arith.constant 64 : index
  tile.kernel grid(%c1) threads(64) as (%bx) {
    %buf = tile.alloc_shared : memref<2x64x64xf16, #gpu.address_space<workgroup>>
    scf.for %k = %c0 to %c8 step %c1 {
      %v = arith.remui %k, %c2 : index
      %view = memref.subview %buf[%v, 0, 0] [1, 64, 64] [1, 1, 1] : memref<2x64x64xf16, #gpu.address_space<workgroup>> to memref<64x64xf16, strided<[64, 1], offset: ?>, #gpu.address_space<workgroup>>
      tile.wait_group 1
      tile.barrier
      %row = arith.muli %k, %c64 : index
      tile.copy_async %A[%row, %c0] to %view : memref<1024x64xf16> to memref<64x64xf16, strided<[64, 1], offset: ?>, #gpu.address_space<workgroup>>
      tile.commit_group
    }
  }
  return
}
