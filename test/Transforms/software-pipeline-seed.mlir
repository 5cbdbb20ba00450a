// The seed's three generated-code observations, on the seed GEMM itself
// (examples/), after --tile-software-pipeline. matmul_auto is run both
// through --tile-pipeline-planning and in the planned form written out.

// RUN: tile-opt --tile-software-pipeline=unroll-steady-state=false %tile_src_root/examples/matmul_plain.mlir \
// RUN:   | FileCheck %s --check-prefix=PLAIN --implicit-check-not=tile.copy_async --implicit-check-not=tile.wait_group
// RUN: sed -e 's/num_stages = 3 as/num_stages = 3 stage = [0, 0, 2] order = [0, 1, 2] as/' \
// RUN:     %tile_src_root/examples/matmul_auto.mlir \
// RUN:   | tile-opt --tile-software-pipeline=unroll-steady-state=false | FileCheck %s --check-prefix=AUTO
// RUN: tile-opt --tile-pipeline-planning --tile-software-pipeline=unroll-steady-state=false %tile_src_root/examples/matmul_auto.mlir \
// RUN:   | FileCheck %s --check-prefix=AUTO
// RUN: tile-opt --tile-software-pipeline=unroll-steady-state=false %tile_src_root/examples/matmul_manual.mlir \
// RUN:   | FileCheck %s --check-prefix=MANUAL

// matmul_plain: a barrier after the copies (before the gemm reads the tiles)
// and one after the gemm (before the next iteration overwrites them); the
// copies stay synchronous, the tiles keep one version.
// PLAIN-LABEL: func.func @matmul_plain
// PLAIN:      %[[A_S:.*]] = tile.alloc_shared : memref<128x32xf16, #gpu.address_space<workgroup>>
// PLAIN:      %[[B_S:.*]] = tile.alloc_shared : memref<32x128xf16, #gpu.address_space<workgroup>>
// PLAIN:      scf.for
// PLAIN:        tile.copy %{{.*}} to %[[A_S]] :
// PLAIN-NEXT:   tile.copy %{{.*}} to %[[B_S]] :
// PLAIN-NEXT:   tile.barrier
// PLAIN-NEXT:   tile.gemm %[[A_S]], %[[B_S]], %{{.*}} :
// PLAIN-NEXT:   tile.barrier
// PLAIN-NEXT: }

// matmul_auto (depth 3): three versions of each tile; in the steady state the
// wait (one group may stay in flight) sits before the copies of iteration
// k, which fill version k mod 3, while the gemm reads version (k - 2) mod 3.
// AUTO-LABEL: func.func @matmul_auto
// AUTO:       %[[A_S:.*]] = tile.alloc_shared : memref<3x128x32xf16, #gpu.address_space<workgroup>>
// AUTO:       %[[B_S:.*]] = tile.alloc_shared : memref<3x32x128xf16, #gpu.address_space<workgroup>>
// Prologue: iterations 0 and 1 issue their copies, one group each, no wait
// and no barrier (they fill fresh versions).
// AUTO-NOT:   tile.wait_group
// AUTO:       tile.copy_async
// AUTO:       tile.copy_async
// AUTO-NEXT:  tile.commit_group
// AUTO-NOT:   tile.wait_group
// AUTO-NOT:   tile.barrier
// AUTO:       tile.copy_async
// AUTO:       tile.copy_async
// AUTO-NEXT:  tile.commit_group
// AUTO-NOT:   tile.wait_group
// AUTO:       scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step
// AUTO-NEXT:    tile.wait_group 1
// AUTO-NEXT:    tile.barrier
// AUTO:         %[[VA:.*]] = arith.remui %[[K]], %{{.*}} : index
// AUTO-NEXT:    %[[SA:.*]] = memref.subview %[[A_S]][%[[VA]], 0, 0] [1, 128, 32] [1, 1, 1] : memref<3x128x32xf16, #gpu.address_space<workgroup>> to memref<128x32xf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
// AUTO-NEXT:    tile.copy_async %{{.*}} to %[[SA]] :
// AUTO:         tile.copy_async
// AUTO-NEXT:    tile.commit_group
// AUTO-NEXT:    %[[KG:.*]] = arith.subi %[[K]], %c2{{.*}} : index
// AUTO-NEXT:    %[[VG:.*]] = arith.remui %[[KG]], %{{.*}} : index
// AUTO-NEXT:    %[[GA:.*]] = memref.subview %[[A_S]][%[[VG]], 0, 0]
// AUTO:         tile.gemm %[[GA]], %{{.*}}, %{{.*}} :
// AUTO-NEXT:  }
// Epilogue: the last two gemms, waits counting down to 0.
// AUTO-NEXT:  tile.wait_group 1
// AUTO-NEXT:  tile.barrier
// AUTO:       tile.gemm
// AUTO-NEXT:  tile.wait_group 0
// AUTO-NEXT:  tile.barrier
// AUTO:       tile.gemm
// AUTO-NOT:   tile.copy_async
// AUTO:       tile.copy %{{.*}} to %arg2

// matmul_manual (stage = [0, 0, 1], depth 2): two versions; the wait lets no
// group stay in flight but sits before the copies of iteration k, so those
// overlap the gemm of iteration k - 1.
// MANUAL-LABEL: func.func @matmul_manual
// MANUAL:       %[[A_S:.*]] = tile.alloc_shared : memref<2x128x32xf16, #gpu.address_space<workgroup>>
// MANUAL:       %[[B_S:.*]] = tile.alloc_shared : memref<2x32x128xf16, #gpu.address_space<workgroup>>
// MANUAL-NOT:   tile.wait_group
// MANUAL:       tile.commit_group
// MANUAL-NOT:   tile.wait_group
// MANUAL:       scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step
// MANUAL-NEXT:    tile.wait_group 0
// MANUAL-NEXT:    tile.barrier
// MANUAL:         %[[VA:.*]] = arith.remui %[[K]], %{{.*}} : index
// MANUAL-NEXT:    %[[SA:.*]] = memref.subview %[[A_S]][%[[VA]], 0, 0] [1, 128, 32] [1, 1, 1]
// MANUAL-NEXT:    tile.copy_async %{{.*}} to %[[SA]] :
// MANUAL:         tile.commit_group
// MANUAL-NEXT:    %[[KG:.*]] = arith.subi %[[K]], %c1{{.*}} : index
// MANUAL-NEXT:    %[[VG:.*]] = arith.remui %[[KG]], %{{.*}} : index
// MANUAL-NEXT:    %[[GA:.*]] = memref.subview %[[A_S]][%[[VG]], 0, 0]
// MANUAL:         tile.gemm %[[GA]], %{{.*}}, %{{.*}} :
// MANUAL-NEXT:  }
// MANUAL-NEXT:  tile.wait_group 0
// MANUAL-NEXT:  tile.barrier
// MANUAL:       tile.gemm
