// RUN: tile-opt %s --tile-to-ptx=chip=sm_80 -verify-diagnostics
// RUN: not tile-opt %s --tile-to-ptx=chip=sm_80 2>&1 \
// RUN:   | FileCheck %s --implicit-check-not="see current operation"
// CHECK: error: 'gpu.module' op is GPU code already

// tile-to-ptx starts from tile kernels. GPU code lowered before (here with
// an instruction sm_80 lacks) would reach LLVM's instruction selection
// unchecked, which aborts on it instead of reporting an error.
// expected-error @+1 {{'gpu.module' op is GPU code already; tile-to-ptx compiles tile kernels, so give it the module before tile-lower-to-nvgpu}}
gpu.module @tile_kernels {
  llvm.func @k(%map: !llvm.ptr) attributes {nvvm.kernel} {
    nvvm.prefetch tensormap, %map : !llvm.ptr
    llvm.return
  }
}
