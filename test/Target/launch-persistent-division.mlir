// RUN: tile-opt %s --tile-persistent-blocks=blocks=4 --tile-lower-to-nvgpu=chip=sm_90 \
// RUN:   | tile-translate --tile-emit-launch | FileCheck %s

// tile-persistent-blocks moves the tile count, the product of the grid's
// sizes, into the kernel. A size divided by a size known at run time is not
// speculatable (the divisor may be zero), but the host computed it on the
// same operands before the launch, so the device recomputes it too (the
// outlining refused it before, at the kernel, for a use the pass made).

// CHECK-LABEL: kernel gemm_kernel
// CHECK:       grid ? 1 1
// CHECK:       arg D f32 ?
// CHECK:       grid_expr min(4,(ceildiv(2,dim(D,0))*2)) 1 1
func.func @gemm(%A: memref<256x32xf16>, %B: memref<32x256xf16>, %C: memref<256x256xf16>, %D: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c128 = arith.constant 128 : index
  %d = memref.dim %D, %c0 : memref<?xf32>
  %gx = arith.ceildivui %c2, %d : index
  tile.kernel grid(%gx, %c2) threads(128) as (%bx, %by) {
    %A_s = tile.alloc_shared : memref<128x32xf16, #gpu.address_space<workgroup>>
    %B_s = tile.alloc_shared : memref<32x128xf16, #gpu.address_space<workgroup>>
    %C_l = tile.alloc_fragment : memref<128x128xf32, #gpu.address_space<private>>
    %row = arith.muli %by, %c128 : index
    %col = arith.muli %bx, %c128 : index
    tile.clear %C_l : memref<128x128xf32, #gpu.address_space<private>>
    tile.copy %A[%row, %c0] to %A_s : memref<256x32xf16> to memref<128x32xf16, #gpu.address_space<workgroup>>
    tile.copy %B[%c0, %col] to %B_s : memref<32x256xf16> to memref<32x128xf16, #gpu.address_space<workgroup>>
    tile.gemm %A_s, %B_s, %C_l : memref<128x32xf16, #gpu.address_space<workgroup>>, memref<32x128xf16, #gpu.address_space<workgroup>>, memref<128x128xf32, #gpu.address_space<private>>
    tile.copy %C_l to %C[%row, %col] : memref<128x128xf32, #gpu.address_space<private>> to memref<256x256xf16>
  }
  return
}
