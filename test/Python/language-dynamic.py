# tile_mlir.language with sizes known only at run time: T.Tensor((None,
# None), ..., divisibility=8) and A.dim(d) give the seed GEMM over dynamic
# tensors, the same PTX and launch description as
# test/Runtime/Inputs/gemm_dynamic.mlir.
# RUN: %tile_python %s %tile_src_root 2>&1 | FileCheck %s

import sys
from pathlib import Path

import tile_mlir
import tile_mlir.language as T

root = Path(sys.argv[1])
Dyn = T.Tensor((None, None), "float16", divisibility=8)


@T.prim_func
def gemm(A: Dyn, B: Dyn, C: Dyn):
    M, K, N = A.dim(0), A.dim(1), B.dim(1)
    gx, gy, kt = T.ceildiv(N, 128), T.ceildiv(M, 128), T.ceildiv(K, 32)
    with T.Kernel(gx, gy, threads=128) as (bx, by):
        A_s = T.alloc_shared((128, 32), "float16")
        B_s = T.alloc_shared((32, 128), "float16")
        C_l = T.alloc_fragment((128, 128), "float32")
        T.clear(C_l)
        row, col = by * 128, bx * 128
        for k in T.Pipelined(kt, num_stages=3):
            ko = k * 32
            T.copy(A[row, ko], A_s)
            T.copy(B[ko, col], B_s)
            T.gemm(A_s, B_s, C_l)
        T.copy(C_l, C[row, col])


# CHECK: func.func @gemm(%A: memref<?x?xf16> {tile.name = "A", tile.divisibility = 8 : i64}
# CHECK: %M = memref.dim %A, %c0 : memref<?x?xf16>
# CHECK: %K = memref.dim %A, %c1 : memref<?x?xf16>
# CHECK: %N = memref.dim %B, %c1 : memref<?x?xf16>
# CHECK: %kt = arith.ceildivui %K, %c32 : index
print(gemm)

ours = gemm.compile_to_ptx(chip="sm_90a")
theirs = tile_mlir.compile_to_ptx(
    (root / "test/Runtime/Inputs/gemm_dynamic.mlir").read_text(), chip="sm_90a")
# CHECK: same PTX True, same launch True
print(f"same PTX {ours.ptx == theirs.ptx}, same launch {ours.launch == theirs.launch}")
# CHECK-NEXT: grid (None, None, 1), A (None, None) divisible 8
info = ours.info
print(f"grid {info['grid']}, A {info['args'][0]['shape']} divisible "
      f"{info['args'][0]['divisible']}")

# A static size stays a Python int; errors name the tensor.
# CHECK-NEXT: 64
# CHECK-NEXT: ValueError: A.dim(2): the tensor has 2 dimensions
# CHECK-NEXT: ValueError: T.Tensor: divisibility must be an int in 1..2**30, got 0
# CHECK-NEXT: TypeError: T.alloc_shared: the shape must be a non-empty tuple of Python ints, got (None, 32)


@T.prim_func
def sizes(A: T.Tensor((None, 64), "float16")):
    print(A.dim(1))
    try:
        A.dim(2)
    except ValueError as e:
        print(f"ValueError: {e}")
    try:
        T.Tensor((None,), "float16", divisibility=0)
    except ValueError as e:
        print(f"ValueError: {e}")
    with T.Kernel(1, threads=32) as bx:
        try:
            T.alloc_shared((None, 32), "float16")
        except TypeError as e:
            print(f"TypeError: {e}")
