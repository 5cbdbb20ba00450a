// RUN: tile-opt %s --tile-lower-to-nvgpu=chip=sm_90 | FileCheck %s --implicit-check-not=memref.alloc

// Three shared tiles, one of them multi-buffered (leading version dimension,
// accessed through a rank-reducing subview as tile-software-pipeline writes
// it), are carved out of one dynamic region at 1024-byte aligned offsets
// (the period of the swizzle, which wgmma applies to address bits):
//   %x: 3x128x32xf16 = 24576 B at 0
//   %y: 3x40xf16     =   240 B at 24576
//   %z: 32x128xf16   =  8192 B at 25600 (24816 rounded up to 1024)
// The launch asks for 33792 bytes of dynamic shared memory, and no tile is
// allocated on its own (--implicit-check-not).

// CHECK-LABEL: func.func @carve
// CHECK: %[[BYTES:.*]] = arith.constant 33792 : i32
// CHECK: gpu.launch_func @tile_kernels::@carve_kernel
// CHECK-SAME: dynamic_shared_memory_size %[[BYTES]]
// CHECK-SAME: shared_bytes = 33792
// CHECK: gpu.module @tile_kernels
// CHECK: gpu.func @carve_kernel
// CHECK: %[[REGION:.*]] = gpu.dynamic_shared_memory : memref<?xi8, #gpu.address_space<workgroup>>
// CHECK: memref.view %[[REGION]][%c0][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<3x128x32xf16, #gpu.address_space<workgroup>>
// CHECK: %[[C1:.*]] = arith.constant 24576 : index
// CHECK: memref.view %[[REGION]][%[[C1]]][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<3x40xf16, #gpu.address_space<workgroup>>
// CHECK: %[[C2:.*]] = arith.constant 25600 : index
// CHECK: memref.view %[[REGION]][%[[C2]]][] : memref<?xi8, #gpu.address_space<workgroup>> to memref<32x128xf16, #gpu.address_space<workgroup>>
// The copy into version %v of %x addresses the whole buffer: the subview's
// version offset becomes the leading index.
// Without offsets the extent lies inside the tensor: no srcElements.
// CHECK: nvgpu.device_async_copy %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}}[%c2, %{{.*}}, %{{.*}}], 8 {bypassL1} : memref<4096x4096xf16> to memref<3x128x32xf16, #gpu.address_space<workgroup>>
func.func @carve(%A: memref<4096x4096xf16>) {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %x = tile.alloc_shared : memref<3x128x32xf16, #gpu.address_space<workgroup>>
    %y = tile.alloc_shared : memref<3x40xf16, #gpu.address_space<workgroup>>
    %z = tile.alloc_shared : memref<32x128xf16, #gpu.address_space<workgroup>>
    %xv = memref.subview %x[%c2, 0, 0] [1, 128, 32] [1, 1, 1] : memref<3x128x32xf16, #gpu.address_space<workgroup>> to memref<128x32xf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
    tile.copy_async %A to %xv : memref<4096x4096xf16> to memref<128x32xf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
    tile.clear %y : memref<3x40xf16, #gpu.address_space<workgroup>>
    tile.clear %z : memref<32x128xf16, #gpu.address_space<workgroup>>
  }
  return
}
