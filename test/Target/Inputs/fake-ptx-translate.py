#!/usr/bin/env python3
"""Stands in for tile-translate in random-gemms.test: runs the real one
(FAKE_REAL_TILE_TRANSLATE) with the same arguments and, where it wrote PTX,
spoils it as FAKE_PTX says, so that random_gemms.py must report every kernel
it compiles:
  depot    a local depot, as a fragment that LLVM left in local memory has;
  barrier  a second `bar.sync 0;` after the kernel's first one."""
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
if os.environ["FAKE_PTX"] == "depot":
    at = ptx.index("{", ptx.index(".entry")) + 1
    ptx = ptx[:at] + "\n\t.local .align 16 .b8 \t__local_depot0[64];" + ptx[at:]
elif "bar.sync \t0;" in ptx:
    at = ptx.index("\n", ptx.index("bar.sync \t0;")) + 1
    ptx = ptx[:at] + "\tbar.sync \t0;\n" + ptx[at:]
with open(path, "w") as f:
    f.write(ptx)
