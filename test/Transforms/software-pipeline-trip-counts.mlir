// RUN: tile-opt --tile-software-pipeline=unroll-steady-state=false %s | FileCheck %s

// Trip counts and bounds: dynamic, 1, 2 (both below the depth 3), 0, a
// non-zero lower bound with step 2; a tile read after the loop; loops
// without a schedule.

!G = memref<64x64xf16>
!S = memref<16x16xf16, #gpu.address_space<workgroup>>
!F = memref<16x16xf32, #gpu.address_space<private>>

// Dynamic trip count N = max(0, n): the prologue's copies are guarded by
// k < N, the wait counts stay constants, the epilogue steps are guarded by
// N + e >= 2, and the read after the loop sees version (max(N, 1) - 1) mod 3.
// CHECK-LABEL: func.func @dynamic
// CHECK-SAME:    %[[NARG:[a-z0-9]+]]: index)
// CHECK:       %[[A_S:.*]] = tile.alloc_shared : memref<3x16x16xf16
// CHECK:       %[[POS:.*]] = arith.cmpi sgt, %[[NARG]], %c0
// CHECK:       %[[N:.*]] = arith.select %[[POS]], %[[NARG]], %c0
// CHECK:       %[[G0:.*]] = arith.cmpi sgt, %[[N]], %c0
// CHECK:       scf.if %[[G0]] {
// CHECK:         tile.copy_async
// CHECK:       tile.commit_group
// CHECK:       %[[G1:.*]] = arith.cmpi sgt, %[[N]], %c1
// CHECK:       scf.if %[[G1]] {
// CHECK:         tile.copy_async
// CHECK:       tile.commit_group
// CHECK:       scf.for %{{.*}} = %c2 to %[[N]] step %c1 {
// CHECK-NEXT:    tile.wait_group 1
// CHECK:       }
// CHECK:       %[[E0:.*]] = arith.cmpi sge, %[[N]], %c2
// CHECK-NEXT:  tile.wait_group 1
// CHECK-NEXT:  tile.barrier
// CHECK:       scf.if %[[E0]] {
// CHECK:         tile.gemm
// CHECK:       %[[N1:.*]] = arith.addi %[[N]], %c1
// CHECK-NEXT:  %[[E1:.*]] = arith.cmpi sge, %[[N1]], %c2
// CHECK-NEXT:  tile.wait_group 0
// CHECK-NEXT:  tile.barrier
// CHECK:       scf.if %[[E1]] {
// CHECK:         tile.gemm
// CHECK:       tile.wait_group 0
// CHECK:       %[[NMAX:.*]] = arith.maxui %[[N]], %c1
// CHECK-NEXT:  %[[LAST:.*]] = arith.subi %[[NMAX]], %c1
// CHECK-NEXT:  %[[LV:.*]] = arith.remui %[[LAST]], %c3
// CHECK-NEXT:  %[[LAST_A:.*]] = memref.subview %[[A_S]][%[[LV]], 0, 0]
// CHECK:       tile.barrier
// CHECK-NEXT:  tile.copy %[[LAST_A]] to
func.func @dynamic(%A: !G, %B: !G, %C: !G, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %lb = arith.constant 0 : index
  %ub = arith.addi %n, %c0 : index
  %step = arith.constant 1 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : !S
    %B_s = tile.alloc_shared : !S
    %C_l = tile.alloc_fragment : !F
    tile.clear %C_l : !F
    tile.pipelined %lb to %ub step %step num_stages = 3 stage = [0, 0, 2] order = [0, 1, 2] as (%k) {
      %ko = arith.muli %k, %c16 : index
      tile.copy %A[%c0, %ko] to %A_s : !G to !S
      tile.copy %B[%ko, %c0] to %B_s : !G to !S
      tile.gemm %A_s, %B_s, %C_l : !S, !S, !F
    }
    tile.copy %C_l to %C : !F to !G
    tile.copy %A_s to %C : !S to !G
  }
  return
}


// One iteration: no steady-state loop, one gemm after waiting for everything;
// the (empty) second prologue group keeps the count uniform.
// CHECK-LABEL: func.func @trip_count_1
// CHECK-NOT:   scf.for
// CHECK-COUNT-2: tile.commit_group
// CHECK-NOT:   scf.for
// CHECK:       tile.wait_group 0
// CHECK-NEXT:  tile.barrier
// CHECK-NEXT:  tile.gemm
// CHECK-NOT:   tile.gemm
func.func @trip_count_1(%A: !G, %B: !G, %C: !G, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %lb = arith.constant 0 : index
  %ub = arith.constant 1 : index
  %step = arith.constant 1 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : !S
    %B_s = tile.alloc_shared : !S
    %C_l = tile.alloc_fragment : !F
    tile.clear %C_l : !F
    tile.pipelined %lb to %ub step %step num_stages = 3 stage = [0, 0, 2] order = [0, 1, 2] as (%k) {
      %ko = arith.muli %k, %c16 : index
      tile.copy %A[%c0, %ko] to %A_s : !G to !S
      tile.copy %B[%ko, %c0] to %B_s : !G to !S
      tile.gemm %A_s, %B_s, %C_l : !S, !S, !F
    }
    tile.copy %C_l to %C : !F to !G
  }
  return
}


// The same with bounds that fold to one of their operands (0 + 0 to 2 * 1,
// as a K loop shifted by a zero offset has them): the trip count is static,
// so no guards and no steady-state loop that never runs.
// CHECK-LABEL: func.func @trip_count_2_folded
// CHECK-NOT:   scf.if
// CHECK-NOT:   scf.for
// CHECK-COUNT-2: tile.gemm
// CHECK-NOT:   tile.gemm
// CHECK:       return
func.func @trip_count_2_folded(%A: !G, %B: !G, %C: !G, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c16 = arith.constant 16 : index
  %lb = arith.addi %c0, %c0 : index
  %ub = arith.muli %c2, %c1 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : !S
    %B_s = tile.alloc_shared : !S
    %C_l = tile.alloc_fragment : !F
    tile.clear %C_l : !F
    tile.pipelined %lb to %ub step %c1 num_stages = 3 stage = [0, 0, 2] order = [0, 1, 2] as (%k) {
      %ko = arith.muli %k, %c16 : index
      tile.copy %A[%c0, %ko] to %A_s : !G to !S
      tile.copy %B[%ko, %c0] to %B_s : !G to !S
      tile.gemm %A_s, %B_s, %C_l : !S, !S, !F
    }
    tile.copy %C_l to %C : !F to !G
  }
  return
}


// Two iterations (fewer than the depth): each runs once, the gemm of
// iteration 0 in version 0, of iteration 1 in version 1.
// CHECK-LABEL: func.func @trip_count_2
// CHECK:       %[[A_S:.*]] = tile.alloc_shared : memref<3x16x16xf16
// CHECK:       %[[V0:.*]] = memref.subview %[[A_S]][%c0, 0, 0]
// CHECK:       %[[V1:.*]] = memref.subview %[[A_S]][%c1, 0, 0]
// CHECK-NOT:   scf.for
// CHECK:       tile.wait_group 1
// CHECK-NEXT:  tile.barrier
// CHECK-NEXT:  tile.gemm %[[V0]],
// CHECK-NEXT:  tile.wait_group 0
// CHECK-NEXT:  tile.barrier
// CHECK-NEXT:  tile.gemm %[[V1]],
// CHECK-NOT:   tile.gemm
func.func @trip_count_2(%A: !G, %B: !G, %C: !G, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %lb = arith.constant 0 : index
  %ub = arith.constant 2 : index
  %step = arith.constant 1 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : !S
    %B_s = tile.alloc_shared : !S
    %C_l = tile.alloc_fragment : !F
    tile.clear %C_l : !F
    tile.pipelined %lb to %ub step %step num_stages = 3 stage = [0, 0, 2] order = [0, 1, 2] as (%k) {
      %ko = arith.muli %k, %c16 : index
      tile.copy %A[%c0, %ko] to %A_s : !G to !S
      tile.copy %B[%ko, %c0] to %B_s : !G to !S
      tile.gemm %A_s, %B_s, %C_l : !S, !S, !F
    }
    tile.copy %C_l to %C : !F to !G
  }
  return
}


// Zero iterations: nothing is copied or computed.
// CHECK-LABEL: func.func @trip_count_0
// CHECK-NOT:   tile.copy_async
// CHECK-NOT:   tile.gemm
// CHECK:       return
func.func @trip_count_0(%A: !G, %B: !G, %C: !G, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %lb = arith.constant 5 : index
  %ub = arith.constant 3 : index
  %step = arith.constant 1 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : !S
    %B_s = tile.alloc_shared : !S
    %C_l = tile.alloc_fragment : !F
    tile.clear %C_l : !F
    tile.pipelined %lb to %ub step %step num_stages = 3 stage = [0, 0, 2] order = [0, 1, 2] as (%k) {
      %ko = arith.muli %k, %c16 : index
      tile.copy %A[%c0, %ko] to %A_s : !G to !S
      tile.copy %B[%ko, %c0] to %B_s : !G to !S
      tile.gemm %A_s, %B_s, %C_l : !S, !S, !F
    }
    tile.copy %C_l to %C : !F to !G
  }
  return
}


// Lower bound 2, step 2, upper bound 9: iterations k = 2, 4, 6, 8. The
// steady state runs k = 6, 8 (from lb + 2 * step to lb + 4 * step), and the
// version is ((k - 2) / 2) mod 3 for the copies, ((k - 4 - 2) / 2) mod 3
// for the gemm.
// CHECK-LABEL: func.func @lb_step
// CHECK:       scf.for %[[K:.*]] = %c6 to %c10 step %c2 {
// CHECK-NEXT:    tile.wait_group 1
// CHECK-NEXT:    tile.barrier
// CHECK-NEXT:    %[[KO:.*]] = arith.muli %[[K]], %c16
// CHECK-NEXT:    %[[D:.*]] = arith.subi %[[K]], %c2
// CHECK-NEXT:    %[[I:.*]] = arith.divui %[[D]], %c2
// CHECK-NEXT:    %[[V:.*]] = arith.remui %[[I]], %c3
// CHECK-NEXT:    %[[SA:.*]] = memref.subview %{{.*}}[%[[V]], 0, 0]
// CHECK-NEXT:    tile.copy_async %{{.*}}[%c0, %[[KO]]] to %[[SA]]
// CHECK:         %[[KG:.*]] = arith.subi %[[K]], %c4
// CHECK-NEXT:    %[[DG:.*]] = arith.subi %[[KG]], %c2
// CHECK-NEXT:    %[[IG:.*]] = arith.divui %[[DG]], %c2
// CHECK-NEXT:    arith.remui %[[IG]], %c3
// CHECK:         tile.gemm
func.func @lb_step(%A: !G, %B: !G, %C: !G, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %lb = arith.constant 2 : index
  %ub = arith.constant 9 : index
  %step = arith.constant 2 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : !S
    %B_s = tile.alloc_shared : !S
    %C_l = tile.alloc_fragment : !F
    tile.clear %C_l : !F
    tile.pipelined %lb to %ub step %step num_stages = 3 stage = [0, 0, 2] order = [0, 1, 2] as (%k) {
      %ko = arith.muli %k, %c16 : index
      tile.copy %A[%c0, %ko] to %A_s : !G to !S
      tile.copy %B[%ko, %c0] to %B_s : !G to !S
      tile.gemm %A_s, %B_s, %C_l : !S, !S, !F
    }
    tile.copy %C_l to %C : !F to !G
  }
  return
}


// No schedule (no num_stages, or num_stages = 0): a serial scf.for with
// synchronous copies and the two barriers of a plain loop.
// CHECK-LABEL: func.func @unscheduled
// CHECK:       scf.for
// CHECK-NEXT:    arith.muli
// CHECK-NEXT:    tile.copy %{{.*}} to %{{.*}} :
// CHECK-NEXT:    tile.copy
// CHECK-NEXT:    tile.barrier
// CHECK-NEXT:    tile.gemm
// CHECK-NEXT:    tile.barrier
// CHECK-NEXT:  }
// CHECK-NOT:   tile.copy_async
// CHECK-NOT:   tile.pipelined
func.func @unscheduled(%A: !G, %B: !G, %C: !G, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %lb = arith.constant 0 : index
  %ub = arith.constant 4 : index
  %step = arith.constant 1 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : !S
    %B_s = tile.alloc_shared : !S
    %C_l = tile.alloc_fragment : !F
    tile.clear %C_l : !F
    tile.pipelined %lb to %ub step %step as (%k) {
      %ko = arith.muli %k, %c16 : index
      tile.copy %A[%c0, %ko] to %A_s : !G to !S
      tile.copy %B[%ko, %c0] to %B_s : !G to !S
      tile.gemm %A_s, %B_s, %C_l : !S, !S, !F
    }
    tile.copy %C_l to %C : !F to !G
  }
  return
}


// CHECK-LABEL: func.func @num_stages_0
// CHECK:       scf.for
// CHECK-NOT:   tile.copy_async
// CHECK-NOT:   tile.pipelined
func.func @num_stages_0(%A: !G, %B: !G, %C: !G, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %lb = arith.constant 0 : index
  %ub = arith.constant 4 : index
  %step = arith.constant 1 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : !S
    %B_s = tile.alloc_shared : !S
    %C_l = tile.alloc_fragment : !F
    tile.clear %C_l : !F
    tile.pipelined %lb to %ub step %step num_stages = 0 as (%k) {
      %ko = arith.muli %k, %c16 : index
      tile.copy %A[%c0, %ko] to %A_s : !G to !S
      tile.copy %B[%ko, %c0] to %B_s : !G to !S
      tile.gemm %A_s, %B_s, %C_l : !S, !S, !F
    }
    tile.copy %C_l to %C : !F to !G
  }
  return
}

// A copy into a tile that nothing in the loop reads (it is read after the
// loop) stays synchronous and single-versioned: no wait would cover an
// asynchronous one, and two copies in flight to one address land in no
// defined order. The read after the loop gets a barrier.
// CHECK-LABEL: func.func @unread_in_loop
// CHECK:       %[[A_S:.*]] = tile.alloc_shared : memref<16x16xf16, #gpu.address_space<workgroup>>
// CHECK:       %[[B_S:.*]] = tile.alloc_shared : memref<3x16x16xf16, #gpu.address_space<workgroup>>
// CHECK:       scf.for
// CHECK:         tile.copy %{{.*}} to %[[A_S]] :
// CHECK:         tile.copy_async
// CHECK:         tile.commit_group
// CHECK:       }
// CHECK:       tile.gemm
// CHECK:       tile.gemm
// CHECK-NEXT:  tile.wait_group 0
// CHECK-NEXT:  tile.barrier
// CHECK-NEXT:  tile.copy %[[A_S]] to
func.func @unread_in_loop(%A: !G, %B: !G, %C: !G) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : !S
    %B_s = tile.alloc_shared : !S
    %C_l = tile.alloc_fragment : !F
    tile.pipelined %c0 to %c4 step %c1 num_stages = 3 stage = [0, 0, 2] order = [0, 1, 2] as (%k) {
      %ko = arith.muli %k, %c16 : index
      tile.copy %A[%c0, %ko] to %A_s : !G to !S
      tile.copy %B[%ko, %c0] to %B_s : !G to !S
      tile.gemm %B_s, %B_s, %C_l : !S, !S, !F
    }
    tile.copy %A_s to %C : !S to !G
  }
  return
}

// A trip count written with memref.dim of a tensor whose size is static,
// ceildiv(64, 16) = 4: as constant as a literal 4, so the schedule is the
// static one, without guards.
// CHECK-LABEL: func.func @static_dim
// CHECK-NOT:     scf.if
// CHECK:         scf.for %{{.*}} = %c2 to %c4 step %c1 {
// CHECK-NOT:     scf.if
// CHECK:         return
func.func @static_dim(%A: !G, %B: !G, %C: !G) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %K = memref.dim %A, %c1 : !G
  %kt = arith.ceildivui %K, %c16 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : !S
    %B_s = tile.alloc_shared : !S
    %C_l = tile.alloc_fragment : !F
    tile.clear %C_l : !F
    tile.pipelined %c0 to %kt step %c1 num_stages = 3 stage = [0, 0, 2] order = [0, 1, 2] as (%k) {
      %ko = arith.muli %k, %c16 : index
      tile.copy %A[%c0, %ko] to %A_s : !G to !S
      tile.copy %B[%ko, %c0] to %B_s : !G to !S
      tile.gemm %A_s, %B_s, %C_l : !S, !S, !F
    }
    tile.copy %C_l to %C : !F to !G
  }
  return
}
