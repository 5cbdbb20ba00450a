#!/usr/bin/env python3
"""Stands in for tile-opt in mutated-kernels.test: aborts on a kernel with a
tile.gemm and fails without a diagnostic on any other input, so that every
run of mutate_kernels.py is one it must report as broken. With
FAKE_INTERNAL_ERROR set, it instead fails every input with an error of the
backend about IR the compiler made, which is broken as well."""
import os
import sys

source = sys.stdin.read()
if os.environ.get("FAKE_INTERNAL_ERROR"):
    sys.stderr.write("<stdin>:3:5: error: failed to legalize operation "
                     "'arith.truncf' that was explicitly marked illegal\n")
    sys.exit(1)
if "tile.gemm" in source:
    os.abort()
sys.exit(1)
