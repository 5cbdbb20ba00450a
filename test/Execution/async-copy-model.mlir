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
// 64-entry queue, which then lands its copies early (a GPU may): when copy 64
// is issued, copies 0-63 land in issue order, reading G as it is then;
// copies 64-99 stay queued, land at the wait after G was raised by 1000, and
// overwrite rows 14-49. Rows 0-13 are written by two copies in flight at
// once (0-13, then 50-63): either may land last on a GPU, so they land as
// NaN. A queue that dropped copies or landed them only at the wait would
// print other numbers. Without the model every copy lands where it is
// issued, before G changes.
// RUN: tile-opt %S/Inputs/many-pending-copies.mlir --tile-lower-to-cpu %tile_cpu_to_llvm \
// RUN:   | %tile_cpu_runner | FileCheck %s --check-prefix=MANY
// RUN: tile-opt %S/Inputs/many-pending-copies.mlir --tile-lower-to-cpu=model-async-copies=false %tile_cpu_to_llvm \
// RUN:   | %tile_cpu_runner | FileCheck %s --check-prefix=ATONCE
// MANY: tile[:, 5] = nan nan nan nan nan nan nan nan nan nan nan nan nan nan 1064 1065 1066 1067 1068 1069 1070 1071 1072 1073 1074 1075 1076 1077 1078 1079 1080 1081 1082 1083 1084 1085 1086 1087 1088 1089 1090 1091 1092 1093 1094 1095 1096 1097 1098 1099{{$}}
// ATONCE: tile[:, 5] = 50 51 52 53 54 55 56 57 58 59 60 61 62 63 64 65 66 67 68 69 70 71 72 73 74 75 76 77 78 79 80 81 82 83 84 85 86 87 88 89 90 91 92 93 94 95 96 97 98 99{{$}}

// Uninitialized tile memory (nan) or a wrong value, anything but 0.
// WRONG:      max_abs_error: {{nan|[0-9.e+]*[1-9]}}
// HIDDEN:     max_abs_error: 0{{$}}
// HIDDEN-NEXT: unwritten: 0{{$}}
