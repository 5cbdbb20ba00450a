// RUN: tile-opt %s --tile-lower-to-nvgpu=chip=sm_90a | FileCheck %s

// With wgmma, a step of a pipelined loop issues its gemm first; a
// synchronous copy after it (rows of 4095 f16 are only 2-byte aligned)
// issues its loads above the whole gemm (the operand fence, an empty
// volatile asm; the wgmma fence, the wgmmas and their wait) and the
// barriers, since the kernel writes no global memory.

// CHECK-LABEL: gpu.func @over_gemm_kernel
// CHECK: scf.for
// CHECK-COUNT-20: vector.load {{.*}} : memref<16773120xf16>, vector<2xf16>
// CHECK-NOT: vector.load
// CHECK: gpu.barrier
// CHECK-NOT: vector.load
// CHECK: llvm.inline_asm has_side_effects ""
// CHECK-NEXT: nvvm.fence.proxy
// CHECK-NEXT: nvvm.wgmma.fence.aligned
// CHECK-NEXT: nvvm.wgmma.mma_async
// CHECK-NOT: vector.load
// CHECK: nvvm.wgmma.wait.group.sync.aligned
// CHECK-NOT: vector.load
// CHECK: gpu.barrier
// CHECK-NOT: vector.load
// CHECK: vector.store {{.*}} : memref<32x128xf16, #gpu.address_space<workgroup>>, vector<8xf16>
func.func @over_gemm(%A: memref<128x32xf16>, %B: memref<4096x4095xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %c128 = arith.constant 128 : index
  tile.kernel grid(%c32) threads(128) as (%bx) {
    %a = tile.alloc_shared : memref<64x32xf16, #gpu.address_space<workgroup>>
    %s = tile.alloc_shared : memref<32x128xf16, #gpu.address_space<workgroup>>
    %acc = tile.alloc_fragment : memref<64x128xf32, #gpu.address_space<private>>
    tile.clear %acc : memref<64x128xf32, #gpu.address_space<private>>
    %col = arith.muli %bx, %c128 : index
    scf.for %k = %c0 to %c128 step %c1 {
      tile.barrier
      tile.gemm %a, %s, %acc : memref<64x32xf16, #gpu.address_space<workgroup>>, memref<32x128xf16, #gpu.address_space<workgroup>>, memref<64x128xf32, #gpu.address_space<private>>
      tile.barrier
      %row = arith.muli %k, %c32 : index
      tile.copy_async %B[%row, %col] to %s : memref<4096x4095xf16> to memref<32x128xf16, #gpu.address_space<workgroup>>
      tile.commit_group
    }
  }
  return
}
