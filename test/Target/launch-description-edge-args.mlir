// RUN: tile-opt %s --split-input-file --tile-lower-to-nvgpu=chip=sm_90 \
// RUN:   | tile-translate --split-input-file --tile-emit-launch | FileCheck %s

// A grid formula with a negative constant: the formulas' numbers are
// written unsigned, so -64 is (0-64), which tile-run evaluates.

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

// Unsigned and signed ops have their own spellings, since they differ where
// a value is negative: M - 64 for M < 64 is 2^64 - (64 - M) to arith.minui
// and arith.divui, and below zero to arith.minsi and arith.divsi.

// CHECK-LABEL: kernel signs_kernel
// CHECK:       grid ? ? ?
// CHECK:       grid_expr min((dim(A,0)+(0-64)),4) (mins((dim(A,0)+(0-64)),2)+ceildivs((dim(A,0)+(0-64)),(0-32))) min(((dim(A,0)+(0-64))/32),divs((dim(A,0)+(0-64)),(0-32)))
func.func @signs(%A: memref<?x64xf16>) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c32 = arith.constant 32 : index
  %cm32 = arith.constant -32 : index
  %cm64 = arith.constant -64 : index
  %m = memref.dim %A, %c0 : memref<?x64xf16>
  %rows = arith.addi %m, %cm64 : index
  %x = arith.minui %rows, %c4 : index
  %lo = arith.minsi %rows, %c2 : index
  %up = arith.ceildivsi %rows, %cm32 : index
  %y = arith.addi %lo, %up : index
  %q = arith.divui %rows, %c32 : index
  %qs = arith.divsi %rows, %cm32 : index
  %z = arith.minui %q, %qs : index
  tile.kernel grid(%x, %y, %z) threads(128) as (%bx, %by, %bz) {
    %s = tile.alloc_shared : memref<32x64xf16, #gpu.address_space<workgroup>>
    tile.copy %A to %s : memref<?x64xf16> to memref<32x64xf16, #gpu.address_space<workgroup>>
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
