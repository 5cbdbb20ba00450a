// RUN: tile-opt --tile-pipeline-planning %s | FileCheck %s
// Idempotence: planning its own output changes nothing.
// RUN: tile-opt --tile-pipeline-planning %s -o %t.once.mlir
// RUN: tile-opt --tile-pipeline-planning %t.once.mlir -o %t.twice.mlir
// RUN: diff %t.once.mlir %t.twice.mlir
// RUN: tile-opt --tile-pipeline-planning --tile-pipeline-planning %s | FileCheck %s

// The seed GEMM body (copy A, copy B, gemm) at a small size.
!A = memref<256x256xf16>
!B = memref<256x256xf16>
!As = memref<64x32xf16, #gpu.address_space<workgroup>>
!Bs = memref<32x64xf16, #gpu.address_space<workgroup>>
!Cl = memref<64x64xf32, #gpu.address_space<private>>

// CHECK-LABEL: func.func @auto_1
// One stage: no overlap, every statement in stage 0.
// CHECK: tile.pipelined {{.*}} num_stages = 1 stage = [0, 0, 0] order = [0, 1, 2]
func.func @auto_1(%A: !A, %B: !B) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : !As
    %B_s = tile.alloc_shared : !Bs
    %C_l = tile.alloc_fragment : !Cl
    tile.pipelined %c0 to %c8 step %c1 num_stages = 1 as (%k) {
      %ko = arith.muli %k, %c32 : index
      tile.copy %A[%c0, %ko] to %A_s : !A to !As
      tile.copy %B[%ko, %c0] to %B_s : !B to !Bs
      tile.gemm %A_s, %B_s, %C_l : !As, !Bs, !Cl
    }
  }
  return
}

// CHECK-LABEL: func.func @auto_2
// Copies in stage 0, the gemm in the last stage N-1, source order.
// CHECK: tile.pipelined {{.*}} num_stages = 2 stage = [0, 0, 1] order = [0, 1, 2]
func.func @auto_2(%A: !A, %B: !B) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : !As
    %B_s = tile.alloc_shared : !Bs
    %C_l = tile.alloc_fragment : !Cl
    tile.pipelined %c0 to %c8 step %c1 num_stages = 2 as (%k) {
      %ko = arith.muli %k, %c32 : index
      tile.copy %A[%c0, %ko] to %A_s : !A to !As
      tile.copy %B[%ko, %c0] to %B_s : !B to !Bs
      tile.gemm %A_s, %B_s, %C_l : !As, !Bs, !Cl
    }
  }
  return
}

// CHECK-LABEL: func.func @auto_3
// CHECK: tile.pipelined {{.*}} num_stages = 3 stage = [0, 0, 2] order = [0, 1, 2]
func.func @auto_3(%A: !A, %B: !B) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : !As
    %B_s = tile.alloc_shared : !Bs
    %C_l = tile.alloc_fragment : !Cl
    tile.pipelined %c0 to %c8 step %c1 num_stages = 3 as (%k) {
      %ko = arith.muli %k, %c32 : index
      tile.copy %A[%c0, %ko] to %A_s : !A to !As
      tile.copy %B[%ko, %c0] to %B_s : !B to !Bs
      tile.gemm %A_s, %B_s, %C_l : !As, !Bs, !Cl
    }
  }
  return
}

// CHECK-LABEL: func.func @auto_4
// CHECK: tile.pipelined {{.*}} num_stages = 4 stage = [0, 0, 3] order = [0, 1, 2]
func.func @auto_4(%A: !A, %B: !B) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : !As
    %B_s = tile.alloc_shared : !Bs
    %C_l = tile.alloc_fragment : !Cl
    tile.pipelined %c0 to %c8 step %c1 num_stages = 4 as (%k) {
      %ko = arith.muli %k, %c32 : index
      tile.copy %A[%c0, %ko] to %A_s : !A to !As
      tile.copy %B[%ko, %c0] to %B_s : !B to !Bs
      tile.gemm %A_s, %B_s, %C_l : !As, !Bs, !Cl
    }
  }
  return
}

// CHECK-LABEL: func.func @manual
// The seed's matmul_manual: the depth max(stage) + 1 = 2 is written back.
// CHECK: tile.pipelined {{.*}} num_stages = 2 stage = [0, 0, 1] order = [0, 1, 2]
func.func @manual(%A: !A, %B: !B) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : !As
    %B_s = tile.alloc_shared : !Bs
    %C_l = tile.alloc_fragment : !Cl
    tile.pipelined %c0 to %c8 step %c1 stage = [0, 0, 1] order = [0, 1, 2] as (%k) {
      %ko = arith.muli %k, %c32 : index
      tile.copy %A[%c0, %ko] to %A_s : !A to !As
      tile.copy %B[%ko, %c0] to %B_s : !B to !Bs
      tile.gemm %A_s, %B_s, %C_l : !As, !Bs, !Cl
    }
  }
  return
}

// CHECK-LABEL: func.func @stage_only
// `stage` without `order`: source order; a matching num_stages is accepted.
// CHECK: tile.pipelined {{.*}} num_stages = 3 stage = [0, 0, 2] order = [0, 1, 2]
func.func @stage_only(%A: !A, %B: !B) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : !As
    %B_s = tile.alloc_shared : !Bs
    %C_l = tile.alloc_fragment : !Cl
    tile.pipelined %c0 to %c8 step %c1 num_stages = 3 stage = [0, 0, 2] as (%k) {
      %ko = arith.muli %k, %c32 : index
      tile.copy %A[%c0, %ko] to %A_s : !A to !As
      tile.copy %B[%ko, %c0] to %B_s : !B to !Bs
      tile.gemm %A_s, %B_s, %C_l : !As, !Bs, !Cl
    }
  }
  return
}

// CHECK-LABEL: func.func @gap
// Depth 4 with stages 1 and 2 empty: legal, the tiles need 4 versions.
// CHECK: tile.pipelined {{.*}} num_stages = 4 stage = [0, 0, 3] order = [0, 1, 2]
func.func @gap(%A: !A, %B: !B) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : !As
    %B_s = tile.alloc_shared : !Bs
    %C_l = tile.alloc_fragment : !Cl
    tile.pipelined %c0 to %c8 step %c1 stage = [0, 0, 3] as (%k) {
      %ko = arith.muli %k, %c32 : index
      tile.copy %A[%c0, %ko] to %A_s : !A to !As
      tile.copy %B[%ko, %c0] to %B_s : !B to !Bs
      tile.gemm %A_s, %B_s, %C_l : !As, !Bs, !Cl
    }
  }
  return
}

// CHECK-LABEL: func.func @consumer_first
// A hand-written order that runs the gemm of iteration k-1 before the copies
// of iteration k in the steady state: legal, kept as given.
// CHECK: tile.pipelined {{.*}} num_stages = 2 stage = [0, 0, 1] order = [1, 2, 0]
func.func @consumer_first(%A: !A, %B: !B) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : !As
    %B_s = tile.alloc_shared : !Bs
    %C_l = tile.alloc_fragment : !Cl
    tile.pipelined %c0 to %c8 step %c1 stage = [0, 0, 1] order = [1, 2, 0] as (%k) {
      %ko = arith.muli %k, %c32 : index
      tile.copy %A[%c0, %ko] to %A_s : !A to !As
      tile.copy %B[%ko, %c0] to %B_s : !B to !Bs
      tile.gemm %A_s, %B_s, %C_l : !As, !Bs, !Cl
    }
  }
  return
}

// CHECK-LABEL: func.func @fragment_operand_needs_order
// A fragment is never multi-buffered: the copy into A_f of iteration k+1
// may share a time step with the gemm of iteration k only if the gemm runs
// first, which this order does.
// CHECK: tile.pipelined {{.*}} num_stages = 2 stage = [0, 0, 1] order = [1, 2, 0]
func.func @fragment_operand_needs_order(%A: !A, %B: !B) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_f = tile.alloc_fragment : memref<64x32xf16, #gpu.address_space<private>>
    %B_s = tile.alloc_shared : !Bs
    %C_l = tile.alloc_fragment : !Cl
    tile.pipelined %c0 to %c8 step %c1 stage = [0, 0, 1] order = [1, 2, 0] as (%k) {
      %ko = arith.muli %k, %c32 : index
      tile.copy %A[%c0, %ko] to %A_f : !A to memref<64x32xf16, #gpu.address_space<private>>
      tile.copy %B[%ko, %c0] to %B_s : !B to !Bs
      tile.gemm %A_f, %B_s, %C_l : memref<64x32xf16, #gpu.address_space<private>>, !Bs, !Cl
    }
  }
  return
}

// CHECK-LABEL: func.func @index_from_memory
// The copy's row offset is loaded from memory: the load is a statement and
// joins the copy in stage 0 (pure index arithmetic is no statement at all
// and follows its users). Entries: load, copy A, copy B, gemm.
// CHECK: tile.pipelined {{.*}} num_stages = 3 stage = [0, 0, 0, 2] order = [0, 1, 2, 3]
func.func @index_from_memory(%A: !A, %B: !B, %rows: memref<8xindex>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : !As
    %B_s = tile.alloc_shared : !Bs
    %C_l = tile.alloc_fragment : !Cl
    tile.pipelined %c0 to %c8 step %c1 num_stages = 3 as (%k) {
      %row = memref.load %rows[%k] : memref<8xindex>
      %ko = arith.muli %k, %c32 : index
      tile.copy %A[%row, %ko] to %A_s : !A to !As
      tile.copy %B[%ko, %c0] to %B_s : !B to !Bs
      tile.gemm %A_s, %B_s, %C_l : !As, !Bs, !Cl
    }
  }
  return
}

// CHECK-LABEL: func.func @index_through_memory
// The index reaches the copy through memory: a store, then a load of the
// same cell (TileLang issue 2720 loses the store). Both join the copy in
// stage 0. Entries: store, load, copy A, copy B, gemm.
// CHECK: tile.pipelined {{.*}} num_stages = 2 stage = [0, 0, 0, 0, 1] order = [0, 1, 2, 3, 4]
func.func @index_through_memory(%A: !A, %B: !B, %cell: memref<1xindex>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : !As
    %B_s = tile.alloc_shared : !Bs
    %C_l = tile.alloc_fragment : !Cl
    tile.pipelined %c0 to %c8 step %c1 num_stages = 2 as (%k) {
      %ko = arith.muli %k, %c32 : index
      memref.store %ko, %cell[%c0] : memref<1xindex>
      %off = memref.load %cell[%c0] : memref<1xindex>
      tile.copy %A[%c0, %off] to %A_s : !A to !As
      tile.copy %B[%ko, %c0] to %B_s : !B to !Bs
      tile.gemm %A_s, %B_s, %C_l : !As, !Bs, !Cl
    }
  }
  return
}

// CHECK-LABEL: func.func @unread_copy
// A copy into a tile nobody reads is still a global-to-shared copy: stage 0
// (with a single version, since no later stage reads it).
// CHECK: tile.pipelined {{.*}} num_stages = 3 stage = [0, 0, 2, 0] order = [0, 1, 2, 3]
func.func @unread_copy(%A: !A, %B: !B) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : !As
    %B_s = tile.alloc_shared : !Bs
    %D_s = tile.alloc_shared : !As
    %C_l = tile.alloc_fragment : !Cl
    tile.pipelined %c0 to %c8 step %c1 num_stages = 3 as (%k) {
      %ko = arith.muli %k, %c32 : index
      tile.copy %A[%c0, %ko] to %A_s : !A to !As
      tile.copy %B[%ko, %c0] to %B_s : !B to !Bs
      tile.gemm %A_s, %B_s, %C_l : !As, !Bs, !Cl
      tile.copy %A[%c32, %ko] to %D_s : !A to !As
    }
  }
  return
}

// CHECK-LABEL: func.func @copy_inside_region
// A copy hidden in an op with a region is planned conservatively: the
// scf.if is one statement, not a prefetch copy, so it stays with the
// consumers in the last stage.
// CHECK: tile.pipelined {{.*}} num_stages = 3 stage = [0, 2, 2] order = [0, 1, 2]
func.func @copy_inside_region(%A: !A, %B: !B, %cond: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : !As
    %B_s = tile.alloc_shared : !Bs
    %C_l = tile.alloc_fragment : !Cl
    tile.pipelined %c0 to %c8 step %c1 num_stages = 3 as (%k) {
      %ko = arith.muli %k, %c32 : index
      tile.copy %A[%c0, %ko] to %A_s : !A to !As
      scf.if %cond {
        tile.copy %B[%ko, %c0] to %B_s : !B to !Bs
      }
      tile.gemm %A_s, %B_s, %C_l : !As, !Bs, !Cl
    }
  }
  return
}

// CHECK-LABEL: func.func @serial
// num_stages = 0 and no schedule at all: plain loops, untouched. Each
// header is matched whole (operands as single names, `as (` right after), so
// no num_stages, stage or order attribute can hide in it; the bodies keep
// their synchronous copies.
// CHECK: tile.pipelined %{{[a-z0-9_]+}} to %{{[a-z0-9_]+}} step %{{[a-z0-9_]+}} num_stages = 0 as (%{{[a-z0-9_]+}}) {
// CHECK-NEXT: arith.muli
// CHECK-NEXT: tile.copy %
// CHECK-NEXT: tile.copy %
// CHECK-NEXT: tile.gemm
// CHECK-NEXT: }
// CHECK-NEXT: tile.pipelined %{{[a-z0-9_]+}} to %{{[a-z0-9_]+}} step %{{[a-z0-9_]+}} as (%{{[a-z0-9_]+}}) {
// CHECK-NEXT: arith.muli
// CHECK-NEXT: tile.copy %
// CHECK-NEXT: tile.copy %
// CHECK-NEXT: tile.gemm
// CHECK-NEXT: }
func.func @serial(%A: !A, %B: !B) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : !As
    %B_s = tile.alloc_shared : !Bs
    %C_l = tile.alloc_fragment : !Cl
    tile.pipelined %c0 to %c8 step %c1 num_stages = 0 as (%k) {
      %ko = arith.muli %k, %c32 : index
      tile.copy %A[%c0, %ko] to %A_s : !A to !As
      tile.copy %B[%ko, %c0] to %B_s : !B to !Bs
      tile.gemm %A_s, %B_s, %C_l : !As, !Bs, !Cl
    }
    tile.pipelined %c0 to %c8 step %c1 as (%k) {
      %ko = arith.muli %k, %c32 : index
      tile.copy %A[%c0, %ko] to %A_s : !A to !As
      tile.copy %B[%ko, %c0] to %B_s : !B to !Bs
      tile.gemm %A_s, %B_s, %C_l : !As, !Bs, !Cl
    }
  }
  return
}
