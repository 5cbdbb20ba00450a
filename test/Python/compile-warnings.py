# The warnings and remarks of a compilation that succeeds reach the caller:
# each diagnostic, its notes included, is a tile_mlir.CompileWarning issued at
# the caller's line, and the Kernel of compile_to_ptx keeps them.
# RUN: rm -rf %t && mkdir -p %t
# RUN: %python %tile_src_root/test/Execution/Inputs/gemm.py --emit kernel --M 100 --N 70 --K 37 --bm 64 --bn 64 --bk 32 --num-stages 2 > %t/odd.mlir
# RUN: %tile_python %s %t 2> %t/stderr | FileCheck %s
# RUN: FileCheck %s --check-prefix=STDERR < %t/stderr

import sys
import warnings
from pathlib import Path

import tile_mlir
import tile_mlir.language as T

odd = (Path(sys.argv[1]) / "odd.mlir").read_text()

# With tma=True the copies of A stay cp.async (its rows are 74 bytes): the
# remark tile-opt prints, under Python's default filter, on stderr at this
# line.
# STDERR: compile-warnings.py:[[@LINE+4]]: CompileWarning: <input>:31:7: remark: async copies stay cp.async, not the TMA: the rows of its global tensor are 74 bytes, not a multiple of 16
# STDERR-NEXT: {{^}} tile.copy %A[%row, %ko] to %A_s : !A to !As{{$}}
# STDERR-NEXT: {{^}} ^{{$}}
# STDERR-NEXT: kernel = tile_mlir.compile_to_ptx(odd, chip="sm_90a", tma=True)
kernel = tile_mlir.compile_to_ptx(odd, chip="sm_90a", tma=True)

# The Kernel keeps it, the message of the warning word for word.
# CHECK: exact: True
REMARK = ("<input>:31:7: remark: async copies stay cp.async, not the TMA: the "
          "rows of its global tensor are 74 bytes, not a multiple of 16\n"
          "      tile.copy %A[%row, %ko] to %A_s : !A to !As\n"
          "      ^")
print("exact:", kernel.diagnostics == (REMARK,))

# One warning per call, a CompileWarning at the caller's line, whichever
# function it calls.
# CHECK-NEXT: CompileWarning compile-warnings.py:[[@LINE+6]] exact: True
# CHECK-NEXT: CompileWarning compile-warnings.py:[[@LINE+6]] exact: True
# CHECK-NEXT: CompileWarning compile-warnings.py:[[@LINE+6]] exact: True
pipeline = "builtin.module(tile-to-ptx{chip=sm_90a tma=true print-budget=false})"
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    tile_mlir.compile_to_ptx(odd, chip="sm_90a", tma=True)
    tile_mlir.compile(odd, pipeline)
    tile_mlir.compile_to_ptx(odd, chip="sm_90a", tma=True)
for w in caught:
    print(w.category.__name__, f"{Path(w.filename).name}:{w.lineno}",
          "exact:", str(w.message) == REMARK)

# Where warnings are errors, the first one is raised.
# CHECK-NEXT: raised: <input>:31:7: remark: async copies stay cp.async, not the TMA: the rows of its global tensor are 74 bytes, not a multiple of 16
with warnings.catch_warnings():
    warnings.simplefilter("error", tile_mlir.CompileWarning)
    try:
        tile_mlir.compile_to_ptx(odd, chip="sm_90a", tma=True)
        print("no error")
    except tile_mlir.CompileWarning as e:
        print("raised:", str(e).splitlines()[0])

# Without TMA the same kernel compiles cleanly: no warning, no diagnostics.
# CHECK-NEXT: clean: 0 ()
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    kernel = tile_mlir.compile_to_ptx(odd, chip="sm_90a")
    tile_mlir.verify(odd)
print("clean:", len(caught), kernel.diagnostics)

# Each diagnostic is one warning, its note (and the lines both quote) with
# it: the C API hands each over in one call.
DEMOTED = """
!A = memref<256x256xf16>
!As = memref<64x32xf16, #gpu.address_space<workgroup>>
!Bs = memref<32x64xf16, #gpu.address_space<workgroup>>
!Cl = memref<64x64xf32, #gpu.address_space<private>>
func.func @read_then_load(%A: !A, %B: !A) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : !As
    %B_s = tile.alloc_shared : !Bs
    %C_l = tile.alloc_fragment : !Cl
    tile.pipelined %c0 to %c8 step %c1 num_stages = 2 as (%k) {
      tile.gemm %A_s, %B_s, %C_l : !As, !Bs, !Cl
      tile.copy %A[%c0, %k] to %A_s : !A to !As
      tile.copy %B[%k, %c0] to %B_s : !A to !Bs
    }
  }
  return
}
"""
# CHECK-NEXT: warning 1:
# CHECK-NEXT: <input>:16:7: warning: this copy stays in the consumer stage
# CHECK-NEXT: tile.copy %A[%c0, %k] to %A_s
# CHECK-NEXT: ^
# CHECK-NEXT: <input>:15:7: note: {{.*}} here{{$}}
# CHECK-NEXT: tile.gemm %A_s, %B_s, %C_l
# CHECK-NEXT: ^
# CHECK-NEXT: warning 2:
# CHECK-NEXT: <input>:17:7: warning: this copy stays in the consumer stage
# CHECK-NEXT: tile.copy %B[%k, %c0] to %B_s
# CHECK-NEXT: ^
# CHECK-NEXT: <input>:15:7: note: {{.*}} here{{$}}
# CHECK-NEXT: tile.gemm %A_s, %B_s, %C_l
# CHECK-NEXT: ^
# CHECK-NEXT: warning 3:
# CHECK-NEXT: <input>:14:5: warning: num_stages = 2 finds nothing to overlap
# CHECK-NEXT: tile.pipelined %c0 to %c8
# CHECK-NEXT: ^
# CHECK-NEXT: end
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    tile_mlir.compile(DEMOTED, "builtin.module(tile-pipeline-planning)")
for number, w in enumerate(caught, 1):
    print(f"warning {number}:\n{w.message}")
print("end")


# A kernel of tile_mlir.language: the warning is at the line that compiles
# it, not inside the package, and the remark's location is the Python line
# of the copy.
@T.prim_func
def gemm(A: T.Tensor((100, 37), "float16"), B: T.Tensor((37, 70), "float16"),
         C: T.Tensor((100, 70), "float16")):
    with T.Kernel(T.ceildiv(70, 64), T.ceildiv(100, 64), threads=128) as (bx, by):
        A_s = T.alloc_shared((64, 32), "float16")
        B_s = T.alloc_shared((32, 64), "float16")
        C_l = T.alloc_fragment((64, 64), "float32")
        T.clear(C_l)
        for k in T.Pipelined(T.ceildiv(37, 32), num_stages=2):
            T.copy(A[by * 64, k * 32], A_s)
            T.copy(B[k * 32, bx * 64], B_s)
            T.gemm(A_s, B_s, C_l)
        T.copy(C_l, C[by * 64, bx * 64])


# CHECK-NEXT: compile-warnings.py:[[@LINE+4]]: {{.*}}compile-warnings.py:[[@LINE-6]]:13: remark: async copies stay cp.async, not the TMA: the rows of its global tensor are 74 bytes, not a multiple of 16
# CHECK-NEXT: kept: True
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    kernel = gemm.compile_to_ptx(chip="sm_90a", tma=True)
for w in caught:
    print(f"{Path(w.filename).name}:{w.lineno}: {w.message}")
print("kept:", kernel.diagnostics == tuple(str(w.message) for w in caught))
