# The Python package's own errors: a missing C API library, and launch
# descriptions it cannot read.
# RUN: %tile_python %s | FileCheck %s

import os

import tile_mlir

# Without the library, the first call says where it looked and how to fix it.
# CHECK: OSError: libTileCAPI.so not found at /nonexistent/libTileCAPI.so: build tile-mlir (scripts/test.sh) or set TILE_MLIR_CAPI
library = os.environ["TILE_MLIR_CAPI"]
os.environ["TILE_MLIR_CAPI"] = "/nonexistent/libTileCAPI.so"
try:
    tile_mlir.verify("module {}")
    print("no error")
except OSError as e:
    print("OSError:", e)
os.environ["TILE_MLIR_CAPI"] = library

# With the library back, the same call succeeds.
# CHECK-NEXT: verified: True
print("verified:", "module" in tile_mlir.verify("module {}"))

# A line the launch description format does not have.
# CHECK-NEXT: ValueError: unknown launch description line: 'registers 128'
try:
    tile_mlir.parse_launch("kernel k\ngrid 1 1 1\nregisters 128\n")
    print("no error")
except ValueError as e:
    print("ValueError:", e)

# Kernel.info describes the one launch of a module; two are refused.
# CHECK-NEXT: ValueError: the module launches 2 kernels
try:
    tile_mlir.Kernel(ptx="", launch="kernel a\ngrid 1 1 1\n\nkernel b\ngrid 1 1 1\n").info
    print("no error")
except ValueError as e:
    print("ValueError:", e)
