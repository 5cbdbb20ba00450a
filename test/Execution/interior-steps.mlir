// CPU execution of --tile-specialize-interior-steps: a GEMM whose K is not
// a tile multiple, or is known only at run time (--dynamic: memref<?x?xf16>
// operands, sizes from memref.dim), runs its K loop in two parts, the first
// on min(k, Q) with Q the last k-tile inside A and B. Every element must
// match the plain loop nest's exactly. A split too late would clamp a
// counter to Q and read a k-tile twice; one too early or a wrong lattice
// rounding would skip or repeat iterations. Plain loops, transposed
// operands, two copies per operand, and pipelines of depth 2 to 4 (the
// unrolled steady-state loop is split, its rolled remainder left alone)
// with trip counts below, at and above the depth; with and without
// tile-specialize-interior-blocks before it, as tile-to-ptx runs them.
//
// RUN: %python %S/Inputs/gemm.py --dynamic --M 20 --N 12 --K 29 --bm 16 --bn 8 --bk 8 \
// RUN:   | tile-opt --tile-specialize-interior-steps --tile-lower-to-cpu %tile_cpu_to_llvm \
// RUN:   | %tile_cpu_runner | FileCheck %s
// RUN: %python %S/Inputs/gemm.py --dynamic --M 60 --N 30 --K 61 --bm 16 --bn 8 --bk 8 \
// RUN:   | tile-opt --tile-specialize-interior-blocks --tile-specialize-interior-steps --tile-lower-to-cpu %tile_cpu_to_llvm \
// RUN:   | %tile_cpu_runner | FileCheck %s
// RUN: %python %S/Inputs/gemm.py --dynamic --M 16 --N 8 --K 5 --bm 16 --bn 8 --bk 8 \
// RUN:   | tile-opt --tile-specialize-interior-blocks --tile-specialize-interior-steps --tile-lower-to-cpu %tile_cpu_to_llvm \
// RUN:   | %tile_cpu_runner | FileCheck %s
// RUN: %python %S/Inputs/gemm.py --M 60 --N 30 --K 61 --bm 16 --bn 8 --bk 8 \
// RUN:   | tile-opt --tile-specialize-interior-blocks --tile-specialize-interior-steps --tile-lower-to-cpu %tile_cpu_to_llvm \
// RUN:   | %tile_cpu_runner | FileCheck %s
// RUN: %python %S/Inputs/gemm.py --dynamic --transpose-a --transpose-b --M 60 --N 30 --K 29 --bm 16 --bn 8 --bk 8 \
// RUN:   | tile-opt --tile-specialize-interior-blocks --tile-specialize-interior-steps --tile-lower-to-cpu %tile_cpu_to_llvm \
// RUN:   | %tile_cpu_runner | FileCheck %s
// RUN: %python %S/Inputs/gemm.py --dynamic --two-gemms --M 20 --N 12 --K 29 --bm 16 --bn 8 --bk 8 \
// RUN:   | tile-opt --tile-specialize-interior-steps --tile-lower-to-cpu %tile_cpu_to_llvm \
// RUN:   | %tile_cpu_runner | FileCheck %s
// RUN: %python %S/Inputs/gemm.py --dynamic --variant auto --num-stages 2 --M 20 --N 12 --K 29 --bm 16 --bn 8 --bk 8 \
// RUN:   | tile-opt --tile-pipeline-planning --tile-software-pipeline=unroll-steady-state=true \
// RUN:       --tile-specialize-interior-blocks --tile-specialize-interior-steps --tile-lower-to-cpu=check-barriers=true %tile_cpu_to_llvm \
// RUN:   | %tile_cpu_runner | FileCheck %s
// RUN: %python %S/Inputs/gemm.py --dynamic --variant auto --num-stages 3 --M 60 --N 30 --K 61 --bm 16 --bn 8 --bk 8 \
// RUN:   | tile-opt --tile-pipeline-planning --tile-software-pipeline=unroll-steady-state=true \
// RUN:       --tile-specialize-interior-blocks --tile-specialize-interior-steps --tile-lower-to-cpu=check-barriers=true %tile_cpu_to_llvm \
// RUN:   | %tile_cpu_runner | FileCheck %s
// RUN: %python %S/Inputs/gemm.py --dynamic --variant auto --num-stages 3 --M 20 --N 12 --K 8 --bm 16 --bn 8 --bk 8 \
// RUN:   | tile-opt --tile-pipeline-planning --tile-software-pipeline=unroll-steady-state=true \
// RUN:       --tile-specialize-interior-steps --tile-lower-to-cpu=check-barriers=true %tile_cpu_to_llvm \
// RUN:   | %tile_cpu_runner | FileCheck %s
// RUN: %python %S/Inputs/gemm.py --dynamic --variant auto --num-stages 3 --M 20 --N 12 --K 24 --bm 16 --bn 8 --bk 8 \
// RUN:   | tile-opt --tile-pipeline-planning --tile-software-pipeline=unroll-steady-state=true \
// RUN:       --tile-specialize-interior-steps --tile-lower-to-cpu=check-barriers=true %tile_cpu_to_llvm \
// RUN:   | %tile_cpu_runner | FileCheck %s
// RUN: %python %S/Inputs/gemm.py --dynamic --variant auto --num-stages 4 --M 20 --N 12 --K 39 --bm 16 --bn 8 --bk 8 \
// RUN:   | tile-opt --tile-pipeline-planning --tile-software-pipeline=unroll-steady-state=true \
// RUN:       --tile-specialize-interior-steps --tile-lower-to-cpu=check-barriers=true %tile_cpu_to_llvm \
// RUN:   | %tile_cpu_runner | FileCheck %s
// RUN: %python %S/Inputs/gemm.py --dynamic --variant auto --num-stages 4 --M 20 --N 12 --K 64 --bm 16 --bn 8 --bk 8 \
// RUN:   | tile-opt --tile-pipeline-planning --tile-software-pipeline=unroll-steady-state=true \
// RUN:       --tile-specialize-interior-steps --tile-lower-to-cpu=check-barriers=true %tile_cpu_to_llvm \
// RUN:   | %tile_cpu_runner | FileCheck %s
// RUN: %python %S/Inputs/gemm.py --variant auto --num-stages 4 --M 20 --N 12 --K 77 --bm 16 --bn 8 --bk 8 \
// RUN:   | tile-opt --tile-pipeline-planning --tile-software-pipeline=unroll-steady-state=true \
// RUN:       --tile-specialize-interior-blocks --tile-specialize-interior-steps --tile-lower-to-cpu=check-barriers=true %tile_cpu_to_llvm \
// RUN:   | %tile_cpu_runner | FileCheck %s
// RUN: %python %S/Inputs/gemm.py --dynamic --variant auto --num-stages 3 --two-gemms --M 20 --N 12 --K 45 --bm 16 --bn 8 --bk 8 \
// RUN:   | tile-opt --tile-pipeline-planning --tile-software-pipeline=unroll-steady-state=true \
// RUN:       --tile-specialize-interior-steps --tile-lower-to-cpu=check-barriers=true %tile_cpu_to_llvm \
// RUN:   | %tile_cpu_runner | FileCheck %s
//
// The split happens in these (a test of unsplit loops would prove nothing):
// the plain loop becomes two, the unrolled steady-state loop two beside the
// rolled remainder.
// RUN: %python %S/Inputs/gemm.py --dynamic --M 20 --N 12 --K 29 --bm 16 --bn 8 --bk 8 --emit kernel \
// RUN:   | tile-opt --tile-specialize-interior-steps | FileCheck %s --check-prefix=PLAIN
// RUN: %python %S/Inputs/gemm.py --dynamic --variant auto --num-stages 3 --M 60 --N 30 --K 61 --bm 16 --bn 8 --bk 8 --emit kernel \
// RUN:   | tile-opt --tile-pipeline-planning --tile-software-pipeline=unroll-steady-state=true \
// RUN:       --tile-specialize-interior-steps | FileCheck %s --check-prefix=PIPE

// CHECK:      max_abs_error: 0{{$}}
// CHECK-NEXT: unwritten: 0{{$}}

// PLAIN:      scf.for
// PLAIN-NEXT:   arith.minui
// PLAIN-NEXT:   arith.minui
// PLAIN:      scf.for
// PLAIN-NOT:    arith.minui
// PLAIN:      tile.copy %{{.*}} to %arg2

// PIPE:      scf.for %{{.*}} step %c3
// PIPE-NEXT:   arith.minui
// PIPE-NEXT:   arith.minui
// PIPE:      } {tile.split_steps, tile.steady_state = 3 : i64}
// PIPE-NEXT: scf.for %{{.*}} step %c3
// PIPE-NOT:    arith.minui
// PIPE:      } {tile.split_steps, tile.steady_state = 3 : i64}
// PIPE-NEXT: scf.for %{{.*}} step %c1
// PIPE-NOT:    arith.minui
// PIPE:      } {tile.steady_state = 3 : i64}
