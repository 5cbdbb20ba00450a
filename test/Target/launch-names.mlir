// RUN: tile-opt %s --tile-lower-to-nvgpu=chip=sm_90 | tile-translate --tile-emit-launch | FileCheck %s
// RUN: %if ptxas %{ tile-opt %s --tile-to-ptx=chip=sm_90 | tile-translate --tile-emit-ptx -o %t.ptx %}
// RUN: %if ptxas %{ %ptxas -arch=sm_90 %t.ptx -o %t.cubin %}

// Names in the launch description: the entry is the function's name with
// "_kernel" ('$' and '_' are PTX identifier characters); a parameter is its
// tile.name, else A, B, C, ... by its place among the memrefs, and arg26,
// arg27, ... after Z. ptxas takes the entry's name.

// CHECK:      kernel $k_kernel
// CHECK:      arg _x1 f16 16x64
// CHECK-NEXT: arg B f16 16x64
// CHECK:      arg Z f16 16x64
// CHECK-NEXT: arg arg26 f16 16x64
// CHECK-NEXT: arg arg27 f32 16x64
// CHECK-NEXT: grid_expr
func.func @"$k"(%x: memref<16x64xf16> {tile.name = "_x1"}, %a0: memref<16x64xf16>, %a1: memref<16x64xf16>, %a2: memref<16x64xf16>, %a3: memref<16x64xf16>, %a4: memref<16x64xf16>, %a5: memref<16x64xf16>, %a6: memref<16x64xf16>, %a7: memref<16x64xf16>, %a8: memref<16x64xf16>, %a9: memref<16x64xf16>, %a10: memref<16x64xf16>, %a11: memref<16x64xf16>, %a12: memref<16x64xf16>, %a13: memref<16x64xf16>, %a14: memref<16x64xf16>, %a15: memref<16x64xf16>, %a16: memref<16x64xf16>, %a17: memref<16x64xf16>, %a18: memref<16x64xf16>, %a19: memref<16x64xf16>, %a20: memref<16x64xf16>, %a21: memref<16x64xf16>, %a22: memref<16x64xf16>, %a23: memref<16x64xf16>, %a24: memref<16x64xf16>, %a25: memref<16x64xf16>, %last: memref<16x64xf32>) {
  %c1 = arith.constant 1 : index
  tile.kernel grid(%c1) threads(32) as (%bx) {
    %s = tile.alloc_shared : memref<16x64xf16, #gpu.address_space<workgroup>>
    tile.copy %x to %s : memref<16x64xf16> to memref<16x64xf16, #gpu.address_space<workgroup>>
  }
  return
}
