# The Python package compiles through the C API and reports diagnostics.
# RUN: %tile_python %s | FileCheck %s

import tile_mlir

KERNEL = """
func.func @f(%A: memref<64x64xf16>) {
  %c1 = arith.constant 1 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %s = tile.alloc_shared : memref<64x64xf16, #gpu.address_space<workgroup>>
    tile.copy %A to %s : memref<64x64xf16> to memref<64x64xf16, #gpu.address_space<workgroup>>
  }
  return
}
"""

# CHECK: tile.kernel grid(%{{.*}}) threads(128) as (%bx)
# CHECK: tile.copy %{{.*}} to %{{.*}} : memref<64x64xf16> to memref<64x64xf16, #gpu.address_space<workgroup>>
print(tile_mlir.verify(KERNEL))

# A pipeline runs: canonicalize folds nothing away here but must succeed.
# CHECK: canonicalized: True
print("canonicalized:", "tile.copy" in tile_mlir.compile(KERNEL, "builtin.module(canonicalize)"))

# CHECK: error: 'tile.kernel' op threads must be a positive multiple of 32 (the warp size), got 100
try:
    tile_mlir.verify(KERNEL.replace("threads(128)", "threads(100)"))
except tile_mlir.CompileError as e:
    print(e.diagnostics)

# CHECK: bad pipeline rejected: True
try:
    tile_mlir.compile(KERNEL, "builtin.module(no-such-pass)")
except tile_mlir.CompileError as e:
    print("bad pipeline rejected:", "no-such-pass" in e.diagnostics)
