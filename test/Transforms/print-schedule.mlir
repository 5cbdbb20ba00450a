// RUN: tile-opt --tile-print-schedule %s -o /dev/null 2>&1 | FileCheck %s --check-prefixes=CHECK,INFER
// RUN: tile-opt --tile-print-schedule=trip-count=2 %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=OPT
// The printer reads a planned loop the same way it infers an unplanned one.
// RUN: tile-opt --tile-pipeline-planning --tile-print-schedule %s -o /dev/null 2>&1 | FileCheck %s

!A = memref<256x256xf16>
!B = memref<256x256xf16>
!As = memref<64x32xf16, #gpu.address_space<workgroup>>
!Bs = memref<32x64xf16, #gpu.address_space<workgroup>>
!Cl = memref<64x64xf32, #gpu.address_space<private>>

// The seed's num_stages = 3 over 4 iterations: two prologue steps issue the
// copies of iterations 0 and 1; each steady step copies iteration t into
// version t mod 3 while the gemm reads iteration t-2's version; the
// epilogue drains the last two gemms.
// CHECK-LABEL: schedule of tile.pipelined
// CHECK-NEXT:  depth 3, showing 4 iterations (the static trip count)
// CHECK-NEXT:  shared tile %[[A:[0-9]+]] : memref<64x32xf16, #gpu.address_space<workgroup>>, 3 versions
// CHECK-NEXT:  shared tile %[[B:[0-9]+]] : memref<32x64xf16, #gpu.address_space<workgroup>>, 3 versions
// CHECK-NEXT:  #0 stage 0 order 0  copy  writes %[[A]]
// CHECK-NEXT:  #1 stage 0 order 1  copy  writes %[[B]]
// CHECK-NEXT:  #2 stage 2 order 2  gemm  reads %[[A]]  reads %[[B]]
// CHECK-NEXT:  step  phase
// CHECK-NEXT:  t=0   prologue  | copy it0 -> %[[A]][v0] | copy it0 -> %[[B]][v0]{{$}}
// CHECK-NEXT:  t=1   prologue  | copy it1 -> %[[A]][v1] | copy it1 -> %[[B]][v1]{{$}}
// CHECK-NEXT:  t=2   steady    | copy it2 -> %[[A]][v2] | copy it2 -> %[[B]][v2] | gemm it0 <- %[[A]][v0] <- %[[B]][v0]
// CHECK-NEXT:  t=3   steady    | copy it3 -> %[[A]][v0] | copy it3 -> %[[B]][v0] | gemm it1 <- %[[A]][v1] <- %[[B]][v1]
// CHECK-NEXT:  t=4   epilogue  | gemm it2 <- %[[A]][v2] <- %[[B]][v2]
// CHECK-NEXT:  t=5   epilogue  | gemm it3 <- %[[A]][v0] <- %[[B]][v0]
// CHECK-NOT:   t=6
// OPT-LABEL:   schedule of tile.pipelined
// OPT-NEXT:    depth 3, showing 2 iterations (trip-count option)
func.func @auto_3(%A: !A, %B: !B, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c32 = arith.constant 32 : index
  %c256 = arith.constant 256 : index
  %kt = arith.ceildivui %c256, %c32 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : !As
    %B_s = tile.alloc_shared : !Bs
    %C_l = tile.alloc_fragment : !Cl
    tile.pipelined %c0 to %c4 step %c1 num_stages = 3 as (%k) {
      %ko = arith.muli %k, %c32 : index
      tile.copy %A[%c0, %ko] to %A_s : !A to !As
      tile.copy %B[%ko, %c0] to %B_s : !B to !Bs
      tile.gemm %A_s, %B_s, %C_l : !As, !Bs, !Cl
    }
  }
  return
}

// order = [1, 2, 0]: in the steady state the gemm of iteration t-1 runs
// before the copies of iteration t.
// CHECK-LABEL: schedule of tile.pipelined
// CHECK-NEXT:  depth 2, showing 4 iterations
// CHECK:       #2 stage 1 order 0  gemm
// CHECK:       t=1   steady    | gemm it0 <- %[[A]][v0] <- %[[B]][v0] | copy it1 -> %[[A]][v1] | copy it1 -> %[[B]][v1]
// CHECK:       t=4   epilogue  | gemm it3 <- %[[A]][v1] <- %[[B]][v1]
func.func @manual_consumer_first(%A: !A, %B: !B, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c32 = arith.constant 32 : index
  %c256 = arith.constant 256 : index
  %kt = arith.ceildivui %c256, %c32 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : !As
    %B_s = tile.alloc_shared : !Bs
    %C_l = tile.alloc_fragment : !Cl
    tile.pipelined %c0 to %c4 step %c1 stage = [0, 0, 1] order = [1, 2, 0] as (%k) {
      %ko = arith.muli %k, %c32 : index
      tile.copy %A[%c0, %ko] to %A_s : !A to !As
      tile.copy %B[%ko, %c0] to %B_s : !B to !Bs
      tile.gemm %A_s, %B_s, %C_l : !As, !Bs, !Cl
    }
  }
  return
}

// One iteration, depth 3: the pipeline never fills; stage 1 is empty.
// CHECK-LABEL: schedule of tile.pipelined
// CHECK-NEXT:  depth 3, showing 1 iteration (the static trip count)
// CHECK:       t=0   prologue  | copy it0 -> %[[A]][v0] | copy it0 -> %[[B]][v0]{{$}}
// CHECK-NEXT:  t=1   epilogue  | (no statement: an empty stage)
// CHECK-NEXT:  t=2   epilogue  | gemm it0 <- %[[A]][v0] <- %[[B]][v0]
func.func @short(%A: !A, %B: !B, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c32 = arith.constant 32 : index
  %c256 = arith.constant 256 : index
  %kt = arith.ceildivui %c256, %c32 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : !As
    %B_s = tile.alloc_shared : !Bs
    %C_l = tile.alloc_fragment : !Cl
    tile.pipelined %c0 to %c1 step %c1 num_stages = 3 as (%k) {
      %ko = arith.muli %k, %c32 : index
      tile.copy %A[%c0, %ko] to %A_s : !A to !As
      tile.copy %B[%ko, %c0] to %B_s : !B to !Bs
      tile.gemm %A_s, %B_s, %C_l : !As, !Bs, !Cl
    }
  }
  return
}

// The trip count ceildiv(256, 32) = 8 is folded from constants.
// CHECK-LABEL: schedule of tile.pipelined
// CHECK-NEXT:  depth 2, showing 8 iterations (the static trip count)
// CHECK:       t=8   epilogue  | gemm it7
func.func @static_8(%A: !A, %B: !B, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c32 = arith.constant 32 : index
  %c256 = arith.constant 256 : index
  %kt = arith.ceildivui %c256, %c32 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : !As
    %B_s = tile.alloc_shared : !Bs
    %C_l = tile.alloc_fragment : !Cl
    tile.pipelined %c0 to %kt step %c1 num_stages = 2 as (%k) {
      %ko = arith.muli %k, %c32 : index
      tile.copy %A[%c0, %ko] to %A_s : !A to !As
      tile.copy %B[%ko, %c0] to %B_s : !B to !Bs
      tile.gemm %A_s, %B_s, %C_l : !As, !Bs, !Cl
    }
  }
  return
}

// Bounds that fold to one of their operands (x + 0, x * 1), as a K loop
// shifted by a zero offset has them: 0 + 0 to 96 * 1 step 32 is 3 steps.
// CHECK-LABEL: schedule of tile.pipelined
// CHECK-NEXT:  depth 2, showing 3 iterations (the static trip count)
// CHECK:       t=3   epilogue  | gemm it2
func.func @folds_to_operand(%A: !A, %B: !B, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %c96 = arith.constant 96 : index
  %lb = arith.addi %c0, %c0 : index
  %ub = arith.muli %c96, %c1 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : !As
    %B_s = tile.alloc_shared : !Bs
    %C_l = tile.alloc_fragment : !Cl
    tile.pipelined %lb to %ub step %c32 num_stages = 2 as (%k) {
      tile.copy %A[%c0, %k] to %A_s : !A to !As
      tile.copy %B[%k, %c0] to %B_s : !B to !Bs
      tile.gemm %A_s, %B_s, %C_l : !As, !Bs, !Cl
    }
  }
  return
}

// CHECK-LABEL: schedule of tile.pipelined
// CHECK-NEXT:  depth 2, showing 6 iterations (no static trip count)
// CHECK:       t=6   epilogue  | gemm it5
func.func @dynamic(%A: !A, %B: !B, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c32 = arith.constant 32 : index
  %c256 = arith.constant 256 : index
  %kt = arith.ceildivui %c256, %c32 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : !As
    %B_s = tile.alloc_shared : !Bs
    %C_l = tile.alloc_fragment : !Cl
    tile.pipelined %c0 to %n step %c1 num_stages = 2 as (%k) {
      %ko = arith.muli %k, %c32 : index
      tile.copy %A[%c0, %ko] to %A_s : !A to !As
      tile.copy %B[%ko, %c0] to %B_s : !B to !Bs
      tile.gemm %A_s, %B_s, %C_l : !As, !Bs, !Cl
    }
  }
  return
}

// CHECK-LABEL: schedule of tile.pipelined
// CHECK-NEXT:  serial loop (num_stages = 0 or absent): not pipelined
func.func @serial(%A: !A, %B: !B, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c32 = arith.constant 32 : index
  %c256 = arith.constant 256 : index
  %kt = arith.ceildivui %c256, %c32 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : !As
    %B_s = tile.alloc_shared : !Bs
    %C_l = tile.alloc_fragment : !Cl
    tile.pipelined %c0 to %c4 step %c1 num_stages = 0 as (%k) {
      %ko = arith.muli %k, %c32 : index
      tile.copy %A[%c0, %ko] to %A_s : !A to !As
      tile.copy %B[%ko, %c0] to %B_s : !B to !Bs
      tile.gemm %A_s, %B_s, %C_l : !As, !Bs, !Cl
    }
  }
  return
}

// A loop that never runs has no timeline.
// CHECK-LABEL: schedule of tile.pipelined
// CHECK-NEXT:  depth 2, showing 0 iterations (the static trip count)
// CHECK:       (no iterations: the loop body never runs)
// CHECK-NOT:   t=0
func.func @never(%A: !A, %B: !B, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : !As
    %B_s = tile.alloc_shared : !Bs
    %C_l = tile.alloc_fragment : !Cl
    tile.pipelined %c0 to %c0 step %c1 num_stages = 2 as (%k) {
      %ko = arith.muli %k, %c32 : index
      tile.copy %A[%c0, %ko] to %A_s : !A to !As
      tile.copy %B[%ko, %c0] to %B_s : !B to !Bs
      tile.gemm %A_s, %B_s, %C_l : !As, !Bs, !Cl
    }
  }
  return
}

// Bounds so far apart that ub - lb overflows int64_t: 2^64 - 1 trips, more
// than a static count can say, so the loop is shown as one without.
// CHECK-LABEL: schedule of tile.pipelined
// CHECK-NEXT:  depth 2, showing 6 iterations (no static trip count)
// CHECK:       t=0   prologue
func.func @far_apart(%A: !A, %B: !B) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %lb = arith.constant -9223372036854775808 : index
  %ub = arith.constant 9223372036854775807 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : !As
    %B_s = tile.alloc_shared : !Bs
    %C_l = tile.alloc_fragment : !Cl
    tile.pipelined %lb to %ub step %c1 num_stages = 2 as (%k) {
      %ko = arith.muli %k, %c32 : index
      tile.copy %A[%c0, %ko] to %A_s : !A to !As
      tile.copy %B[%ko, %c0] to %B_s : !B to !Bs
      tile.gemm %A_s, %B_s, %C_l : !As, !Bs, !Cl
    }
  }
  return
}

// num_stages alone over a loop with nothing to overlap (no copy into shared
// memory): depth 1, as planning plans it (with a warning), not an error
// about num_stages and a 'stage' list the loop does not have.
// CHECK-LABEL: schedule of tile.pipelined
// CHECK-NEXT:  depth 1, showing 4 iterations (the static trip count)
// INFER-NEXT:  num_stages = 2 finds nothing to overlap: depth 1, as tile-pipeline-planning plans it
// CHECK:       t=3   steady    | clear it3
func.func @nothing_to_overlap() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %C_l = tile.alloc_fragment : !Cl
    tile.pipelined %c0 to %c4 step %c1 num_stages = 2 as (%k) {
      tile.clear %C_l : !Cl
    }
  }
  return
}
