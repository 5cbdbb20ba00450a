# The Python package compiles through the C API and reports diagnostics.
# RUN: %tile_python %s | FileCheck %s

import tile_mlir

KERNEL = """
func.func @f(%A: memref<64x64xf16>) {
  %c1 = arith.constant 1 : index
  %unused = arith.addi %c1, %c1 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %s = tile.alloc_shared : memref<64x64xf16, #gpu.address_space<workgroup>>
    tile.copy %A to %s : memref<64x64xf16> to memref<64x64xf16, #gpu.address_space<workgroup>>
  }
  return
}
"""

# CHECK: arith.addi
# CHECK: tile.kernel grid(%{{.*}}) threads(128) as (%bx)
# CHECK: tile.copy %{{.*}} to %{{.*}} : memref<64x64xf16> to memref<64x64xf16, #gpu.address_space<workgroup>>
print(tile_mlir.verify(KERNEL))

# The pipeline runs on the module: canonicalize deletes the unused addition
# and keeps the copy.
# CHECK: canonicalized: True
canonical = tile_mlir.compile(KERNEL, "builtin.module(canonicalize)")
print("canonicalized:", "arith.addi" not in canonical and "tile.copy" in canonical)

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

# The C API's strings carry their length and need no NUL: a NUL inside the
# source reaches the parser, and the diagnostic that quotes the line comes
# back whole, the NUL and what follows it included.
# CHECK: NUL kept: True
try:
    tile_mlir.compile("module {}\x00garbage")
except tile_mlir.CompileError as e:
    print("NUL kept:", "custom op 'garbage' is unknown" in e.diagnostics
          and "module {}\x00garbage\n" in e.diagnostics)

# Resources that no dialect claims are printed back, as tile-opt prints them
# (they were dropped).
# CHECK:      external_resources: {
# CHECK-NEXT:   host_notes: {
# CHECK-NEXT:     checked: true
WITH_RESOURCES = """module {}
{-#
  external_resources: { host_notes: { checked: true } }
#-}
"""
print(tile_mlir.compile(WITH_RESOURCES, "builtin.module(cse)"))
