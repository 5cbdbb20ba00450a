// The three seed GEMMs (examples/matmul_{plain,auto,manual}.mlir) at small
// sizes, run on the CPU and compared element by element with a plain f32
// reference loop nest (test/Execution/Inputs/gemm.py). The tile-level
// `tile.pipelined` loops are not rewritten here, so they run serially: this
// pins down the meaning every pipelined schedule must reproduce.
//
// One RUN line per configuration; passes that rewrite the kernel go before
// --tile-lower-to-cpu on the tile-opt command line.

// Sizes that are multiples of the 32x32x16 tiles (3x3 blocks, 13 K steps,
// the last one partial: 200 = 12 * 16 + 8).
// RUN: %python %S/Inputs/gemm.py --variant plain --M 96 --N 80 --K 200 --bm 32 --bn 32 --bk 16 \
// RUN:   | tile-opt --tile-lower-to-cpu %tile_cpu_to_llvm | %tile_cpu_runner | FileCheck %s --check-prefixes=CHECK,EVEN
// RUN: %python %S/Inputs/gemm.py --variant auto --num-stages 3 --M 96 --N 80 --K 200 --bm 32 --bn 32 --bk 16 \
// RUN:   | tile-opt --tile-lower-to-cpu %tile_cpu_to_llvm | %tile_cpu_runner | FileCheck %s --check-prefixes=CHECK,EVEN
// RUN: %python %S/Inputs/gemm.py --variant manual --stage 0,0,1 --order 0,1,2 --M 96 --N 80 --K 200 --bm 32 --bn 32 --bk 16 \
// RUN:   | tile-opt --tile-lower-to-cpu %tile_cpu_to_llvm | %tile_cpu_runner | FileCheck %s --check-prefixes=CHECK,EVEN

// Sizes that are not multiples of the tiles: partial tiles in every
// dimension, out-of-bounds reads that must be zero and stores that must be
// skipped.
// RUN: %python %S/Inputs/gemm.py --variant plain --M 100 --N 70 --K 37 --bm 32 --bn 32 --bk 16 \
// RUN:   | tile-opt --tile-lower-to-cpu %tile_cpu_to_llvm | %tile_cpu_runner | FileCheck %s --check-prefixes=CHECK,ODD
// RUN: %python %S/Inputs/gemm.py --variant auto --num-stages 3 --M 100 --N 70 --K 37 --bm 32 --bn 32 --bk 16 \
// RUN:   | tile-opt --tile-lower-to-cpu %tile_cpu_to_llvm | %tile_cpu_runner | FileCheck %s --check-prefixes=CHECK,ODD
// RUN: %python %S/Inputs/gemm.py --variant manual --stage 0,0,1 --order 0,1,2 --M 100 --N 70 --K 37 --bm 32 --bn 32 --bk 16 \
// RUN:   | tile-opt --tile-lower-to-cpu %tile_cpu_to_llvm | %tile_cpu_runner | FileCheck %s --check-prefixes=CHECK,ODD

// CHECK:      max_abs_error: 0{{$}}
// CHECK-NEXT: unwritten: 0{{$}}
// EVEN-NEXT:  checked: 7680{{$}}
// ODD-NEXT:   checked: 7000{{$}}
