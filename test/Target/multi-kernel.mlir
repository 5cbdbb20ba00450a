// RUN: tile-opt %s --tile-lower-to-nvgpu=chip=sm_80 | tile-translate --tile-emit-launch | FileCheck %s
// RUN: tile-opt %s --tile-lower-to-nvgpu=chip=sm_80 | FileCheck %s --check-prefix=IR

// Two kernels in one function: two entries in the one gpu.module (one PTX
// file), each with its own description, separated by a blank line. The
// second kernel takes the same parameters (every memref argument of the
// function) even though it uses only one of them.

// IR: gpu.launch_func @tile_kernels::@two_kernel
// IR: gpu.launch_func @tile_kernels::@two_kernel_1
// IR: gpu.module @tile_kernels
// IR: gpu.func @two_kernel(%{{.*}}: memref<64x64xf16>, %{{.*}}: memref<64x64xf16>) kernel
// IR: gpu.func @two_kernel_1(%{{.*}}: memref<64x64xf16>, %{{.*}}: memref<64x64xf16>) kernel

// CHECK:      kernel two_kernel
// CHECK:      shared_bytes 8192
// CHECK:      grid_expr 1 1 1
// CHECK-EMPTY:
// CHECK-NEXT: kernel two_kernel_1
// CHECK-NEXT: chip sm_80
// CHECK-NEXT: grid 2 1 1
// CHECK-NEXT: block 64 1 1
// CHECK-NEXT: shared_bytes 2048
// CHECK-NEXT: arg A f16 64x64
// CHECK-NEXT: arg B f16 64x64
func.func @two(%A: memref<64x64xf16>, %B: memref<64x64xf16>) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c32 = arith.constant 32 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %s = tile.alloc_shared : memref<64x64xf16, #gpu.address_space<workgroup>>
    tile.copy %A to %s : memref<64x64xf16> to memref<64x64xf16, #gpu.address_space<workgroup>>
    tile.barrier
    tile.copy %s to %B : memref<64x64xf16, #gpu.address_space<workgroup>> to memref<64x64xf16>
  }
  tile.kernel grid(%c2) threads(64) as (%bx) {
    %s = tile.alloc_shared : memref<32x32xf16, #gpu.address_space<workgroup>>
    %row = arith.muli %bx, %c32 : index
    tile.copy %A[%row, %c32] to %s : memref<64x64xf16> to memref<32x32xf16, #gpu.address_space<workgroup>>
  }
  return
}
