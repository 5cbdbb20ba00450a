// CPU execution with a trip count the compiler cannot see: the operands are
// memref<?x?xf16> (gemm.py --dynamic) and K comes from memref.dim, so the
// rewrite emits scf.if guards for the prologue and the
// epilogue and a dynamic steady-state bound (wait counts stay constants).
// Trip counts 1 and 2 at depth 2; 1, 2, 3 and 13 at depth 3; 4 and 5 at
// depth 4.
//
// RUN: %python %S/Inputs/gemm.py --dynamic --variant auto --num-stages 2 --K 8 --M 20 --N 12 --bm 16 --bn 8 --bk 8 > %t.2.1.mlir
// RUN: tile-opt --tile-pipeline-planning --tile-software-pipeline %t.2.1.mlir \
// RUN:   | FileCheck %s --check-prefix=IR
// RUN: tile-opt --tile-pipeline-planning --tile-software-pipeline --tile-lower-to-cpu=check-barriers=true %tile_cpu_to_llvm %t.2.1.mlir \
// RUN:   | %tile_cpu_runner | FileCheck %s
// RUN: %python %S/Inputs/gemm.py --dynamic --variant auto --num-stages 2 --K 13 --M 20 --N 12 --bm 16 --bn 8 --bk 8 > %t.2.2.mlir
// RUN: tile-opt --tile-pipeline-planning --tile-software-pipeline %t.2.2.mlir \
// RUN:   | FileCheck %s --check-prefix=IR
// RUN: tile-opt --tile-pipeline-planning --tile-software-pipeline --tile-lower-to-cpu=check-barriers=true %tile_cpu_to_llvm %t.2.2.mlir \
// RUN:   | %tile_cpu_runner | FileCheck %s
// RUN: %python %S/Inputs/gemm.py --dynamic --variant auto --num-stages 3 --K 8 --M 20 --N 12 --bm 16 --bn 8 --bk 8 > %t.3.1.mlir
// RUN: tile-opt --tile-pipeline-planning --tile-software-pipeline %t.3.1.mlir \
// RUN:   | FileCheck %s --check-prefix=IR
// RUN: tile-opt --tile-pipeline-planning --tile-software-pipeline --tile-lower-to-cpu=check-barriers=true %tile_cpu_to_llvm %t.3.1.mlir \
// RUN:   | %tile_cpu_runner | FileCheck %s
// RUN: %python %S/Inputs/gemm.py --dynamic --variant auto --num-stages 3 --K 13 --M 20 --N 12 --bm 16 --bn 8 --bk 8 > %t.3.2.mlir
// RUN: tile-opt --tile-pipeline-planning --tile-software-pipeline %t.3.2.mlir \
// RUN:   | FileCheck %s --check-prefix=IR
// RUN: tile-opt --tile-pipeline-planning --tile-software-pipeline --tile-lower-to-cpu=check-barriers=true %tile_cpu_to_llvm %t.3.2.mlir \
// RUN:   | %tile_cpu_runner | FileCheck %s
// RUN: %python %S/Inputs/gemm.py --dynamic --variant auto --num-stages 3 --K 21 --M 20 --N 12 --bm 16 --bn 8 --bk 8 > %t.3.3.mlir
// RUN: tile-opt --tile-pipeline-planning --tile-software-pipeline %t.3.3.mlir \
// RUN:   | FileCheck %s --check-prefix=IR
// RUN: tile-opt --tile-pipeline-planning --tile-software-pipeline --tile-lower-to-cpu=check-barriers=true %tile_cpu_to_llvm %t.3.3.mlir \
// RUN:   | %tile_cpu_runner | FileCheck %s
// RUN: %python %S/Inputs/gemm.py --dynamic --variant auto --num-stages 3 --K 101 --M 20 --N 12 --bm 16 --bn 8 --bk 8 > %t.3.13.mlir
// RUN: tile-opt --tile-pipeline-planning --tile-software-pipeline %t.3.13.mlir \
// RUN:   | FileCheck %s --check-prefix=IR
// RUN: tile-opt --tile-pipeline-planning --tile-software-pipeline --tile-lower-to-cpu=check-barriers=true %tile_cpu_to_llvm %t.3.13.mlir \
// RUN:   | %tile_cpu_runner | FileCheck %s
// RUN: %python %S/Inputs/gemm.py --dynamic --variant auto --num-stages 4 --K 29 --M 20 --N 12 --bm 16 --bn 8 --bk 8 > %t.4.4.mlir
// RUN: tile-opt --tile-pipeline-planning --tile-software-pipeline %t.4.4.mlir \
// RUN:   | FileCheck %s --check-prefix=IR
// RUN: tile-opt --tile-pipeline-planning --tile-software-pipeline --tile-lower-to-cpu=check-barriers=true %tile_cpu_to_llvm %t.4.4.mlir \
// RUN:   | %tile_cpu_runner | FileCheck %s

// IR: memref.dim
// IR: scf.if
// IR: scf.for

// CHECK:      max_abs_error: 0{{$}}
// CHECK-NEXT: unwritten: 0{{$}}
// CHECK-NEXT: checked: 240{{$}}
