#!/usr/bin/env python3
"""Stands in for tile-translate in random-gemms.test: runs the real one
(FAKE_REAL_TILE_TRANSLATE) with the same arguments and, where it wrote PTX,
gives the kernel a local depot, as a fragment that LLVM left in local memory
would, so that random_gemms.py must report every kernel it compiles."""
import os
import subprocess
import sys

args = sys.argv[1:]
result = subprocess.run([os.environ["FAKE_REAL_TILE_TRANSLATE"]] + args)
if result.returncode != 0 or "--tile-emit-ptx" not in args:
    sys.exit(result.returncode)
path = args[args.index("-o") + 1]
with open(path) as f:
    ptx = f.read()
entry = ptx.index("{", ptx.index(".entry"))
ptx = (ptx[:entry + 1] + "\n\t.local .align 16 .b8 \t__local_depot0[64];" +
       ptx[entry + 1:])
with open(path, "w") as f:
    f.write(ptx)
