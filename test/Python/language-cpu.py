# Kernels written with tile_mlir.language run on the CPU (docs/execution.md)
# and match the f32 reference of test/Execution/Inputs/gemm.py exactly, at
# sizes that are not tile multiples: each variant prints @gemm, gemm.py
# appends the @main that fills, calls and checks it.
#
# RUN: %tile_python %s auto > %t.auto.mlir
# RUN: %python %tile_src_root/test/Execution/Inputs/gemm.py --emit main --M 100 --N 70 --K 37 >> %t.auto.mlir
# RUN: tile-opt %t.auto.mlir --tile-pipeline-planning --tile-software-pipeline --tile-lower-to-cpu %tile_cpu_to_llvm \
# RUN:   | %tile_cpu_runner | FileCheck %s
# RUN: %tile_python %s manual > %t.manual.mlir
# RUN: %python %tile_src_root/test/Execution/Inputs/gemm.py --emit main --M 100 --N 70 --K 37 >> %t.manual.mlir
# RUN: tile-opt %t.manual.mlir --tile-pipeline-planning --tile-software-pipeline --tile-lower-to-cpu %tile_cpu_to_llvm \
# RUN:   | %tile_cpu_runner | FileCheck %s
# RUN: %tile_python %s plain > %t.plain.mlir
# RUN: %python %tile_src_root/test/Execution/Inputs/gemm.py --emit main --M 100 --N 70 --K 37 >> %t.plain.mlir
# RUN: tile-opt %t.plain.mlir --tile-lower-to-cpu %tile_cpu_to_llvm | %tile_cpu_runner | FileCheck %s
# RUN: %tile_python %s negative > %t.negative.mlir
# RUN: %python %tile_src_root/test/Execution/Inputs/gemm.py --emit main --M 100 --N 70 --K 37 >> %t.negative.mlir
# RUN: tile-opt %t.negative.mlir --tile-pipeline-planning --tile-software-pipeline --tile-lower-to-cpu %tile_cpu_to_llvm \
# RUN:   | %tile_cpu_runner | FileCheck %s
# RUN: %tile_python %s grid1d > %t.grid1d.mlir
# RUN: %python %tile_src_root/test/Execution/Inputs/gemm.py --emit main --M 100 --N 70 --K 37 --transpose-b >> %t.grid1d.mlir
# RUN: tile-opt %t.grid1d.mlir --tile-pipeline-planning --tile-software-pipeline --tile-lower-to-cpu %tile_cpu_to_llvm \
# RUN:   | %tile_cpu_runner | FileCheck %s
#
# The pipelined variants really are pipelined: multi-buffered shared tiles
# and async copies.
# RUN: tile-opt %t.grid1d.mlir --tile-pipeline-planning --tile-software-pipeline | FileCheck %s --check-prefix=PIPE

# CHECK:      max_abs_error: 0{{$}}
# CHECK-NEXT: unwritten: 0{{$}}
# CHECK-NEXT: checked: 7000{{$}}

# The text itself: SSA names from the Python variables (a tile after the
# variable it is assigned to, an index value after the variable that holds
# the last one its line computed, or each of a tuple's), index arithmetic
# where the Python computed it, each op located at its Python line.
# RUN: %tile_python %s grid1d | FileCheck %s --check-prefix=TEXT
# TEXT: func.func @gemm(%A: memref<100x37xf16> {tile.name = "A"} loc("{{[^"]*}}language-cpu.py":[[LOC:[0-9]+:[0-9]+]]), %B: memref<70x37xf16> {tile.name = "B"} loc("{{[^"]*}}language-cpu.py":[[LOC]]), %C: memref<100x70xf16> {tile.name = "C"} loc("{{[^"]*}}language-cpu.py":[[LOC]])) {
# TEXT: tile.kernel grid(%c12) threads(64) as (%b) {
# TEXT-NEXT: %by = arith.divui %b, %c3 : index loc("{{.*}}language-cpu.py":[[#SPLIT:]]:22)
# TEXT-NEXT: %bx = arith.remui %b, %c3 : index
# TEXT-NEXT: %A_s = tile.alloc_shared : memref<32x16xf16, #gpu.address_space<workgroup>>
# TEXT: tile.pipelined %c1 to %c4 step %c1 num_stages = 4 as (%k) {
# TEXT-NEXT: %[[KM1:.*]] = arith.subi %k, %c1
# TEXT-NEXT: %ko = arith.muli %c16, %[[KM1]]
# TEXT-NEXT: %[[ROW:.*]] = arith.muli %by, %c32
# TEXT-NEXT: tile.copy %A[%[[ROW]], %ko] to %A_s
# TEXT: tile.gemm %A_s, %B_s, %C_l transpose_b :
# TEXT: } loc("{{.*}}language-cpu.py":[[#SPLIT+5]]:13)

# Unsigned division where both operands are known to be non-negative (block
# indices, the grid1d split), floor division where not.
# RUN: FileCheck %s --check-prefix=NEG < %t.negative.mlir
# NEG: tile.pipelined %[[LO:.*]] to %c1 step %c2 num_stages = 2 as (%k) {
# NEG-NEXT: %[[Q:.*]] = arith.floordivsi %k, %c2
# NEG-NEXT: %[[T:.*]] = arith.addi %[[Q]], %c3
# NEG-NEXT: %ka = arith.muli %[[T]], %c16
# NEG-NEXT: %[[Q2:.*]] = arith.floordivsi %k, %c6
# NEG-NEXT: %[[P:.*]] = arith.muli %[[Q2]], %c6
# NEG-NEXT: %[[R:.*]] = arith.subi %k, %[[P]]
# NEG-NEXT: %[[R1:.*]] = arith.subi %[[R]], %c1
# NEG-NEXT: %[[H:.*]] = arith.floordivsi %[[R1]], %c2
# NEG-NEXT: %kb = arith.muli %[[H]], %c16

# PIPE: tile.alloc_shared : memref<4x32x16xf16, #gpu.address_space<workgroup>>
# PIPE: tile.copy_async
# PIPE: tile.wait_group

import sys

import tile_mlir.language as T

M, N, K = 100, 70, 37
bm, bn, bk = 32, 32, 16
variant = sys.argv[1]


def reduction(n):
    if variant == "auto":
        return T.Pipelined(n, num_stages=3)
    if variant == "manual":
        return T.Pipelined(n, stage=[0, 0, 1], order=[1, 0, 2])
    return T.serial(n)


if variant in ("auto", "manual", "plain"):
    # TileLang's GEMM as written there: the offsets inside the loop.
    @T.prim_func
    def gemm(A: T.Tensor((M, K), "float16"), B: T.Tensor((K, N), "float16"),
             C: T.Tensor((M, N), "float16")):
        with T.Kernel(T.ceildiv(N, bn), T.ceildiv(M, bm), threads=128) as (bx, by):
            A_s = T.alloc_shared((bm, bk), "float16")
            B_s = T.alloc_shared((bk, bn), "float16")
            C_l = T.alloc_fragment((bm, bn), "float32")
            T.clear(C_l)
            for k in reduction(T.ceildiv(K, bk)):
                T.copy(A[by * bm, k * bk], A_s)
                T.copy(B[k * bk, bx * bn], B_s)
                T.gemm(A_s, B_s, C_l)
            T.copy(C_l, C[by * bm, bx * bn])
elif variant == "negative":
    # Python's floor division and modulo on negative values: k runs over
    # the odd numbers 1 - 2 * nk .. -1, and k // 2 + nk (floor division:
    # -nk .. -1, plus nk) and (k % (2 * nk) - 1) // 2 (floor modulo: 1 ..
    # 2 * nk - 1, odd) both give the k-tile 0 .. nk - 1. Unsigned or
    # truncating division would read the wrong tiles.
    nk = T.ceildiv(K, bk)

    @T.prim_func
    def gemm(A: T.Tensor((M, K), "float16"), B: T.Tensor((K, N), "float16"),
             C: T.Tensor((M, N), "float16")):
        with T.Kernel(T.ceildiv(N, bn), T.ceildiv(M, bm), threads=128) as (bx, by):
            A_s = T.alloc_shared((bm, bk), "float16")
            B_s = T.alloc_shared((bk, bn), "float16")
            C_l = T.alloc_fragment((bm, bn), "float32")
            T.clear(C_l)
            for k in T.Pipelined(1 - 2 * nk, 1, num_stages=2, step=2):
                ka = (k // 2 + nk) * bk
                kb = (k % (2 * nk) - 1) // 2 * bk
                T.copy(A[by * bm, ka], A_s)
                T.copy(B[kb, bx * bn], B_s)
                T.gemm(A_s, B_s, C_l)
            T.copy(C_l, C[by * bm, bx * bn])
else:
    # A 1-D grid split with // and %, B stored NxK, a loop from 1 whose
    # 3 k-steps are fewer than its 4 stages.
    nx = T.ceildiv(N, bn)

    @T.prim_func
    def gemm(A: T.Tensor((M, K), "float16"), B: T.Tensor((N, K), "float16"),
             C: T.Tensor((M, N), "float16")):
        with T.Kernel(T.ceildiv(M, bm) * nx, threads=64) as b:
            by, bx = b // nx, b % nx
            A_s = T.alloc_shared((bm, bk), "float16")
            B_s = T.alloc_shared((bn, bk), "float16")
            C_l = T.alloc_fragment((bm, bn), "float32")
            T.clear(C_l)
            for k in T.Pipelined(1, T.ceildiv(K, bk) + 1, num_stages=4):
                ko = bk * (k - 1)
                T.copy(A[by * bm, ko], A_s)
                T.copy(B[bx * bn, ko], B_s)
                T.gemm(A_s, B_s, C_l, transpose_B=True)
            T.copy(C_l, C[by * bm, bx * bn])

print(gemm)
