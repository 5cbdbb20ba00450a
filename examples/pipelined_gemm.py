#!/usr/bin/env python3
"""The seed's three GEMMs written in Python (tile_mlir.language), compiled
to PTX through the C API.

    PYTHONPATH=python python3 examples/pipelined_gemm.py [--variant auto]
        [--m 4096 --n 4096 --k 4096] [--block-m 128 --block-n 128
        --block-k 32] [--stages 3] [--threads 128] [--chip sm_90a]
        [--print-mlir] [--out DIR]

It prints the shared-memory budget table (on stderr, as tile-opt does), or
the compiler's error for a configuration that does not fit, and writes
DIR/<variant>.ptx and DIR/<variant>.launch for tile-run. The kernels are
those of examples/matmul_{auto,manual,plain}.mlir, line for line: at the
defaults they compile to the same PTX (test/Python/language-examples.py).
"""

import argparse
import sys

import tile_mlir
import tile_mlir.language as T


def matmul(M, N, K, bm, bn, bk, variant="auto", stages=3, threads=128):
    """C = A * B, fp16 in, fp32 accumulation, fp16 out. `variant`: `auto`
    gives only the depth, `manual` stage and order by hand (a 2-stage
    schedule), `plain` a serial loop."""

    def loop(n):
        if variant == "auto":
            return T.Pipelined(n, num_stages=stages)
        if variant == "manual":
            return T.Pipelined(n, stage=[0, 0, 1], order=[0, 1, 2])
        return T.serial(n)

    def matmul_fn(A: T.Tensor((M, K), "float16"),
                  B: T.Tensor((K, N), "float16"),
                  C: T.Tensor((M, N), "float16")):
        with T.Kernel(T.ceildiv(N, bn), T.ceildiv(M, bm),
                      threads=threads) as (bx, by):
            A_s = T.alloc_shared((bm, bk), "float16")
            B_s = T.alloc_shared((bk, bn), "float16")
            C_l = T.alloc_fragment((bm, bn), "float32")
            T.clear(C_l)
            row, col = by * bm, bx * bn
            for k in loop(T.ceildiv(K, bk)):
                ko = k * bk
                T.copy(A[row, ko], A_s)
                T.copy(B[ko, col], B_s)
                T.gemm(A_s, B_s, C_l)
            T.copy(C_l, C[row, col])

    matmul_fn.__name__ = f"matmul_{variant}"
    return T.prim_func(matmul_fn)


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--variant", choices=["auto", "manual", "plain"],
                   default="auto")
    for name, default in (("m", 4096), ("n", 4096), ("k", 4096),
                          ("block-m", 128), ("block-n", 128),
                          ("block-k", 32), ("stages", 3), ("threads", 128)):
        p.add_argument(f"--{name}", type=int, default=default)
    p.add_argument("--chip", default="sm_90a")
    p.add_argument("--print-mlir", action="store_true",
                   help="print the kernel as the tile dialect's text")
    p.add_argument("--out", help="write <variant>.ptx and .launch here")
    a = p.parse_args(argv)
    kernel = matmul(a.m, a.n, a.k, a.block_m, a.block_n, a.block_k,
                    a.variant, a.stages, a.threads)
    if a.print_mlir:
        print(kernel)
    try:
        compiled = kernel.compile_to_ptx(chip=a.chip, print_budget=True)
    except tile_mlir.CompileError as e:
        print(e.diagnostics, file=sys.stderr, end="")
        return 1
    if a.out:
        for path in compiled.write(a.out, a.variant):
            print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
