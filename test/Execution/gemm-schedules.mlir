// The seed GEMM under every schedule the pipeliner must support: depths 1 to
// 4 (`num_stages`) and schedules given by hand (`stage`/`order`). Each must
// reproduce the plain loop's numbers exactly. M=100, N=70, K=200 with
// 32x32x16 tiles: partial M and N tiles and 13 K steps, the last partial.
//
// Planning resolves each schedule (and must accept it); without the
// software-pipelining rewrite the planned loop still runs serially. Put
// --tile-software-pipeline before --tile-lower-to-cpu to check the rewritten
// schedules.
//
// RUN: %python %S/Inputs/gemm.py --variant auto --num-stages 1 --M 100 --N 70 --K 200 \
// RUN:   | tile-opt --tile-pipeline-planning --tile-lower-to-cpu %tile_cpu_to_llvm | %tile_cpu_runner | FileCheck %s
// RUN: %python %S/Inputs/gemm.py --variant auto --num-stages 2 --M 100 --N 70 --K 200 \
// RUN:   | tile-opt --tile-pipeline-planning --tile-lower-to-cpu %tile_cpu_to_llvm | %tile_cpu_runner | FileCheck %s
// RUN: %python %S/Inputs/gemm.py --variant auto --num-stages 3 --M 100 --N 70 --K 200 \
// RUN:   | tile-opt --tile-pipeline-planning --tile-lower-to-cpu %tile_cpu_to_llvm | %tile_cpu_runner | FileCheck %s
// RUN: %python %S/Inputs/gemm.py --variant auto --num-stages 4 --M 100 --N 70 --K 200 \
// RUN:   | tile-opt --tile-pipeline-planning --tile-lower-to-cpu %tile_cpu_to_llvm | %tile_cpu_runner | FileCheck %s
// RUN: %python %S/Inputs/gemm.py --variant manual --stage 0,0,1 --order 0,1,2 --M 100 --N 70 --K 200 \
// RUN:   | tile-opt --tile-pipeline-planning --tile-lower-to-cpu %tile_cpu_to_llvm | %tile_cpu_runner | FileCheck %s
// RUN: %python %S/Inputs/gemm.py --variant manual --stage 0,0,3 --order 0,1,2 --M 100 --N 70 --K 200 \
// RUN:   | tile-opt --tile-pipeline-planning --tile-lower-to-cpu %tile_cpu_to_llvm | %tile_cpu_runner | FileCheck %s
// RUN: %python %S/Inputs/gemm.py --variant manual --stage 0,1,2 --order 1,0,2 --M 100 --N 70 --K 200 \
// RUN:   | tile-opt --tile-pipeline-planning --tile-lower-to-cpu %tile_cpu_to_llvm | %tile_cpu_runner | FileCheck %s

// K loops with a non-zero lower bound and counting elements (step 16).
// RUN: %python %S/Inputs/gemm.py --variant auto --num-stages 3 --k-offset 5 --M 100 --N 70 --K 200 \
// RUN:   | tile-opt --tile-pipeline-planning --tile-lower-to-cpu %tile_cpu_to_llvm | %tile_cpu_runner | FileCheck %s
// RUN: %python %S/Inputs/gemm.py --variant manual --stage 0,0,1 --k-step element --k-offset 7 --M 100 --N 70 --K 200 \
// RUN:   | tile-opt --tile-pipeline-planning --tile-lower-to-cpu %tile_cpu_to_llvm | %tile_cpu_runner | FileCheck %s

// CHECK:      max_abs_error: 0{{$}}
// CHECK-NEXT: unwritten: 0{{$}}
// CHECK-NEXT: checked: 7000{{$}}
