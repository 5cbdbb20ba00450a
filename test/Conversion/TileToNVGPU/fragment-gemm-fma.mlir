// Where mma.sync does not apply here (f32 inputs, K not a multiple of 16),
// each thread accumulates its own elements with scalar FMAs from shared
// memory: no ldmatrix, no mma.sync.
// RUN: tile-opt %s --test-tile-lower-fragments -split-input-file | FileCheck %s

// CHECK-LABEL: func.func @f32_inputs
// CHECK-NOT: nvgpu.
// CHECK: scf.for %[[K:.*]] = %c0{{.*}} to %c16{{.*}} step %c1
// CHECK: memref.load %{{.*}} : memref<64x16xf32, #gpu.address_space<workgroup>>
// CHECK: arith.mulf
// CHECK: arith.addf
// CHECK-NOT: nvgpu.
// CHECK: return
func.func @f32_inputs() {
  %c1 = arith.constant 1 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : memref<64x16xf32, #gpu.address_space<workgroup>>
    %B_s = tile.alloc_shared : memref<16x64xf32, #gpu.address_space<workgroup>>
    %C_l = tile.alloc_fragment : memref<64x64xf32, #gpu.address_space<private>>
    tile.gemm %A_s, %B_s, %C_l : memref<64x16xf32, #gpu.address_space<workgroup>>, memref<16x64xf32, #gpu.address_space<workgroup>>, memref<64x64xf32, #gpu.address_space<private>>
  }
  return
}

// -----

// K = 24 is not a multiple of 16.
// CHECK-LABEL: func.func @k_not_multiple_of_16
// CHECK-NOT: nvgpu.mma.sync
// CHECK: scf.for
// CHECK: return
func.func @k_not_multiple_of_16() {
  %c1 = arith.constant 1 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : memref<64x24xf16, #gpu.address_space<workgroup>>
    %B_s = tile.alloc_shared : memref<24x64xf16, #gpu.address_space<workgroup>>
    %C_l = tile.alloc_fragment : memref<64x64xf32, #gpu.address_space<private>>
    tile.gemm %A_s, %B_s, %C_l : memref<64x24xf16, #gpu.address_space<workgroup>>, memref<24x64xf16, #gpu.address_space<workgroup>>, memref<64x64xf32, #gpu.address_space<private>>
  }
  return
}
