// RUN: tile-opt %s --split-input-file --tile-lower-to-nvgpu=chip=sm_90 | tile-translate --tile-emit-launch | FileCheck %s
// RUN: %python %S/../Execution/Inputs/gemm.py --variant auto --emit kernel --transpose-a --M 256 --N 192 --K 96 --bm 128 --bn 64 --bk 32 \
// RUN:   | tile-opt --tile-pipeline-planning --tile-software-pipeline --tile-lower-to-nvgpu=chip=sm_90 | tile-translate --tile-emit-launch | FileCheck %s --check-prefix=GEN-A
// RUN: %python %S/../Execution/Inputs/gemm.py --variant auto --emit kernel --transpose-b --M 256 --N 192 --K 96 --bm 128 --bn 64 --bk 32 \
// RUN:   | tile-opt --tile-pipeline-planning --tile-software-pipeline --tile-lower-to-nvgpu=chip=sm_90 | tile-translate --tile-emit-launch | FileCheck %s --check-prefix=GEN-B

// A kernel's tile.gemm transpose flags go into its launch description, so
// that a runtime checking it against a reference GEMM (tile-run --check)
// reads A as KxM and B as NxK. Kernels without a gemm, or whose gemms
// disagree, get no gemm_transpose line.

// GEN-A: arg A f16 96x256
// GEN-A-NEXT: arg B f16 96x192
// GEN-A-NEXT: arg C f16 256x192
// GEN-A-NEXT: grid_expr
// GEN-A-NEXT: gemm_transpose 1 0

// GEN-B: arg A f16 256x96
// GEN-B-NEXT: arg B f16 192x96
// GEN-B-NEXT: arg C f16 256x192
// GEN-B-NEXT: grid_expr
// GEN-B-NEXT: gemm_transpose 0 1

!S = memref<32x64xf16, #gpu.address_space<workgroup>>
!F = memref<64x64xf32, #gpu.address_space<private>>

// CHECK-LABEL: kernel plain_kernel
// CHECK: grid_expr 1 1 1
// CHECK-NEXT: gemm_transpose 0 0
func.func @plain(%A: memref<64x32xf16>) {
  %c1 = arith.constant 1 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %a = tile.alloc_shared : memref<64x32xf16, #gpu.address_space<workgroup>>
    %b = tile.alloc_shared : !S
    %c = tile.alloc_fragment : !F
    tile.gemm %a, %b, %c : memref<64x32xf16, #gpu.address_space<workgroup>>, !S, !F
  }
  return
}

// -----

!S = memref<32x64xf16, #gpu.address_space<workgroup>>
!F = memref<64x64xf32, #gpu.address_space<private>>

// CHECK-LABEL: kernel mixed_kernel
// CHECK: grid_expr 1 1 1
// CHECK-NOT: gemm_transpose
// CHECK-LABEL: kernel no_gemm_kernel
// CHECK: grid_expr 1 1 1
// CHECK-NOT: gemm_transpose
func.func @mixed(%A: memref<64x32xf16>) {
  %c1 = arith.constant 1 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %a = tile.alloc_shared : memref<64x32xf16, #gpu.address_space<workgroup>>
    %at = tile.alloc_shared : !S
    %b = tile.alloc_shared : !S
    %c = tile.alloc_fragment : !F
    tile.gemm %a, %b, %c : memref<64x32xf16, #gpu.address_space<workgroup>>, !S, !F
    tile.gemm %at, %b, %c transpose_a : !S, !S, !F
  }
  return
}
func.func @no_gemm(%A: memref<64x32xf16>) {
  %c1 = arith.constant 1 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %a = tile.alloc_shared : memref<64x32xf16, #gpu.address_space<workgroup>>
    tile.clear %a : memref<64x32xf16, #gpu.address_space<workgroup>>
  }
  return
}
