// RUN: tile-opt %s --tile-lower-to-nvgpu=chip=sm_90 | tile-translate --tile-emit-launch | FileCheck %s

// The .launch text a runtime reads: entry name, chip, constant grid (with
// the formula it came from), block, dynamic shared bytes and one line per
// kernel parameter in order, named by `tile.name` or A, B, C, ...

// CHECK:      kernel gemm_like_kernel
// CHECK-NEXT: chip sm_90
// CHECK-NEXT: grid 8 4 1
// CHECK-NEXT: block 128 1 1
// CHECK-NEXT: shared_bytes 16384
// CHECK-NEXT: arg A f16 500x300
// CHECK-NEXT: arg B f16 300x1000
// CHECK-NEXT: arg out f32 500x1000
// CHECK-NEXT: grid_expr ceildiv(1000,128) ceildiv(500,128) 1
func.func @gemm_like(%A: memref<500x300xf16>, %B: memref<300x1000xf16>,
                     %C: memref<500x1000xf32> {tile.name = "out"}) {
  %c128 = arith.constant 128 : index
  %c500 = arith.constant 500 : index
  %c1000 = arith.constant 1000 : index
  %gx = arith.ceildivui %c1000, %c128 : index
  %gy = arith.ceildivui %c500, %c128 : index
  tile.kernel grid(%gx, %gy) threads(128) as (%bx, %by) {
    %a = tile.alloc_shared : memref<128x32xf16, #gpu.address_space<workgroup>>
    %b = tile.alloc_shared : memref<32x128xf16, #gpu.address_space<workgroup>>
    tile.clear %a : memref<128x32xf16, #gpu.address_space<workgroup>>
    tile.clear %b : memref<32x128xf16, #gpu.address_space<workgroup>>
  }
  return
}
