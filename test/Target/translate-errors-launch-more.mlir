// RUN: tile-translate --tile-emit-launch %s --split-input-file --verify-diagnostics

// A 'tile.launch' attribute whose gemm_transpose is not two booleans:
// tile-translate --tile-emit-launch writes no description from it.

module attributes {gpu.container_module} {
  gpu.binary @tile_kernels [#gpu.object<#nvvm.target<chip = "sm_90">, assembly = "">]
  func.func @f(%A: memref<16xf16>) {
    %c1 = arith.constant 1 : index
    %c0 = arith.constant 0 : i32
    // expected-error @+1 {{malformed 'tile.launch' attribute: bad gemm_transpose}}
    gpu.launch_func @tile_kernels::@f_kernel blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) dynamic_shared_memory_size %c0 args(%A : memref<16xf16>) {tile.launch = {kernel = "f_kernel", chip = "sm_90", grid = array<i64: 1, 1, 1>, block = array<i64: 1, 1, 1>, shared_bytes = 0 : i64, args = ["A f16 16"], grid_expr = "1 1 1", gemm_transpose = array<i1: true>}}
    return
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.binary @tile_kernels [#gpu.object<#nvvm.target<chip = "sm_90">, assembly = "">]
  func.func @f(%A: memref<16xf16>) {
    %c1 = arith.constant 1 : index
    %c0 = arith.constant 0 : i32
    // expected-error @+1 {{malformed 'tile.launch' attribute: bad gemm_transpose}}
    gpu.launch_func @tile_kernels::@f_kernel blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) dynamic_shared_memory_size %c0 args(%A : memref<16xf16>) {tile.launch = {kernel = "f_kernel", chip = "sm_90", grid = array<i64: 1, 1, 1>, block = array<i64: 1, 1, 1>, shared_bytes = 0 : i64, args = ["A f16 16"], grid_expr = "1 1 1", gemm_transpose = array<i64: 1, 0>}}
    return
  }
}
