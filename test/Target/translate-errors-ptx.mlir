// RUN: tile-translate --tile-emit-ptx %s --split-input-file --verify-diagnostics

// Inputs tile-translate --tile-emit-ptx cannot write PTX from.

// expected-error @+1 {{no gpu.binary holding PTX; run tile-opt --tile-to-ptx=chip=sm_XX first}}
module {
}

// -----

module attributes {gpu.container_module} {
  // expected-error @+1 {{object is not PTX text; compile with gpu-module-to-binary{format=isa}}}
  gpu.binary @tile_kernels [#gpu.object<#nvvm.target<chip = "sm_90">, bin = "\00\01">]
}
