// The CPU lowering lands an asynchronous copy only where a tile.wait_group
// retires its group, so synchronization bugs that used to pass on the CPU
// now give wrong numbers. The kernel is gemm-pipelined-by-hand-2.mlir
// (correct: max_abs_error 0 there) with one wait broken.
//
// RUN: %python %S/Inputs/gemm.py --emit main --M 100 --N 70 --K 37 > %t.main.mlir
//
// The steady state waits with 2 groups pending instead of 1: it reads the
// tiles of the group it just let stay in flight.
// RUN: sed 's/tile.wait_group 1/tile.wait_group 2/' %S/gemm-pipelined-by-hand-2.mlir > %t.late.mlir
// RUN: cat %t.late.mlir %t.main.mlir | tile-opt --tile-lower-to-cpu %tile_cpu_to_llvm \
// RUN:   | %tile_cpu_runner | FileCheck %s --check-prefix=WRONG
// RUN: cat %t.late.mlir %t.main.mlir | tile-opt --tile-lower-to-cpu=model-async-copies=false %tile_cpu_to_llvm \
// RUN:   | %tile_cpu_runner | FileCheck %s --check-prefix=HIDDEN
//
// The epilogue's wait is gone: its last copies never land.
// RUN: sed 's/tile.wait_group 0//' %S/gemm-pipelined-by-hand-2.mlir > %t.nowait.mlir
// RUN: cat %t.nowait.mlir %t.main.mlir | tile-opt --tile-lower-to-cpu %tile_cpu_to_llvm \
// RUN:   | %tile_cpu_runner | FileCheck %s --check-prefix=WRONG
//
// The unbroken kernel under the model.
// RUN: cat %S/gemm-pipelined-by-hand-2.mlir %t.main.mlir | tile-opt --tile-lower-to-cpu %tile_cpu_to_llvm \
// RUN:   | %tile_cpu_runner | FileCheck %s --check-prefix=HIDDEN

// A kernel that issues 100 copies of one op before its wait overflows the
// 64-entry queue, which then lands its copies early (a GPU may): it runs
// to the end and the tile holds the data.
// RUN: tile-opt %S/Inputs/many-pending-copies.mlir --tile-lower-to-cpu %tile_cpu_to_llvm \
// RUN:   | %tile_cpu_runner | FileCheck %s --check-prefix=MANY
// MANY: tile[3, 5] = 8{{$}}

// Uninitialized tile memory (nan) or a wrong value, anything but 0.
// WRONG:      max_abs_error: {{nan|[0-9.e+]*[1-9]}}
// HIDDEN:     max_abs_error: 0{{$}}
// HIDDEN-NEXT: unwritten: 0{{$}}
