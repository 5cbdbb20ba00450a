// RUN: tile-opt %s --split-input-file --tile-lower-to-nvgpu=chip=sm_90 \
// RUN:   | tile-translate --split-input-file --tile-emit-launch | FileCheck %s

// A grid formula with a negative constant: the formulas' numbers are
// unsigned, so -64 is written (0-64), which tile-run evaluates.

// CHECK-LABEL: kernel negative_kernel
// CHECK:       grid ? 1 1
// CHECK:       arg A f16 ?x64
// CHECK:       grid_expr ceildiv((dim(A,0)+(0-64)),32) 1 1
func.func @negative(%A: memref<?x64xf16>) {
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %cm64 = arith.constant -64 : index
  %m = memref.dim %A, %c0 : memref<?x64xf16>
  %rows = arith.addi %m, %cm64 : index
  %g = arith.ceildivui %rows, %c32 : index
  tile.kernel grid(%g) threads(128) as (%bx) {
    %s = tile.alloc_shared : memref<32x64xf16, #gpu.address_space<workgroup>>
    %row = arith.muli %bx, %c32 : index
    tile.copy %A[%row, %c0] to %s : memref<?x64xf16> to memref<32x64xf16, #gpu.address_space<workgroup>>
  }
  return
}

// -----

// A rank-0 memref is one element, passed as a pointer like the others.

// CHECK-LABEL: kernel scalar_kernel
// CHECK:       arg A f16 64x64
// CHECK-NEXT:  arg B f32 1{{$}}
func.func @scalar(%A: memref<64x64xf16>, %s: memref<f32>) {
  %c1 = arith.constant 1 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %t = tile.alloc_shared : memref<64x64xf16, #gpu.address_space<workgroup>>
    tile.copy %A to %t : memref<64x64xf16> to memref<64x64xf16, #gpu.address_space<workgroup>>
  }
  return
}
