// A tensor smaller than the tile in every dimension (M=20, N=12, K=20 with
// 32x32x32 tiles): the copies cover the whole tile and zero-fill what lies
// past the tensor's edge, so the gemm over the full 32-wide K tile adds only
// zeros for k >= 20. Plain; pipelined before the rewrite (planning resolves
// the schedule, and the tile.pipelined loop that reaches --tile-lower-to-cpu
// runs serially); and rewritten (three versions of each tile).

// RUN: %python %S/Inputs/gemm.py --variant plain --M 20 --N 12 --K 20 --bm 32 --bn 32 --bk 32 \
// RUN:   | tile-opt --tile-lower-to-cpu %tile_cpu_to_llvm | %tile_cpu_runner | FileCheck %s
// RUN: %python %S/Inputs/gemm.py --variant auto --num-stages 3 --M 20 --N 12 --K 20 --bm 32 --bn 32 --bk 32 \
// RUN:   | tile-opt --tile-pipeline-planning -o %t.planned.mlir
// RUN: FileCheck %s --check-prefix=PLANNED < %t.planned.mlir
// RUN: tile-opt --tile-lower-to-cpu %tile_cpu_to_llvm %t.planned.mlir | %tile_cpu_runner | FileCheck %s
// RUN: tile-opt --tile-software-pipeline %t.planned.mlir -o %t.rewritten.mlir
// RUN: FileCheck %s --check-prefix=REWRITTEN < %t.rewritten.mlir
// RUN: tile-opt --tile-lower-to-cpu %tile_cpu_to_llvm %t.rewritten.mlir | %tile_cpu_runner | FileCheck %s

// PLANNED:     tile.alloc_shared : memref<32x32xf16,
// PLANNED:     tile.pipelined {{.*}} num_stages = 3 stage = [0, 0, 2] order = [0, 1, 2]
// PLANNED-NOT: tile.copy_async
// REWRITTEN:     tile.alloc_shared : memref<3x32x32xf16,
// REWRITTEN-NOT: tile.pipelined
// REWRITTEN:     tile.copy_async

// CHECK:      max_abs_error: 0{{$}}
// CHECK-NEXT: unwritten: 0{{$}}
// CHECK-NEXT: checked: 240{{$}}
