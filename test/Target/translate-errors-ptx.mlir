// RUN: tile-translate --tile-emit-ptx %s --split-input-file --verify-diagnostics
// RUN: not tile-translate --tile-emit-ptx %s --split-input-file 2>&1 \
// RUN:   | FileCheck %s --implicit-check-not="see current operation"

// Each error comes alone, without the op it names printed after it (a
// gpu.binary with all of its PTX, or the whole module).
// CHECK: error: no gpu.binary holding PTX and no tile.kernel
// CHECK: error: object is not PTX text
// CHECK: error: holds a second PTX object
// CHECK: error: holds a second PTX object
// CHECK: error: no gpu.binary holding PTX
// CHECK: error: no gpu.binary holding PTX;

// Inputs tile-translate --tile-emit-ptx cannot write PTX from.

// A module without any kernel has nothing to compile either.
// expected-error @+1 {{no gpu.binary holding PTX and no tile.kernel: the module has no kernel to write}}
module {
}

// -----

module attributes {gpu.container_module} {
  // expected-error @+1 {{object is not PTX text; compile with gpu-module-to-binary{format=isa}}}
  gpu.binary @tile_kernels [#gpu.object<#nvvm.target<chip = "sm_90">, bin = "\00\01">]
}

// -----

// Two PTX objects would make one file that does not assemble.
module attributes {gpu.container_module} {
  gpu.binary @a [#gpu.object<#nvvm.target<chip = "sm_90">, assembly = ".version 8.0\0A">]
  // expected-error @+1 {{holds a second PTX object, and a PTX file holds one; tile-to-ptx puts every kernel of a module into one gpu.binary for one chip}}
  gpu.binary @b [#gpu.object<#nvvm.target<chip = "sm_90">, assembly = ".version 8.0\0A">]
}

// -----

// One gpu.binary with objects for two chips: the same.
module attributes {gpu.container_module} {
  // expected-error @+1 {{holds a second PTX object}}
  gpu.binary @a [#gpu.object<#nvvm.target<chip = "sm_80">, assembly = ".version 8.0\0A">, #gpu.object<#nvvm.target<chip = "sm_90">, assembly = ".version 8.0\0A">]
}

// -----

// A module that still holds a tile kernel (tile-opt was not run on it)
// parses, and gets the same advice.
// expected-error @+1 {{no gpu.binary holding PTX; run tile-opt --tile-to-ptx=chip=sm_XX first}}
module {
  func.func @f() {
    %c1 = arith.constant 1 : index
    tile.kernel grid(%c1) threads(32) as (%bx) {
    }
    return
  }
}

// -----

// A gpu.module without a gpu.binary: tile-lower-to-nvgpu ran, but not the
// rest of tile-to-ptx. The kernel is there, so the same advice.
// expected-error @+1 {{no gpu.binary holding PTX; run tile-opt --tile-to-ptx=chip=sm_XX first}}
module attributes {gpu.container_module} {
  gpu.module @tile_kernels {
    gpu.func @k() kernel {
      gpu.return
    }
  }
}
