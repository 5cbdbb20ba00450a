#!/usr/bin/env python3
"""Stands in for tile-opt in mutated-kernels.test: aborts on a kernel with a
tile.gemm and fails without a diagnostic on any other input, so that every
run of mutate_kernels.py is one it must report as broken."""
import os
import sys

if "tile.gemm" in sys.stdin.read():
    os.abort()
sys.exit(1)
