// RUN: tile-opt --tile-software-pipeline %s | FileCheck %s

// Hand-written asynchronous copies outside pipelined loops: a copy writes
// its tile between its issue and the tile.wait_group that completes its
// group, and the wait makes the write visible to the issuing thread only.
// A barrier before the wait is no barrier after the copy: the reader gets
// one after the wait.

!G = memref<64x64xf16>
!S = memref<16x16xf16, #gpu.address_space<workgroup>>
!F = memref<16x16xf32, #gpu.address_space<private>>

// CHECK-LABEL: func.func @barrier_before_wait
// CHECK:      tile.copy_async %{{.*}} to %[[A:[^ ]*]] :
// CHECK-NEXT: tile.commit_group
// CHECK-NEXT: tile.clear %[[X:[^ ]*]] :
// CHECK-NEXT: tile.barrier
// CHECK-NEXT: tile.gemm %[[X]], %[[X]], %{{.*}} :
// CHECK-NEXT: tile.wait_group 0
// CHECK-NEXT: tile.barrier
// CHECK-NEXT: tile.gemm %[[A]], %[[A]], %{{.*}} :
func.func @barrier_before_wait(%A: !G, %C: !G) {
  %c1 = arith.constant 1 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : !S
    %X_s = tile.alloc_shared : !S
    %F = tile.alloc_fragment : !F
    %D = tile.alloc_fragment : !F
    tile.copy_async %A to %A_s : !G to !S
    tile.commit_group
    tile.clear %X_s : !S
    tile.gemm %X_s, %X_s, %D : !S, !S, !F
    tile.wait_group 0
    tile.gemm %A_s, %A_s, %F : !S, !S, !F
  }
  return
}

// A copy not yet committed belongs to no group that a wait completes: it is
// still in flight after the first wait, and the read after the second one
// gets its barrier.
// CHECK-LABEL: func.func @uncommitted_copy
// CHECK:      tile.copy_async %{{.*}} to %[[A:[^ ]*]] :
// CHECK-NEXT: tile.wait_group 0
// CHECK-NEXT: tile.clear %[[X:[^ ]*]] :
// CHECK-NEXT: tile.barrier
// CHECK-NEXT: tile.gemm %[[X]], %[[X]], %{{.*}} :
// CHECK-NEXT: tile.commit_group
// CHECK-NEXT: tile.wait_group 0
// CHECK-NEXT: tile.barrier
// CHECK-NEXT: tile.gemm %[[A]], %[[A]], %{{.*}} :
func.func @uncommitted_copy(%A: !G, %C: !G) {
  %c1 = arith.constant 1 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : !S
    %X_s = tile.alloc_shared : !S
    %F = tile.alloc_fragment : !F
    %D = tile.alloc_fragment : !F
    tile.copy_async %A to %A_s : !G to !S
    tile.wait_group 0
    tile.clear %X_s : !S
    tile.gemm %X_s, %X_s, %D : !S, !S, !F
    tile.commit_group
    tile.wait_group 0
    tile.gemm %A_s, %A_s, %F : !S, !S, !F
  }
  return
}

// A copy in flight into an scf.while, whose control flow the placement does
// not follow: the barrier before the loop is before the wait in its body.
// CHECK-LABEL: func.func @wait_in_while
// CHECK:      tile.copy_async %{{.*}} to %[[A:[^ ]*]] :
// CHECK:      scf.while
// CHECK:      } do {
// CHECK:        tile.wait_group 0
// CHECK-NEXT:   tile.barrier
// CHECK-NEXT:   tile.gemm %[[A]], %{{.*}}, %{{.*}} :
func.func @wait_in_while(%A: !G, %C: !G) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : !S
    %X_s = tile.alloc_shared : !S
    %F = tile.alloc_fragment : !F
    tile.clear %X_s : !S
    tile.copy_async %A to %A_s : !G to !S
    tile.commit_group
    %r = scf.while (%i = %c0) : (index) -> index {
      %go = arith.cmpi slt, %i, %c4 : index
      scf.condition(%go) %i : index
    } do {
    ^bb0(%j: index):
      tile.wait_group 0
      tile.gemm %A_s, %X_s, %F : !S, !S, !F
      %n = arith.addi %j, %c1 : index
      scf.yield %n : index
    }
  }
  return
}

// A loop whose body ends with a barrier (the next trip's copies overwrite
// what its gemm read) issues a copy on its last trip; the copy is still in
// flight after the loop, and the read after the wait gets its barrier.
// CHECK-LABEL: func.func @copy_in_flight_out_of_loop
// CHECK:      scf.for
// CHECK:          tile.commit_group
// CHECK-NEXT:   }
// CHECK-NEXT:   tile.barrier
// CHECK-NEXT: }
// CHECK-NEXT: tile.wait_group 0
// CHECK-NEXT: tile.barrier
// CHECK-NEXT: tile.gemm %[[A2:[^ ]*]], %[[A2]], %{{.*}} :
func.func @copy_in_flight_out_of_loop(%A: !G, %C: !G) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : !S
    %A2_s = tile.alloc_shared : !S
    %F = tile.alloc_fragment : !F
    scf.for %k = %c0 to %c2 step %c1 {
      tile.copy %A[%k, %c0] to %A_s : !G to !S
      tile.gemm %A_s, %A_s, %F : !S, !S, !F
      %last = arith.cmpi eq, %k, %c1 : index
      scf.if %last {
        tile.copy_async %A to %A2_s : !G to !S
        tile.commit_group
      }
    }
    tile.wait_group 0
    tile.gemm %A2_s, %A2_s, %F : !S, !S, !F
  }
  return
}
