// RUN: tile-opt %s --split-input-file --tile-lower-to-nvgpu=chip=sm_90 | FileCheck %s

// Tensors whose sizes are known only at run time. Each dynamic memref
// travels as a pointer to a memref<1xT> carrier, its dynamic sizes as index
// parameters after all the pointers (argument order, then dimension
// order); the kernel rebuilds the memref with its row-major strides. The
// grid is a formula over the sizes, which the launch description carries.

// CHECK-LABEL: func.func @copy(
// CHECK-SAME:    %[[A:.*]]: memref<?x64xf16>, %[[B:.*]]: memref<?x?xf16>)
// CHECK:       %[[CA:.*]] = memref.reinterpret_cast %[[A]] to offset: [0], sizes: [1], strides: [1] : memref<?x64xf16> to memref<1xf16>
// CHECK-NEXT:  %{{.*}} = arith.constant 0 : index
// CHECK-NEXT:  %[[A0:.*]] = memref.dim %[[A]], %{{.*}} : memref<?x64xf16>
// CHECK-NEXT:  %[[CB:.*]] = memref.reinterpret_cast %[[B]] to offset: [0], sizes: [1], strides: [1] : memref<?x?xf16> to memref<1xf16>
// CHECK:       %[[B0:.*]] = memref.dim %[[B]], %{{.*}} : memref<?x?xf16>
// CHECK:       %[[B1:.*]] = memref.dim %[[B]], %{{.*}} : memref<?x?xf16>
// CHECK:       gpu.launch_func @tile_kernels::@copy_kernel
// CHECK-SAME:    args(%[[CA]] : memref<1xf16>, %[[CB]] : memref<1xf16>, %[[A0]] : index, %[[B0]] : index, %[[B1]] : index)
// CHECK-SAME:    args = ["A f16 ?x64", "B f16 ?x?"]
// CHECK-SAME:    grid = array<i64: -1, 1, 1>, grid_expr = "ceildiv(dim(A,0),64) 1 1"
// CHECK:       gpu.func @copy_kernel(%[[PA:.*]]: memref<1xf16>, %[[PB:.*]]: memref<1xf16>, %[[M:.*]]: index, %[[R:.*]]: index, %[[S:.*]]: index) kernel
// CHECK:         %[[VA:.*]] = memref.reinterpret_cast %[[PA]] to offset: [0], sizes: [%[[M]], 64], strides: [64, 1] : memref<1xf16> to memref<?x64xf16>
// CHECK:         %[[VB:.*]] = memref.reinterpret_cast %[[PB]] to offset: [0], sizes: [%[[R]], %[[S]]], strides: [%[[S]], 1] : memref<1xf16> to memref<?x?xf16>
// A's rows are 64 elements: 8-element vectors. B's row pitch is a size
// with no known divisor: one element at a time.
// CHECK:         vector.load %[[VA]]{{.*}} : memref<?x64xf16>, vector<8xf16>
// CHECK-NOT:     vector.store %[[VB]]{{.*}} vector<8xf16>
// CHECK:         vector.store %{{.*}}, %[[VB]]{{.*}} : memref<?x?xf16>, vector<1xf16>
func.func @copy(%A: memref<?x64xf16>, %B: memref<?x?xf16>) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %m = memref.dim %A, %c0 : memref<?x64xf16>
  %g = arith.ceildivui %m, %c64 : index
  tile.kernel grid(%g) threads(128) as (%bx) {
    %s = tile.alloc_shared : memref<64x64xf16, #gpu.address_space<workgroup>>
    %row = arith.muli %bx, %c64 : index
    tile.copy %A[%row, %c0] to %s : memref<?x64xf16> to memref<64x64xf16, #gpu.address_space<workgroup>>
    tile.copy %s to %B[%row, %c0] : memref<64x64xf16, #gpu.address_space<workgroup>> to memref<?x?xf16>
  }
  return
}

// -----

// tile.divisibility = 8: every dynamic size of A is a multiple of 8, which
// the launch description records for the launcher to check; the size
// parameters carry it, and A's rows take 8-element vectors.

// CHECK-LABEL: func.func @divisible(
// CHECK:       gpu.launch_func @tile_kernels::@divisible_kernel
// CHECK-SAME:    args = ["A f16 ?x? divisible 8"]
// CHECK:       gpu.func @divisible_kernel(%[[PA:.*]]: memref<1xf16>, %{{.*}}: index {tile.divisibility = 8 : i64}, %[[S:.*]]: index {tile.divisibility = 8 : i64}) kernel
// CHECK:         %[[VA:.*]] = memref.reinterpret_cast %[[PA]] to offset: [0], sizes: [%{{.*}}, %[[S]]], strides: [%[[S]], 1]
// CHECK:         vector.store %{{.*}}, %[[VA]]{{.*}} : memref<?x?xf16>, vector<8xf16>
func.func @divisible(%A: memref<?x?xf16> {tile.divisibility = 8 : i64}) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %m = memref.dim %A, %c0 : memref<?x?xf16>
  %g = arith.ceildivui %m, %c64 : index
  tile.kernel grid(%g) threads(128) as (%bx) {
    %s = tile.alloc_shared : memref<64x64xf16, #gpu.address_space<workgroup>>
    tile.clear %s : memref<64x64xf16, #gpu.address_space<workgroup>>
    %row = arith.muli %bx, %c64 : index
    tile.copy %s to %A[%row, %c0] : memref<64x64xf16, #gpu.address_space<workgroup>> to memref<?x?xf16>
  }
  return
}

// -----

// A kernel body that uses a size computed on the host from an argument's
// memref.dim gets it recomputed from the rebuilt memref.

// CHECK-LABEL: gpu.func @trip_count_kernel(
// CHECK-SAME:    %[[P:.*]]: memref<1xf16>, %[[K:.*]]: index)
// CHECK:         %[[V:.*]] = memref.reinterpret_cast %[[P]] to offset: [0], sizes: [64, %[[K]]], strides: [%[[K]], 1]
// CHECK:         memref.dim %[[V]], %{{.*}} : memref<64x?xf16>
func.func @trip_count(%A: memref<64x?xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %k = memref.dim %A, %c1 : memref<64x?xf16>
  %kt = arith.ceildivui %k, %c32 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %s = tile.alloc_shared : memref<64x32xf16, #gpu.address_space<workgroup>>
    scf.for %i = %c0 to %kt step %c1 {
      %ko = arith.muli %i, %c32 : index
      tile.copy %A[%c0, %ko] to %s : memref<64x?xf16> to memref<64x32xf16, #gpu.address_space<workgroup>>
    }
  }
  return
}

// -----

// A formula of many operations: the sum of ten sizes (it used to be cut off
// at depth 8 and refused).
// CHECK-LABEL: func.func @long_formula(
// CHECK:       gpu.launch_func
// CHECK-SAME:    grid_expr = "(((((((((dim(A,0)+dim(A,0))+dim(A,0))+dim(A,0))+dim(A,0))+dim(A,0))+dim(A,0))+dim(A,0))+dim(A,0))+dim(A,0)) 1 1"
func.func @long_formula(%A: memref<?x64xf16>) {
  %c0 = arith.constant 0 : index
  %m = memref.dim %A, %c0 : memref<?x64xf16>
  %s1 = arith.addi %m, %m : index
  %s2 = arith.addi %s1, %m : index
  %s3 = arith.addi %s2, %m : index
  %s4 = arith.addi %s3, %m : index
  %s5 = arith.addi %s4, %m : index
  %s6 = arith.addi %s5, %m : index
  %s7 = arith.addi %s6, %m : index
  %s8 = arith.addi %s7, %m : index
  %s9 = arith.addi %s8, %m : index
  tile.kernel grid(%s9) threads(32) as (%bx) {
    %s = tile.alloc_shared : memref<16x64xf16, #gpu.address_space<workgroup>>
    tile.copy %A to %s : memref<?x64xf16> to memref<16x64xf16, #gpu.address_space<workgroup>>
  }
  return
}

// -----

// An unsigned minimum with -1 (2^64 - 1 to arith.minui): min, which
// tile-run evaluates unsigned as the kernel does, so it is the size itself.
// CHECK-LABEL: func.func @unsigned_min(
// CHECK:       gpu.launch_func
// CHECK-SAME:    grid_expr = "min((0-1),ceildiv(dim(A,0),32)) 1 1"
func.func @unsigned_min(%A: memref<?x64xf16>) {
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  %all_ones = arith.constant -1 : index
  %m = memref.dim %A, %c0 : memref<?x64xf16>
  %t = arith.ceildivui %m, %c32 : index
  %g = arith.minui %all_ones, %t : index
  tile.kernel grid(%g) threads(128) as (%bx) {
    %s = tile.alloc_shared : memref<32x64xf16, #gpu.address_space<workgroup>>
    %row = arith.muli %bx, %c32 : index
    tile.copy %A[%row, %c0] to %s : memref<?x64xf16> to memref<32x64xf16, #gpu.address_space<workgroup>>
  }
  return
}
