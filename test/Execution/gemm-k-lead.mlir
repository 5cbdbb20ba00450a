// K tiles that start before the tensors (gemm.py --k-lead): the copies read
// A[row, k * bk - LEAD] and B[k * bk - LEAD, col], the first at a negative
// offset, and the loop runs ceil((K + LEAD) / bk) times. tile.copy reads
// what lies outside its source as zero, before the tensor as past it, so
// the product is the plain GEMM's and every element must match exactly.
// Plain, pipelined (the rewrite and the interior-steps split, which must
// keep the checks of the first steps), transposed, and over sizes known at
// run time only.
//
// RUN: %python %S/Inputs/gemm.py --M 40 --N 24 --K 50 --bm 16 --bn 8 --bk 16 --k-lead 3 \
// RUN:   | tile-opt --tile-lower-to-cpu %tile_cpu_to_llvm | %tile_cpu_runner | FileCheck %s
// RUN: %python %S/Inputs/gemm.py --variant auto --num-stages 3 --M 40 --N 24 --K 50 --bm 16 --bn 8 --bk 16 --k-lead 3 \
// RUN:   | tile-opt --tile-pipeline-planning --tile-software-pipeline=unroll-steady-state=true \
// RUN:       --tile-specialize-interior-blocks --tile-specialize-interior-steps --tile-lower-to-cpu=check-barriers=true %tile_cpu_to_llvm \
// RUN:   | %tile_cpu_runner | FileCheck %s
// RUN: %python %S/Inputs/gemm.py --dynamic --variant auto --num-stages 2 --M 40 --N 24 --K 64 --bm 16 --bn 8 --bk 16 --k-lead 16 \
// RUN:   | tile-opt --tile-pipeline-planning --tile-software-pipeline=unroll-steady-state=true \
// RUN:       --tile-specialize-interior-blocks --tile-specialize-interior-steps --tile-lower-to-cpu=check-barriers=true %tile_cpu_to_llvm \
// RUN:   | %tile_cpu_runner | FileCheck %s
// RUN: %python %S/Inputs/gemm.py --dynamic --transpose-a --transpose-b --variant auto --num-stages 4 --M 40 --N 24 --K 29 --bm 16 --bn 8 --bk 8 --k-lead 7 \
// RUN:   | tile-opt --tile-pipeline-planning --tile-software-pipeline=unroll-steady-state=true \
// RUN:       --tile-specialize-interior-blocks --tile-specialize-interior-steps --tile-lower-to-cpu=check-barriers=true %tile_cpu_to_llvm \
// RUN:   | %tile_cpu_runner | FileCheck %s
// RUN: %python %S/Inputs/gemm.py --two-gemms --offset-in-if --copy-b-in-if --variant auto --num-stages 3 --M 40 --N 24 --K 50 --bm 16 --bn 8 --bk 16 --k-lead 1 \
// RUN:   | tile-opt --tile-pipeline-planning --tile-software-pipeline --tile-lower-to-cpu=check-barriers=true %tile_cpu_to_llvm \
// RUN:   | %tile_cpu_runner | FileCheck %s

// CHECK:      max_abs_error: 0{{$}}
// CHECK-NEXT: unwritten: 0{{$}}
// CHECK-NEXT: checked: 960{{$}}
