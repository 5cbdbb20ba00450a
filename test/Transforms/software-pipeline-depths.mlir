// The seed GEMM (examples/matmul_auto.mlir) at other depths and schedules:
// version counts, steady-state wait counts (depth - 2, since the wait sits
// before the step's own copies) and the epilogue's count-down to 0.

// RUN: sed -e 's/num_stages = 3 as/num_stages = 2 stage = [0, 0, 1] order = [0, 1, 2] as/' \
// RUN:     %tile_src_root/examples/matmul_auto.mlir \
// RUN:   | tile-opt --tile-software-pipeline=unroll-steady-state=false | FileCheck %s --check-prefix=D2
// RUN: sed -e 's/num_stages = 3 as/num_stages = 4 stage = [0, 0, 3] order = [0, 1, 2] as/' \
// RUN:     %tile_src_root/examples/matmul_auto.mlir \
// RUN:   | tile-opt --tile-software-pipeline=unroll-steady-state=false | FileCheck %s --check-prefix=D4
// RUN: sed -e 's/num_stages = 3 as/stage = [0, 0, 3] as/' \
// RUN:     %tile_src_root/examples/matmul_auto.mlir \
// RUN:   | tile-opt --tile-software-pipeline=unroll-steady-state=false | FileCheck %s --check-prefix=D4
// RUN: sed -e 's/num_stages = 3 as/stage = [0, 1, 2] as/' \
// RUN:     %tile_src_root/examples/matmul_auto.mlir \
// RUN:   | tile-opt --tile-software-pipeline=unroll-steady-state=false | FileCheck %s --check-prefix=MIXED
// RUN: sed -e 's/num_stages = 3 as/num_stages = 1 as/' \
// RUN:     %tile_src_root/examples/matmul_auto.mlir \
// RUN:   | tile-opt --tile-software-pipeline=unroll-steady-state=false | FileCheck %s --check-prefix=ONE
// RUN: sed -e 's/num_stages = 3 as/num_stages = 3 stage = [0, 0, 2] order = [1, 2, 0] as/' \
// RUN:     %tile_src_root/examples/matmul_auto.mlir \
// RUN:   | tile-opt --tile-software-pipeline=unroll-steady-state=false | FileCheck %s --check-prefix=ORDER

// D2:      tile.alloc_shared : memref<2x128x32xf16, #gpu.address_space<workgroup>>
// D2:      tile.alloc_shared : memref<2x32x128xf16, #gpu.address_space<workgroup>>
// D2-COUNT-1: tile.commit_group
// D2-NOT:  tile.wait_group
// D2:      scf.for %[[K:.*]] = %c1 to %c128 step %c1 {
// D2-NEXT:   tile.wait_group 0
// D2-NEXT:   tile.barrier
// D2:        arith.remui %[[K]], %c2
// D2:        tile.commit_group
// D2:        %[[KG:.*]] = arith.subi %[[K]], %c1
// D2-NEXT:   arith.remui %[[KG]], %c2
// D2:        tile.gemm
// D2-NEXT: }
// D2-NEXT: tile.wait_group 0
// D2-NEXT: tile.barrier
// D2:      tile.gemm
// D2-NEXT: tile.wait_group 0
// D2-NEXT: tile.copy

// Depth 4, whether num_stages says so or the stage list [0, 0, 3] (a gap:
// stages 1 and 2 are empty) implies it.
// D4:      tile.alloc_shared : memref<4x128x32xf16, #gpu.address_space<workgroup>>
// D4:      tile.alloc_shared : memref<4x32x128xf16, #gpu.address_space<workgroup>>
// D4-COUNT-3: tile.commit_group
// D4-NOT:  tile.wait_group
// D4:      scf.for %[[K:.*]] = %c3 to %c128 step %c1 {
// D4-NEXT:   tile.wait_group 2
// D4-NEXT:   tile.barrier
// D4:        arith.remui %[[K]], %c4
// D4:        tile.commit_group
// D4:        %[[KG:.*]] = arith.subi %[[K]], %c3
// D4-NEXT:   arith.remui %[[KG]], %c4
// D4:        tile.gemm
// D4-NEXT: }
// D4-NEXT: tile.wait_group 2
// D4-NEXT: tile.barrier
// D4:      tile.gemm
// D4-NEXT: tile.wait_group 1
// D4-NEXT: tile.barrier
// D4:      tile.gemm
// D4-NEXT: tile.wait_group 0
// D4-NEXT: tile.barrier
// D4:      tile.gemm
// D4-NEXT: tile.wait_group 0
// D4-NEXT: tile.copy

// stage = [0, 1, 2]: B_s is read one stage after it is written, so it needs
// only 2 versions; its copy runs in stage 1 and stays synchronous (only
// stage-0 copies get a commit-group slot).
// MIXED:      %[[A_S:.*]] = tile.alloc_shared : memref<3x128x32xf16, #gpu.address_space<workgroup>>
// MIXED:      %[[B_S:.*]] = tile.alloc_shared : memref<2x32x128xf16, #gpu.address_space<workgroup>>
// MIXED:      scf.for %[[K:.*]] = %c2 to %c128 step %c1 {
// MIXED-NEXT:   tile.wait_group 1
// MIXED-NEXT:   tile.barrier
// MIXED:        tile.copy_async %{{.*}} to %{{.*}} :
// MIXED-NEXT:   tile.commit_group
// MIXED-NEXT:   %[[K1:.*]] = arith.subi %[[K]], %c1
// MIXED:        %[[V1:.*]] = arith.remui %[[K1]], %c2
// MIXED-NEXT:   %[[SB:.*]] = memref.subview %[[B_S]][%[[V1]], 0, 0]
// MIXED-NEXT:   tile.copy %{{.*}} to %[[SB]] :
// MIXED:        tile.gemm

// num_stages = 1: one version, no overlap: the copies are asynchronous but
// waited for at once.
// ONE:      tile.alloc_shared : memref<128x32xf16, #gpu.address_space<workgroup>>
// ONE:      scf.for
// ONE-NEXT:   tile.barrier
// ONE:        tile.copy_async
// ONE-NEXT:   tile.copy_async
// ONE-NEXT:   tile.commit_group
// ONE-NEXT:   tile.wait_group 0
// ONE-NEXT:   tile.barrier
// ONE-NEXT:   tile.gemm
// ONE-NEXT: }

// order = [1, 2, 0]: the gemm comes first in the body, then the copies; the
// wait stays at the top of the step with the same count.
// ORDER:      scf.for
// ORDER-NEXT:   tile.wait_group 1
// ORDER-NEXT:   tile.barrier
// ORDER:        tile.gemm
// ORDER:        tile.copy_async
// ORDER:        tile.copy_async
// ORDER-NEXT:   tile.commit_group
// ORDER-NEXT: }
