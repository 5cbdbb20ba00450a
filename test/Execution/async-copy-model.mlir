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

// A kernel that issues 90 copies of one op before its wait overflows the
// 64-entry queue, which then lands its copies early (a GPU may): when copy 64
// is issued, copies 0-63 land in issue order; copies 64-89 stay queued
// through the raise of G by 1000 and land at the wait as NaN (they may read
// G before or after it), over rows 14-39. Rows 0-13 are written by two copies
// in flight at once (0-13, then 50-63): either may land last on a GPU, so
// they land as NaN. Rows 40-49 hold what copies 40-49 read when they landed
// early, before the raise. A queue that dropped copies or landed them only at
// the wait would print NaN there; without the model every copy lands where
// it is issued, before G changes.
// RUN: tile-opt %S/Inputs/many-pending-copies.mlir --tile-lower-to-cpu %tile_cpu_to_llvm \
// RUN:   | %tile_cpu_runner | FileCheck %s --check-prefix=MANY
// RUN: tile-opt %S/Inputs/many-pending-copies.mlir --tile-lower-to-cpu=model-async-copies=false %tile_cpu_to_llvm \
// RUN:   | %tile_cpu_runner | FileCheck %s --check-prefix=ATONCE
// MANY: tile[:, 5] = nan nan nan nan nan nan nan nan nan nan nan nan nan nan nan nan nan nan nan nan nan nan nan nan nan nan nan nan nan nan nan nan nan nan nan nan nan nan nan nan 40 41 42 43 44 45 46 47 48 49{{$}}
// ATONCE: tile[:, 5] = 50 51 52 53 54 55 56 57 58 59 60 61 62 63 64 65 66 67 68 69 70 71 72 73 74 75 76 77 78 79 80 81 82 83 84 85 86 87 88 89 40 41 42 43 44 45 46 47 48 49{{$}}

// Uninitialized tile memory (nan) or a wrong value, anything but 0.
// WRONG:      max_abs_error: {{nan|[0-9.e+]*[1-9]}}
// HIDDEN:     max_abs_error: 0{{$}}
// HIDDEN-NEXT: unwritten: 0{{$}}
