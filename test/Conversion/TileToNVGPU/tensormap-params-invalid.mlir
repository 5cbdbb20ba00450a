// RUN: tile-opt %s --split-input-file --tile-tensormap-params -verify-diagnostics

gpu.module @tile_kernels {
  // expected-error @+1 {{tensor map parameter #2 out of range: the kernel has 2 parameters}}
  llvm.func @k(%a: !llvm.ptr, %m: !llvm.ptr)
      attributes {nvvm.kernel, tile.tensormap_params = array<i64: 1, 2>} {
    llvm.return
  }
}

// -----

gpu.module @tile_kernels {
  // expected-error @+1 {{tensor map parameter #1 is 'i64', not a pointer}}
  llvm.func @k(%a: !llvm.ptr, %m: i64)
      attributes {nvvm.kernel, tile.tensormap_params = array<i64: 1>} {
    llvm.return
  }
}

// -----

gpu.module @tile_kernels {
  // expected-error @+1 {{'tile.tensormap_params' on a function that is not an NVVM kernel: only kernel parameters can be grid constants}}
  llvm.func @f(%m: !llvm.ptr) attributes {tile.tensormap_params = array<i64: 0>} {
    llvm.return
  }
}

// -----

gpu.module @tile_kernels {
  // expected-error @+1 {{'tile.tensormap_params' must be an array of parameter indices (i64)}}
  llvm.func @k(%m: !llvm.ptr) attributes {nvvm.kernel, tile.tensormap_params = 1 : i64} {
    llvm.return
  }
}
