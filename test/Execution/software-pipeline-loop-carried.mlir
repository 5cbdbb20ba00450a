// B prefetched into one shared buffer (Inputs/late_load.py): each
// iteration's gemm reads the B tile the previous iteration copied, then the
// copy of the next tile refills the buffer. Planning keeps that copy in the
// gemm's stage; the rewrite keeps B_s unversioned and synchronous while A_s is
// pipelined. The product must still match the plain loop's exactly, for
// depths 1 to 4 and trip counts 1, 2, 4 and 13.
//
// RUN: %python %S/Inputs/gemm.py --variant auto --num-stages 1 --K 8 --M 20 --N 12 --bm 16 --bn 8 --bk 8 --emit kernel | %python %S/Inputs/late_load.py > %t.1.8.mlir
// RUN: %python %S/Inputs/gemm.py --variant auto --num-stages 1 --K 8 --M 20 --N 12 --bm 16 --bn 8 --bk 8 --emit main >> %t.1.8.mlir
// RUN: tile-opt --tile-pipeline-planning --tile-software-pipeline --tile-lower-to-cpu %tile_cpu_to_llvm %t.1.8.mlir 2>/dev/null \
// RUN:   | %tile_cpu_runner | FileCheck %s
// RUN: %python %S/Inputs/gemm.py --variant auto --num-stages 1 --K 13 --M 20 --N 12 --bm 16 --bn 8 --bk 8 --emit kernel | %python %S/Inputs/late_load.py > %t.1.13.mlir
// RUN: %python %S/Inputs/gemm.py --variant auto --num-stages 1 --K 13 --M 20 --N 12 --bm 16 --bn 8 --bk 8 --emit main >> %t.1.13.mlir
// RUN: tile-opt --tile-pipeline-planning --tile-software-pipeline --tile-lower-to-cpu %tile_cpu_to_llvm %t.1.13.mlir 2>/dev/null \
// RUN:   | %tile_cpu_runner | FileCheck %s
// RUN: %python %S/Inputs/gemm.py --variant auto --num-stages 1 --K 101 --M 20 --N 12 --bm 16 --bn 8 --bk 8 --emit kernel | %python %S/Inputs/late_load.py > %t.1.101.mlir
// RUN: %python %S/Inputs/gemm.py --variant auto --num-stages 1 --K 101 --M 20 --N 12 --bm 16 --bn 8 --bk 8 --emit main >> %t.1.101.mlir
// RUN: tile-opt --tile-pipeline-planning --tile-software-pipeline --tile-lower-to-cpu %tile_cpu_to_llvm %t.1.101.mlir 2>/dev/null \
// RUN:   | %tile_cpu_runner | FileCheck %s
// RUN: %python %S/Inputs/gemm.py --variant auto --num-stages 2 --K 8 --M 20 --N 12 --bm 16 --bn 8 --bk 8 --emit kernel | %python %S/Inputs/late_load.py > %t.2.8.mlir
// RUN: %python %S/Inputs/gemm.py --variant auto --num-stages 2 --K 8 --M 20 --N 12 --bm 16 --bn 8 --bk 8 --emit main >> %t.2.8.mlir
// RUN: tile-opt --tile-pipeline-planning --tile-software-pipeline --tile-lower-to-cpu %tile_cpu_to_llvm %t.2.8.mlir 2>/dev/null \
// RUN:   | %tile_cpu_runner | FileCheck %s
// RUN: %python %S/Inputs/gemm.py --variant auto --num-stages 2 --K 13 --M 20 --N 12 --bm 16 --bn 8 --bk 8 --emit kernel | %python %S/Inputs/late_load.py > %t.2.13.mlir
// RUN: %python %S/Inputs/gemm.py --variant auto --num-stages 2 --K 13 --M 20 --N 12 --bm 16 --bn 8 --bk 8 --emit main >> %t.2.13.mlir
// RUN: tile-opt --tile-pipeline-planning --tile-software-pipeline --tile-lower-to-cpu %tile_cpu_to_llvm %t.2.13.mlir 2>/dev/null \
// RUN:   | %tile_cpu_runner | FileCheck %s
// RUN: %python %S/Inputs/gemm.py --variant auto --num-stages 2 --K 101 --M 20 --N 12 --bm 16 --bn 8 --bk 8 --emit kernel | %python %S/Inputs/late_load.py > %t.2.101.mlir
// RUN: %python %S/Inputs/gemm.py --variant auto --num-stages 2 --K 101 --M 20 --N 12 --bm 16 --bn 8 --bk 8 --emit main >> %t.2.101.mlir
// RUN: tile-opt --tile-pipeline-planning --tile-software-pipeline --tile-lower-to-cpu %tile_cpu_to_llvm %t.2.101.mlir 2>/dev/null \
// RUN:   | %tile_cpu_runner | FileCheck %s
// RUN: %python %S/Inputs/gemm.py --variant auto --num-stages 3 --K 8 --M 20 --N 12 --bm 16 --bn 8 --bk 8 --emit kernel | %python %S/Inputs/late_load.py > %t.3.8.mlir
// RUN: %python %S/Inputs/gemm.py --variant auto --num-stages 3 --K 8 --M 20 --N 12 --bm 16 --bn 8 --bk 8 --emit main >> %t.3.8.mlir
// RUN: tile-opt --tile-pipeline-planning --tile-software-pipeline --tile-lower-to-cpu %tile_cpu_to_llvm %t.3.8.mlir 2>/dev/null \
// RUN:   | %tile_cpu_runner | FileCheck %s
// RUN: %python %S/Inputs/gemm.py --variant auto --num-stages 3 --K 13 --M 20 --N 12 --bm 16 --bn 8 --bk 8 --emit kernel | %python %S/Inputs/late_load.py > %t.3.13.mlir
// RUN: %python %S/Inputs/gemm.py --variant auto --num-stages 3 --K 13 --M 20 --N 12 --bm 16 --bn 8 --bk 8 --emit main >> %t.3.13.mlir
// RUN: tile-opt --tile-pipeline-planning --tile-software-pipeline --tile-lower-to-cpu %tile_cpu_to_llvm %t.3.13.mlir 2>/dev/null \
// RUN:   | %tile_cpu_runner | FileCheck %s
// RUN: %python %S/Inputs/gemm.py --variant auto --num-stages 3 --K 29 --M 20 --N 12 --bm 16 --bn 8 --bk 8 --emit kernel | %python %S/Inputs/late_load.py > %t.3.29.mlir
// RUN: %python %S/Inputs/gemm.py --variant auto --num-stages 3 --K 29 --M 20 --N 12 --bm 16 --bn 8 --bk 8 --emit main >> %t.3.29.mlir
// RUN: tile-opt --tile-pipeline-planning --tile-software-pipeline --tile-lower-to-cpu %tile_cpu_to_llvm %t.3.29.mlir 2>/dev/null \
// RUN:   | %tile_cpu_runner | FileCheck %s
// RUN: %python %S/Inputs/gemm.py --variant auto --num-stages 3 --K 101 --M 20 --N 12 --bm 16 --bn 8 --bk 8 --emit kernel | %python %S/Inputs/late_load.py > %t.3.101.mlir
// RUN: %python %S/Inputs/gemm.py --variant auto --num-stages 3 --K 101 --M 20 --N 12 --bm 16 --bn 8 --bk 8 --emit main >> %t.3.101.mlir
// RUN: tile-opt --tile-pipeline-planning --tile-software-pipeline --tile-lower-to-cpu %tile_cpu_to_llvm %t.3.101.mlir 2>/dev/null \
// RUN:   | %tile_cpu_runner | FileCheck %s
// RUN: %python %S/Inputs/gemm.py --variant auto --num-stages 4 --K 8 --M 20 --N 12 --bm 16 --bn 8 --bk 8 --emit kernel | %python %S/Inputs/late_load.py > %t.4.8.mlir
// RUN: %python %S/Inputs/gemm.py --variant auto --num-stages 4 --K 8 --M 20 --N 12 --bm 16 --bn 8 --bk 8 --emit main >> %t.4.8.mlir
// RUN: tile-opt --tile-pipeline-planning --tile-software-pipeline --tile-lower-to-cpu %tile_cpu_to_llvm %t.4.8.mlir 2>/dev/null \
// RUN:   | %tile_cpu_runner | FileCheck %s
// RUN: %python %S/Inputs/gemm.py --variant auto --num-stages 4 --K 13 --M 20 --N 12 --bm 16 --bn 8 --bk 8 --emit kernel | %python %S/Inputs/late_load.py > %t.4.13.mlir
// RUN: %python %S/Inputs/gemm.py --variant auto --num-stages 4 --K 13 --M 20 --N 12 --bm 16 --bn 8 --bk 8 --emit main >> %t.4.13.mlir
// RUN: tile-opt --tile-pipeline-planning --tile-software-pipeline --tile-lower-to-cpu %tile_cpu_to_llvm %t.4.13.mlir 2>/dev/null \
// RUN:   | %tile_cpu_runner | FileCheck %s
// RUN: %python %S/Inputs/gemm.py --variant auto --num-stages 4 --K 29 --M 20 --N 12 --bm 16 --bn 8 --bk 8 --emit kernel | %python %S/Inputs/late_load.py > %t.4.29.mlir
// RUN: %python %S/Inputs/gemm.py --variant auto --num-stages 4 --K 29 --M 20 --N 12 --bm 16 --bn 8 --bk 8 --emit main >> %t.4.29.mlir
// RUN: tile-opt --tile-pipeline-planning --tile-software-pipeline --tile-lower-to-cpu %tile_cpu_to_llvm %t.4.29.mlir 2>/dev/null \
// RUN:   | %tile_cpu_runner | FileCheck %s
// RUN: %python %S/Inputs/gemm.py --variant auto --num-stages 4 --K 101 --M 20 --N 12 --bm 16 --bn 8 --bk 8 --emit kernel | %python %S/Inputs/late_load.py > %t.4.101.mlir
// RUN: %python %S/Inputs/gemm.py --variant auto --num-stages 4 --K 101 --M 20 --N 12 --bm 16 --bn 8 --bk 8 --emit main >> %t.4.101.mlir
// RUN: tile-opt --tile-pipeline-planning --tile-software-pipeline --tile-lower-to-cpu %tile_cpu_to_llvm %t.4.101.mlir 2>/dev/null \
// RUN:   | %tile_cpu_runner | FileCheck %s

// CHECK:      max_abs_error: 0{{$}}
// CHECK-NEXT: unwritten: 0{{$}}
// CHECK-NEXT: checked: 240{{$}}
