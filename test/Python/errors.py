# The Python package's own errors and edge cases: a missing C API library,
# launch descriptions, option values, diagnostics that are not UTF-8, and
# locations that name files.
# RUN: %tile_python %s %t | FileCheck %s

import os
import sys
import threading
import warnings
from pathlib import Path

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

# A line the launch description format does not have is skipped with a
# warning, as tile-run does; '#' starts a comment; no text, no launches.
# CHECK-NEXT: warning: unknown launch description key 'registers' ignored
# CHECK-NEXT: parsed: [{'args': [], 'tensormaps': [], 'kernel': 'k', 'grid': (1, 1, 1)}]
# CHECK-NEXT: empty: []
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    parsed = tile_mlir.parse_launch("# a comment\nkernel k  # the entry\ngrid 1 1 1\nregisters 128\n")
for w in caught:
    print("warning:", w.message)
print("parsed:", parsed)
print("empty:", tile_mlir.parse_launch(""))

# A line of a known key that does not read is an error naming the line.
# CHECK-NEXT: ValueError: launch description line 3: cannot read 'arg A f16' (expected 'arg <name> <dtype> <d0>x<d1>... [divisible <n>]')
# CHECK-NEXT: ValueError: launch description line 2: cannot read 'grid 1 x 1' ('x' is not an integer of at least 1)
# CHECK-NEXT: ValueError: launch description line 2: cannot read 'gemm_transpose 2 3' (expected 'gemm_transpose <0|1> <0|1>')
# CHECK-NEXT: ValueError: launch description line 2: cannot read 'grid 1 1 1 1 1' (expected 1 or 2 or 3 extents, got 5)
# CHECK-NEXT: ValueError: launch description line 2: cannot read 'block ? 1 1' ('?' is not an integer of at least 1)
# CHECK-NEXT: ValueError: launch description line 2: cannot read 'tensormap A 64x32 swizle none' (expected 'tensormap <arg> <rows>x<cols> swizzle <none|32|64|128>')
# What tile-run refuses too: extents below 1 (or written other than in
# digits), a negative shared_bytes, a line given twice, extra words.
# CHECK-NEXT: ValueError: launch description line 2: cannot read 'grid 0 -3 1' ('0' is not an integer of at least 1)
# CHECK-NEXT: ValueError: launch description line 2: cannot read 'block +128' ('+128' is not an integer of at least 1)
# CHECK-NEXT: ValueError: launch description line 2: cannot read 'shared_bytes -1' ('-1' is not an integer of at least 0)
# CHECK-NEXT: ValueError: launch description line 3: cannot read 'grid 2' (a second 'grid' line)
# CHECK-NEXT: ValueError: launch description line 3: cannot read 'arg A f16 4x4' (a second arg 'A')
# CHECK-NEXT: ValueError: launch description line 2: cannot read 'arg A f16 0x4' ('0' is not an integer of at least 1)
# CHECK-NEXT: ValueError: launch description line 2: cannot read 'arg A f16 4x4 junk' (expected 'arg <name> <dtype> <d0>x<d1>... [divisible <n>]')
# CHECK-NEXT: ValueError: launch description line 2: cannot read 'tensormap A 4x8x2 swizzle none' (box '4x8x2' is not <rows>x<cols>)
# CUDA's limits, which tile-run checks as it reads the description.
# CHECK-NEXT: ValueError: launch description line 2: cannot read 'block 2048 1 1' ('block' extent 2048 in x is above CUDA's limit of 1024)
# CHECK-NEXT: ValueError: launch description line 2: cannot read 'block 64 32 1' ('block' of 2048 threads is above CUDA's limit of 1024)
# CHECK-NEXT: ValueError: launch description line 2: cannot read 'grid 1 65536' ('grid' extent 65536 in y is above CUDA's limit of 65535)
# CHECK-NEXT: ValueError: launch description line 2: cannot read 'cluster 4 4 1' ('cluster' of 16 blocks is above CUDA's limit of 8)
# CHECK-NEXT: ValueError: launch description line 2: cannot read 'shared_bytes 4294967296' ('shared_bytes' value 4294967296 does not fit the driver's 32-bit size)
for text in ("kernel k\ngrid 1 1 1\narg A f16\n", "\ngrid 1 x 1\n",
             "kernel k\ngemm_transpose 2 3\n", "kernel k\ngrid 1 1 1 1 1\n",
             "kernel k\nblock ? 1 1\n",
             "kernel k\ntensormap A 64x32 swizle none\n",
             "kernel k\ngrid 0 -3 1\n", "kernel k\nblock +128\n",
             "kernel k\nshared_bytes -1\n", "kernel k\ngrid 1\ngrid 2\n",
             "kernel k\narg A f16 4x4\narg A f16 4x4\n",
             "kernel k\narg A f16 0x4\n", "kernel k\narg A f16 4x4 junk\n",
             "kernel k\ntensormap A 4x8x2 swizzle none\n",
             "kernel k\nblock 2048 1 1\n", "kernel k\nblock 64 32 1\n",
             "kernel k\ngrid 1 65536\n", "kernel k\ncluster 4 4 1\n",
             "kernel k\nshared_bytes 4294967296\n"):
    try:
        tile_mlir.parse_launch(text)
        print("no error")
    except ValueError as e:
        print("ValueError:", e)

# The compiler takes text.
# CHECK-NEXT: TypeError: expected a str, got bytes
try:
    tile_mlir.verify(b"module {}")
    print("no error")
except TypeError as e:
    print("TypeError:", e)

# Kernel.info describes the one launch of a module; two are refused.
# CHECK-NEXT: ValueError: the module launches 2 kernels
try:
    tile_mlir.Kernel(ptx="", launch="kernel a\ngrid 1 1 1\n\nkernel b\ngrid 1 1 1\n").info
    print("no error")
except ValueError as e:
    print("ValueError:", e)
# A kernel line starts the next launch, whether a blank line comes before
# it or not.
# CHECK-NEXT: ValueError: the module launches 2 kernels
try:
    tile_mlir.Kernel(ptx="", launch="kernel a\ngrid 1 1 1\nkernel b\ngrid 1 1 1\n").info
    print("no error")
except ValueError as e:
    print("ValueError:", e)
# Words are separated by any white space, and a blank line (spaces, a '\r')
# inside a launch does not end it: as tile-run reads it.
# CHECK-NEXT: one launch: {'args': [{'name': 'A', 'dtype': 'f16', 'shape': (64, 64)}], 'tensormaps': [], 'kernel': 'k', 'grid': (1, 2, 1)}
print("one launch:", tile_mlir.Kernel(
    ptx="", launch="kernel\tk\ngrid 1  2\t1\r\n \n\r\narg\tA f16 64x64\n").info)

# An option value that would change the pipeline's text is refused.
# CHECK-NEXT: ValueError: option chip='sm_80 print-budget=true': not a single value
try:
    tile_mlir.compile_to_ptx("module {}", chip="sm_80 print-budget=true")
    print("no error")
except ValueError as e:
    print("ValueError:", e)

# A source without a tile kernel has no PTX to write.
# CHECK-NEXT: CompileError: the source has no tile.kernel: there is no PTX to write
try:
    tile_mlir.compile_to_ptx("module {}", chip="sm_80")
    print("no error")
except tile_mlir.CompileError as e:
    print("CompileError:", e)

# An option value that does not parse is named in the error itself (llvm::cl
# prints its own reason to stderr only).
# CHECK-NEXT: CompileError: invalid value 'maybe' for option 'tma' of tile-to-ptx
try:
    tile_mlir.compile_to_ptx("module {}", chip="sm_90a", tma="maybe")
    print("no error")
except tile_mlir.CompileError as e:
    print("CompileError:", str(e).splitlines()[0])

# A diagnostic that quotes bytes which are not UTF-8 is still a CompileError.
# CHECK-NEXT: CompileError with \xff: True
try:
    tile_mlir.verify('func.func @f() {\n  func.call @"\\FF"() : () -> ()\n  return\n}')
    print("no error")
except tile_mlir.CompileError as e:
    print("CompileError with \\xff:", "\\xff" in e.diagnostics)

# A location that names a file: the message names it, but the compiler does
# not open it to quote its line.
# CHECK-NEXT: error: 'tile.kernel' op threads must be a positive multiple of 32 (the warp size), got 100
# CHECK-NEXT: quotes the file: False
secret = Path(sys.argv[1] + ".secret.mlir")
secret.write_text("a line only this file holds\n")
try:
    tile_mlir.verify(
        'func.func @f(%n: index) {\n'
        '  tile.kernel grid(%n) threads(100) as (%bx) {\n'
        f'  }} loc("{secret}":1:1)\n'
        '  return\n}')
except tile_mlir.CompileError as e:
    print(e.diagnostics.strip().splitlines()[0].split(": ", 1)[1])
    print("quotes the file:", "only this file holds" in e.diagnostics)

# The first calls from several threads at once all succeed (the library is
# configured before any thread can use it).
# CHECK-NEXT: threads: 8 of 8
tile_mlir._lib = None
results = []
def verify():
    results.append("module" in tile_mlir.verify("module {}"))
threads = [threading.Thread(target=verify) for _ in range(8)]
for t in threads:
    t.start()
for t in threads:
    t.join()
print(f"threads: {sum(results)} of 8")

# A relative TILE_MLIR_CAPI is taken from the current directory.
# CHECK-NEXT: relative: True
library = Path(os.environ["TILE_MLIR_CAPI"]).resolve()
os.chdir(library.parent)
os.environ["TILE_MLIR_CAPI"] = library.name
tile_mlir._lib = None
print("relative:", "module" in tile_mlir.verify("module {}"))
