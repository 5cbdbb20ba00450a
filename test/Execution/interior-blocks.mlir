// CPU execution of --tile-specialize-interior-blocks: a GEMM whose sizes are
// not tile multiples runs its interior blocks through the version on
// min(index, G - 2) and the last block row and column through the original,
// and every element must match the plain loop nest's exactly. A wrong
// condition (an edge block taking the interior version, whose index is then
// clamped to G - 2) recomputes a neighbour's tile and leaves the edge tile
// wrong or unwritten. Grids: 2x2 (one interior block), 4x3, ragged in one
// dimension only, ragged K, transposed operands, and after the software
// pipeliner as tile-to-ptx runs it.
//
// RUN: %python %S/Inputs/gemm.py --variant plain --M 20 --N 12 --K 16 --bm 16 --bn 8 --bk 8 \
// RUN:   | tile-opt --tile-specialize-interior-blocks --tile-lower-to-cpu %tile_cpu_to_llvm \
// RUN:   | %tile_cpu_runner | FileCheck %s
// RUN: %python %S/Inputs/gemm.py --variant plain --M 60 --N 30 --K 24 --bm 16 --bn 8 --bk 8 \
// RUN:   | tile-opt --tile-specialize-interior-blocks --tile-lower-to-cpu %tile_cpu_to_llvm \
// RUN:   | %tile_cpu_runner | FileCheck %s
// RUN: %python %S/Inputs/gemm.py --variant plain --M 64 --N 30 --K 24 --bm 16 --bn 8 --bk 8 \
// RUN:   | tile-opt --tile-specialize-interior-blocks --tile-lower-to-cpu %tile_cpu_to_llvm \
// RUN:   | %tile_cpu_runner | FileCheck %s
// RUN: %python %S/Inputs/gemm.py --variant plain --M 60 --N 32 --K 29 --bm 16 --bn 8 --bk 8 \
// RUN:   | tile-opt --tile-specialize-interior-blocks --tile-lower-to-cpu %tile_cpu_to_llvm \
// RUN:   | %tile_cpu_runner | FileCheck %s
// RUN: %python %S/Inputs/gemm.py --variant plain --transpose-a --transpose-b --M 60 --N 30 --K 29 --bm 16 --bn 8 --bk 8 \
// RUN:   | tile-opt --tile-specialize-interior-blocks --tile-lower-to-cpu %tile_cpu_to_llvm \
// RUN:   | %tile_cpu_runner | FileCheck %s
// RUN: %python %S/Inputs/gemm.py --variant auto --num-stages 3 --M 60 --N 30 --K 61 --bm 16 --bn 8 --bk 8 \
// RUN:   | tile-opt --tile-pipeline-planning --tile-software-pipeline=unroll-steady-state=true \
// RUN:       --tile-specialize-interior-blocks --tile-lower-to-cpu=check-barriers=true %tile_cpu_to_llvm \
// RUN:   | %tile_cpu_runner | FileCheck %s
// Sizes known only at run time: each block index is also bounded by C's
// size in its dimension (C's sizes are other values than A's and B's), so
// the interior version clamps each index twice.
// RUN: %python %S/Inputs/gemm.py --variant plain --dynamic --M 60 --N 30 --K 24 --bm 16 --bn 8 --bk 8 \
// RUN:   | tile-opt --tile-specialize-interior-blocks --tile-lower-to-cpu %tile_cpu_to_llvm \
// RUN:   | %tile_cpu_runner | FileCheck %s
// Where the sizes are tile multiples every block takes the interior version
// (its bound is floor(M / 16), not ceildiv(M, 16) - 1):
// RUN: %python %S/Inputs/gemm.py --variant plain --dynamic --M 64 --N 32 --K 24 --bm 16 --bn 8 --bk 8 \
// RUN:   | tile-opt --tile-specialize-interior-blocks --tile-lower-to-cpu %tile_cpu_to_llvm \
// RUN:   | %tile_cpu_runner | FileCheck %s
// RUN: %python %S/Inputs/gemm.py --variant plain --dynamic --M 60 --N 30 --K 24 --bm 16 --bn 8 --bk 8 --emit kernel \
// RUN:   | tile-opt --tile-specialize-interior-blocks | FileCheck %s --check-prefix=DYN
//
// The versioning happens in each of these (the pass leaves tile multiples
// alone, so a test of them would prove nothing):
// RUN: %python %S/Inputs/gemm.py --variant plain --M 60 --N 30 --K 24 --bm 16 --bn 8 --bk 8 --emit kernel \
// RUN:   | tile-opt --tile-specialize-interior-blocks | FileCheck %s --check-prefix=IR
// RUN: %python %S/Inputs/gemm.py --variant auto --num-stages 3 --M 60 --N 30 --K 61 --bm 16 --bn 8 --bk 8 --emit kernel \
// RUN:   | tile-opt --tile-pipeline-planning --tile-software-pipeline=unroll-steady-state=true \
// RUN:       --tile-specialize-interior-blocks | FileCheck %s --check-prefix=IR

// CHECK:      max_abs_error: 0{{$}}
// CHECK-NEXT: unwritten: 0{{$}}

// IR: arith.andi
// IR: scf.if
// IR: arith.minui
// IR: arith.minui
// IR: } else {

// DYN: scf.if
// DYN-COUNT-4: arith.minui
// DYN-NOT: arith.minui
// DYN: } else {
