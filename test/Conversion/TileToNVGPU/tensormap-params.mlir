// RUN: tile-opt %s --split-input-file --tile-tensormap-params | FileCheck %s

// The parameters the outlining listed become 128-byte by-value grid
// constants; the list goes away. The pointers to buffers stay as they are.
// CHECK-LABEL: llvm.func @gemm_kernel(
// CHECK-SAME: %{{.*}}: !llvm.ptr,
// CHECK-SAME: %{{.*}}: !llvm.ptr {llvm.align = 128 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant},
// CHECK-SAME: %{{.*}}: !llvm.ptr {llvm.align = 128 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant})
// CHECK-SAME: attributes {nvvm.kernel} {
// CHECK: nvvm.prefetch tensormap
gpu.module @tile_kernels {
  llvm.func @gemm_kernel(%a: !llvm.ptr, %ma: !llvm.ptr, %mb: !llvm.ptr)
      attributes {nvvm.kernel, tile.tensormap_params = array<i64: 1, 2>} {
    nvvm.prefetch tensormap, %ma : !llvm.ptr
    llvm.return
  }
}

// -----

// A kernel without tensor maps is left alone.
// CHECK-LABEL: llvm.func @plain_kernel(%{{.*}}: !llvm.ptr) attributes {nvvm.kernel}
gpu.module @tile_kernels {
  llvm.func @plain_kernel(%a: !llvm.ptr) attributes {nvvm.kernel} {
    llvm.return
  }
}
