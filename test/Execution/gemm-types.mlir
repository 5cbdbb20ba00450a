// GEMMs of bf16 inputs, and of f16 or bf16 inputs with an f32 or a different
// 16-bit C, run on the CPU against the f32 reference rounded to C's type
// (test/Execution/Inputs/gemm.py --dtype, --c-type). Sizes are not tile
// multiples; the second line of each pair runs the software pipeline too.

// RUN: %python %S/Inputs/gemm.py --num-stages 3 --M 100 --N 70 --K 37 --bm 32 --bn 32 --bk 16 --dtype bf16 \
// RUN:   | tile-opt --tile-lower-to-cpu %tile_cpu_to_llvm | %tile_cpu_runner | FileCheck %s
// RUN: %python %S/Inputs/gemm.py --num-stages 3 --M 100 --N 70 --K 37 --bm 32 --bn 32 --bk 16 --dtype bf16 \
// RUN:   | tile-opt --tile-pipeline-planning --tile-software-pipeline --tile-lower-to-cpu=check-barriers=true %tile_cpu_to_llvm \
// RUN:   | %tile_cpu_runner | FileCheck %s
// RUN: %python %S/Inputs/gemm.py --num-stages 2 --M 100 --N 70 --K 37 --bm 32 --bn 32 --bk 16 --dtype bf16 --c-type f32 \
// RUN:   | tile-opt --tile-lower-to-cpu %tile_cpu_to_llvm | %tile_cpu_runner | FileCheck %s
// RUN: %python %S/Inputs/gemm.py --num-stages 2 --M 100 --N 70 --K 37 --bm 32 --bn 32 --bk 16 --dtype bf16 --c-type f32 \
// RUN:   | tile-opt --tile-pipeline-planning --tile-software-pipeline --tile-lower-to-cpu=check-barriers=true %tile_cpu_to_llvm \
// RUN:   | %tile_cpu_runner | FileCheck %s
// RUN: %python %S/Inputs/gemm.py --variant plain --M 100 --N 70 --K 37 --bm 32 --bn 32 --bk 16 --c-type f32 \
// RUN:   | tile-opt --tile-lower-to-cpu %tile_cpu_to_llvm | %tile_cpu_runner | FileCheck %s
// RUN: %python %S/Inputs/gemm.py --num-stages 3 --M 100 --N 70 --K 37 --bm 32 --bn 32 --bk 16 --transpose-b --c-type bf16 \
// RUN:   | tile-opt --tile-pipeline-planning --tile-software-pipeline --tile-lower-to-cpu=check-barriers=true %tile_cpu_to_llvm \
// RUN:   | %tile_cpu_runner | FileCheck %s

// The generator does give the kernel those types.
// RUN: %python %S/Inputs/gemm.py --M 100 --N 70 --K 37 --dtype bf16 --c-type f32 --emit kernel \
// RUN:   | FileCheck %s --check-prefix=TYPES
// TYPES:      !A = memref<100x37xbf16>
// TYPES-NEXT: !B = memref<37x70xbf16>
// TYPES-NEXT: !C = memref<100x70xf32>
// TYPES:      !As = memref<32x16xbf16, #gpu.address_space<workgroup>>

// CHECK:      max_abs_error: 0{{$}}
// CHECK-NEXT: unwritten: 0{{$}}
// CHECK-NEXT: checked: 7000{{$}}
