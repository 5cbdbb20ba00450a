// A tensor smaller than the tile in every dimension (M=20, N=12, K=20 with
// 32x32x32 tiles): the copies cover the whole tile and zero-fill what lies
// past the tensor's edge, so the gemm over the full 32-wide K tile adds only
// zeros for k >= 20. Plain, pipelined before the rewrite, and rewritten.

// RUN: %python %S/Inputs/gemm.py --variant plain --M 20 --N 12 --K 20 --bm 32 --bn 32 --bk 32 \
// RUN:   | tile-opt --tile-lower-to-cpu %tile_cpu_to_llvm | %tile_cpu_runner | FileCheck %s
// RUN: %python %S/Inputs/gemm.py --variant auto --num-stages 3 --M 20 --N 12 --K 20 --bm 32 --bn 32 --bk 32 \
// RUN:   | tile-opt --tile-pipeline-planning --tile-software-pipeline --tile-lower-to-cpu %tile_cpu_to_llvm \
// RUN:   | %tile_cpu_runner | FileCheck %s
// RUN: %python %S/Inputs/gemm.py --variant plain --M 20 --N 12 --K 20 --bm 32 --bn 32 --bk 32 \
// RUN:   | tile-opt --tile-software-pipeline --tile-lower-to-cpu %tile_cpu_to_llvm | %tile_cpu_runner | FileCheck %s

// CHECK:      max_abs_error: 0{{$}}
// CHECK-NEXT: unwritten: 0{{$}}
// CHECK-NEXT: checked: 240{{$}}
