// RUN: tile-translate --tile-emit-launch %s --split-input-file --verify-diagnostics
// RUN: not tile-translate --tile-emit-launch %s --split-input-file 2>&1 \
// RUN:   | FileCheck %s

// A module without a launch gets the advice alone, not the module after it.
// CHECK: error: no gpu.launch_func
// CHECK-NOT: see current operation
// CHECK: error:

// Inputs tile-translate --tile-emit-launch cannot write a description from.

// expected-error @+1 {{no gpu.launch_func and no tile.kernel: the module has no kernel to write}}
module {
}

// -----

// expected-error @+1 {{no gpu.launch_func; run tile-opt --tile-to-ptx=chip=sm_XX first}}
module {
  func.func @f() {
    %c1 = arith.constant 1 : index
    tile.kernel grid(%c1) threads(32) as (%bx) {
    }
    return
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.binary @tile_kernels [#gpu.object<#nvvm.target<chip = "sm_90">, assembly = "">]
  func.func @f(%A: memref<16xf16>) {
    %c1 = arith.constant 1 : index
    %c0 = arith.constant 0 : i32
    // expected-error @+1 {{malformed 'tile.launch' attribute}}
    gpu.launch_func @tile_kernels::@f_kernel blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) dynamic_shared_memory_size %c0 args(%A : memref<16xf16>) {tile.launch = {kernel = "f_kernel", chip = "sm_90"}}
    return
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.binary @tile_kernels [#gpu.object<#nvvm.target<chip = "sm_90">, assembly = "">]
  func.func @f(%A: memref<16xf16>) {
    %c1 = arith.constant 1 : index
    %c0 = arith.constant 0 : i32
    // expected-error @+1 {{has no 'tile.launch' attribute}}
    gpu.launch_func @tile_kernels::@f_kernel blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) dynamic_shared_memory_size %c0 args(%A : memref<16xf16>)
    return
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.binary @tile_kernels [#gpu.object<#nvvm.target<chip = "sm_90">, assembly = "">]
  func.func @f(%A: memref<16xf16>) {
    %c1 = arith.constant 1 : index
    %c0 = arith.constant 0 : i32
    // expected-error @+1 {{malformed 'tile.launch' attribute: bad tensormaps}}
    gpu.launch_func @tile_kernels::@f_kernel blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) dynamic_shared_memory_size %c0 args(%A : memref<16xf16>) {tile.launch = {kernel = "f_kernel", chip = "sm_90", grid = array<i64: 1, 1, 1>, block = array<i64: 1, 1, 1>, shared_bytes = 0 : i64, args = ["A f16 16"], tensormaps = [1 : i64], grid_expr = "1 1 1"}}
    return
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.binary @tile_kernels [#gpu.object<#nvvm.target<chip = "sm_90">, assembly = "">]
  func.func @f(%A: memref<16xf16>) {
    %c1 = arith.constant 1 : index
    %c0 = arith.constant 0 : i32
    // expected-error @+1 {{malformed 'tile.launch' attribute: bad cluster}}
    gpu.launch_func @tile_kernels::@f_kernel blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) dynamic_shared_memory_size %c0 args(%A : memref<16xf16>) {tile.launch = {kernel = "f_kernel", chip = "sm_90", grid = array<i64: 1, 1, 1>, block = array<i64: 1, 1, 1>, shared_bytes = 0 : i64, args = ["A f16 16"], grid_expr = "1 1 1", cluster = array<i32: 2, 1>}}
    return
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.binary @tile_kernels [#gpu.object<#nvvm.target<chip = "sm_90">, assembly = "">]
  func.func @f(%A: memref<16xf16>) {
    %c1 = arith.constant 1 : index
    %c0 = arith.constant 0 : i32
    // expected-error @+1 {{malformed 'tile.launch' attribute: bad args}}
    gpu.launch_func @tile_kernels::@f_kernel blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) dynamic_shared_memory_size %c0 args(%A : memref<16xf16>) {tile.launch = {kernel = "f_kernel", chip = "sm_90", grid = array<i64: 1, 1, 1>, block = array<i64: 1, 1, 1>, shared_bytes = 0 : i64, args = ["A f16 16", 7 : i64], grid_expr = "1 1 1"}}
    return
  }
}
