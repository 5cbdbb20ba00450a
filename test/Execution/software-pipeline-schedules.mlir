// CPU execution of the software-pipelined seed GEMM (--tile-pipeline-planning
// --tile-software-pipeline, then --tile-lower-to-cpu): every schedule must
// give exactly the plain loop's numbers. M = 20 and N = 12 are not multiples
// of the 16x8 output tile; K = 8 * trips - 3 (K = 8 for one trip) leaves the
// last K tile partial. Trip counts: 1, 2, depth - 1, depth, depth + 1, 13; then lower bounds
// other than 0 and loops that count elements (step 8).
// The inputs keep every sum exact, so the max error must be 0.
//
// manual stage = [0, 0, 1] (depth 2)
// RUN: %python %S/Inputs/gemm.py --variant manual --stage 0,0,1 --order 0,1,2 --K 8 --M 20 --N 12 --bm 16 --bn 8 --bk 8 \
// RUN:   | tile-opt --tile-pipeline-planning --tile-software-pipeline --tile-lower-to-cpu=check-barriers=true %tile_cpu_to_llvm \
// RUN:   | %tile_cpu_runner | FileCheck %s
// RUN: %python %S/Inputs/gemm.py --variant manual --stage 0,0,1 --order 0,1,2 --K 13 --M 20 --N 12 --bm 16 --bn 8 --bk 8 \
// RUN:   | tile-opt --tile-pipeline-planning --tile-software-pipeline --tile-lower-to-cpu=check-barriers=true %tile_cpu_to_llvm \
// RUN:   | %tile_cpu_runner | FileCheck %s
// RUN: %python %S/Inputs/gemm.py --variant manual --stage 0,0,1 --order 0,1,2 --K 21 --M 20 --N 12 --bm 16 --bn 8 --bk 8 \
// RUN:   | tile-opt --tile-pipeline-planning --tile-software-pipeline --tile-lower-to-cpu=check-barriers=true %tile_cpu_to_llvm \
// RUN:   | %tile_cpu_runner | FileCheck %s
// RUN: %python %S/Inputs/gemm.py --variant manual --stage 0,0,1 --order 0,1,2 --K 101 --M 20 --N 12 --bm 16 --bn 8 --bk 8 \
// RUN:   | tile-opt --tile-pipeline-planning --tile-software-pipeline --tile-lower-to-cpu=check-barriers=true %tile_cpu_to_llvm \
// RUN:   | %tile_cpu_runner | FileCheck %s

// stage = [0, 0, 3]: depth 4 with empty stages 1 and 2
// RUN: %python %S/Inputs/gemm.py --variant manual --stage 0,0,3 --order 0,1,2 --K 8 --M 20 --N 12 --bm 16 --bn 8 --bk 8 \
// RUN:   | tile-opt --tile-pipeline-planning --tile-software-pipeline --tile-lower-to-cpu=check-barriers=true %tile_cpu_to_llvm \
// RUN:   | %tile_cpu_runner | FileCheck %s
// RUN: %python %S/Inputs/gemm.py --variant manual --stage 0,0,3 --order 0,1,2 --K 13 --M 20 --N 12 --bm 16 --bn 8 --bk 8 \
// RUN:   | tile-opt --tile-pipeline-planning --tile-software-pipeline --tile-lower-to-cpu=check-barriers=true %tile_cpu_to_llvm \
// RUN:   | %tile_cpu_runner | FileCheck %s
// RUN: %python %S/Inputs/gemm.py --variant manual --stage 0,0,3 --order 0,1,2 --K 21 --M 20 --N 12 --bm 16 --bn 8 --bk 8 \
// RUN:   | tile-opt --tile-pipeline-planning --tile-software-pipeline --tile-lower-to-cpu=check-barriers=true %tile_cpu_to_llvm \
// RUN:   | %tile_cpu_runner | FileCheck %s
// RUN: %python %S/Inputs/gemm.py --variant manual --stage 0,0,3 --order 0,1,2 --K 29 --M 20 --N 12 --bm 16 --bn 8 --bk 8 \
// RUN:   | tile-opt --tile-pipeline-planning --tile-software-pipeline --tile-lower-to-cpu=check-barriers=true %tile_cpu_to_llvm \
// RUN:   | %tile_cpu_runner | FileCheck %s
// RUN: %python %S/Inputs/gemm.py --variant manual --stage 0,0,3 --order 0,1,2 --K 37 --M 20 --N 12 --bm 16 --bn 8 --bk 8 \
// RUN:   | tile-opt --tile-pipeline-planning --tile-software-pipeline --tile-lower-to-cpu=check-barriers=true %tile_cpu_to_llvm \
// RUN:   | %tile_cpu_runner | FileCheck %s
// RUN: %python %S/Inputs/gemm.py --variant manual --stage 0,0,3 --order 0,1,2 --K 101 --M 20 --N 12 --bm 16 --bn 8 --bk 8 \
// RUN:   | tile-opt --tile-pipeline-planning --tile-software-pipeline --tile-lower-to-cpu=check-barriers=true %tile_cpu_to_llvm \
// RUN:   | %tile_cpu_runner | FileCheck %s

// stage = [0, 1, 2], order = [1, 0, 2]: B_s has 2 versions, A_s 3
// RUN: %python %S/Inputs/gemm.py --variant manual --stage 0,1,2 --order 1,0,2 --K 8 --M 20 --N 12 --bm 16 --bn 8 --bk 8 \
// RUN:   | tile-opt --tile-pipeline-planning --tile-software-pipeline --tile-lower-to-cpu=check-barriers=true %tile_cpu_to_llvm \
// RUN:   | %tile_cpu_runner | FileCheck %s
// RUN: %python %S/Inputs/gemm.py --variant manual --stage 0,1,2 --order 1,0,2 --K 13 --M 20 --N 12 --bm 16 --bn 8 --bk 8 \
// RUN:   | tile-opt --tile-pipeline-planning --tile-software-pipeline --tile-lower-to-cpu=check-barriers=true %tile_cpu_to_llvm \
// RUN:   | %tile_cpu_runner | FileCheck %s
// RUN: %python %S/Inputs/gemm.py --variant manual --stage 0,1,2 --order 1,0,2 --K 21 --M 20 --N 12 --bm 16 --bn 8 --bk 8 \
// RUN:   | tile-opt --tile-pipeline-planning --tile-software-pipeline --tile-lower-to-cpu=check-barriers=true %tile_cpu_to_llvm \
// RUN:   | %tile_cpu_runner | FileCheck %s
// RUN: %python %S/Inputs/gemm.py --variant manual --stage 0,1,2 --order 1,0,2 --K 29 --M 20 --N 12 --bm 16 --bn 8 --bk 8 \
// RUN:   | tile-opt --tile-pipeline-planning --tile-software-pipeline --tile-lower-to-cpu=check-barriers=true %tile_cpu_to_llvm \
// RUN:   | %tile_cpu_runner | FileCheck %s
// RUN: %python %S/Inputs/gemm.py --variant manual --stage 0,1,2 --order 1,0,2 --K 101 --M 20 --N 12 --bm 16 --bn 8 --bk 8 \
// RUN:   | tile-opt --tile-pipeline-planning --tile-software-pipeline --tile-lower-to-cpu=check-barriers=true %tile_cpu_to_llvm \
// RUN:   | %tile_cpu_runner | FileCheck %s

// stage = [0, 0, 2], order = [1, 2, 0]: the gemm before the copies
// RUN: %python %S/Inputs/gemm.py --variant manual --stage 0,0,2 --order 1,2,0 --K 8 --M 20 --N 12 --bm 16 --bn 8 --bk 8 \
// RUN:   | tile-opt --tile-pipeline-planning --tile-software-pipeline --tile-lower-to-cpu=check-barriers=true %tile_cpu_to_llvm \
// RUN:   | %tile_cpu_runner | FileCheck %s
// RUN: %python %S/Inputs/gemm.py --variant manual --stage 0,0,2 --order 1,2,0 --K 13 --M 20 --N 12 --bm 16 --bn 8 --bk 8 \
// RUN:   | tile-opt --tile-pipeline-planning --tile-software-pipeline --tile-lower-to-cpu=check-barriers=true %tile_cpu_to_llvm \
// RUN:   | %tile_cpu_runner | FileCheck %s
// RUN: %python %S/Inputs/gemm.py --variant manual --stage 0,0,2 --order 1,2,0 --K 21 --M 20 --N 12 --bm 16 --bn 8 --bk 8 \
// RUN:   | tile-opt --tile-pipeline-planning --tile-software-pipeline --tile-lower-to-cpu=check-barriers=true %tile_cpu_to_llvm \
// RUN:   | %tile_cpu_runner | FileCheck %s
// RUN: %python %S/Inputs/gemm.py --variant manual --stage 0,0,2 --order 1,2,0 --K 29 --M 20 --N 12 --bm 16 --bn 8 --bk 8 \
// RUN:   | tile-opt --tile-pipeline-planning --tile-software-pipeline --tile-lower-to-cpu=check-barriers=true %tile_cpu_to_llvm \
// RUN:   | %tile_cpu_runner | FileCheck %s
// RUN: %python %S/Inputs/gemm.py --variant manual --stage 0,0,2 --order 1,2,0 --K 101 --M 20 --N 12 --bm 16 --bn 8 --bk 8 \
// RUN:   | tile-opt --tile-pipeline-planning --tile-software-pipeline --tile-lower-to-cpu=check-barriers=true %tile_cpu_to_llvm \
// RUN:   | %tile_cpu_runner | FileCheck %s

// Lower bound 5 (tiles) and 7 (elements), step 8 (elements).
// RUN: %python %S/Inputs/gemm.py --variant auto --num-stages 3 --k-offset 5 --K 37 --M 20 --N 12 --bm 16 --bn 8 --bk 8 \
// RUN:   | tile-opt --tile-pipeline-planning --tile-software-pipeline --tile-lower-to-cpu=check-barriers=true %tile_cpu_to_llvm \
// RUN:   | %tile_cpu_runner | FileCheck %s
// RUN: %python %S/Inputs/gemm.py --variant manual --stage 0,0,1 --k-step element --k-offset 7 --K 37 --M 20 --N 12 --bm 16 --bn 8 --bk 8 \
// RUN:   | tile-opt --tile-pipeline-planning --tile-software-pipeline --tile-lower-to-cpu=check-barriers=true %tile_cpu_to_llvm \
// RUN:   | %tile_cpu_runner | FileCheck %s
// RUN: %python %S/Inputs/gemm.py --variant auto --num-stages 4 --k-step element --K 45 --M 20 --N 12 --bm 16 --bn 8 --bk 8 \
// RUN:   | tile-opt --tile-pipeline-planning --tile-software-pipeline --tile-lower-to-cpu=check-barriers=true %tile_cpu_to_llvm \
// RUN:   | %tile_cpu_runner | FileCheck %s
// RUN: %python %S/Inputs/gemm.py --variant auto --num-stages 4 --k-step element --k-offset 3 --K 13 --M 20 --N 12 --bm 16 --bn 8 --bk 8 \
// RUN:   | tile-opt --tile-pipeline-planning --tile-software-pipeline --tile-lower-to-cpu=check-barriers=true %tile_cpu_to_llvm \
// RUN:   | %tile_cpu_runner | FileCheck %s

// CHECK:      max_abs_error: 0{{$}}
// CHECK-NEXT: unwritten: 0{{$}}
// CHECK-NEXT: checked: 240{{$}}
