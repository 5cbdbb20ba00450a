// The barrier placement finds each loop's fixed point by running its body
// several times, and remembers what a run made of each entry state: without
// that, 16 nested loops took over a minute (three times as long per level),
// and these 24 would not finish. The timeout guards against the hang, not
// for speed: the placement takes well under a second.
//
// RUN: %python %S/Inputs/nested_loops.py 24 | timeout 120 tile-opt --tile-software-pipeline | FileCheck %s
//
// The copy and the gemm, read after write: one barrier between them, and
// one at the end of the innermost body (the next trip's copy overwrites what
// the gemm read).
// CHECK-COUNT-24: scf.for
// CHECK:            tile.copy
// CHECK-NEXT:       tile.barrier
// CHECK-NEXT:       tile.gemm
// CHECK-NEXT:       tile.barrier
// CHECK-NEXT:     }
// CHECK-NOT:      tile.barrier
// CHECK:          return
