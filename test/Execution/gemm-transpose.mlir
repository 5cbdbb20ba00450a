// tile.gemm with transpose_a / transpose_b: A stored KxM, B stored NxK,
// copied as transposed tiles, against the same reference. Sizes are not
// multiples of the 32x32x16 tiles.
//
// RUN: %python %S/Inputs/gemm.py --transpose-a --M 100 --N 70 --K 37 \
// RUN:   | tile-opt --tile-lower-to-cpu %tile_cpu_to_llvm | %tile_cpu_runner | FileCheck %s
// RUN: %python %S/Inputs/gemm.py --transpose-b --M 100 --N 70 --K 37 \
// RUN:   | tile-opt --tile-lower-to-cpu %tile_cpu_to_llvm | %tile_cpu_runner | FileCheck %s
// RUN: %python %S/Inputs/gemm.py --variant auto --transpose-a --transpose-b --M 100 --N 70 --K 37 \
// RUN:   | tile-opt --tile-lower-to-cpu %tile_cpu_to_llvm | %tile_cpu_runner | FileCheck %s

// CHECK:      max_abs_error: 0{{$}}
// CHECK-NEXT: unwritten: 0{{$}}
// CHECK-NEXT: checked: 7000{{$}}
