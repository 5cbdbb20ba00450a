// RUN: tile-opt --tile-software-pipeline %s | FileCheck %s

// Barrier placement outside pipelined loops: read-after-write and
// write-after-read on a shared tile by different ops get a barrier in
// between; reads after reads, fragments and global memory do not.

!G = memref<64x64xf16>
!S = memref<16x16xf16, #gpu.address_space<workgroup>>
!F = memref<16x16xf16, #gpu.address_space<private>>

// CHECK-LABEL: func.func @straight_line
// CHECK:      tile.copy %{{.*}} to %[[S:.*]] : memref<64x64xf16> to
// CHECK-NEXT: tile.barrier
// CHECK-NEXT: tile.copy %[[S]] to %[[F1:.*]] :
// CHECK-NEXT: tile.copy %[[S]] to %[[F2:.*]] :
// CHECK-NEXT: tile.copy %[[F1]] to %{{.*}} :
// CHECK-NEXT: tile.barrier
// CHECK-NEXT: tile.clear %[[S]]
// CHECK-NEXT: scf.if
// CHECK-NEXT:   tile.barrier
// CHECK-NEXT:   tile.copy %{{.*}} to %[[S]] :
// CHECK-NEXT: }
// CHECK-NEXT: tile.barrier
// CHECK-NEXT: tile.copy %[[S]] to %[[F1]] :
// CHECK-NEXT: }
// A write after a write by another op races too (the clear and the copy).
func.func @straight_line(%A: !G, %C: !G, %cond: i1) {
  %c1 = arith.constant 1 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %S = tile.alloc_shared : !S
    %F1 = tile.alloc_fragment : !F
    %F2 = tile.alloc_fragment : !F
    tile.copy %A to %S : !G to !S
    tile.copy %S to %F1 : !S to !F
    tile.copy %S to %F2 : !S to !F
    tile.copy %F1 to %C : !F to !G
    tile.clear %S : !S
    scf.if %cond {
      tile.copy %A to %S : !G to !S
    }
    tile.copy %S to %F1 : !S to !F
  }
  return
}

// A loop that only reads the tile needs no barrier inside, only one before
// it; one that only rewrites the tile with the same op needs none inside
// either (each thread rewrites its own elements).
// CHECK-LABEL: func.func @loops
// CHECK:      tile.copy %{{.*}} to %[[S:.*]] : memref<64x64xf16> to
// CHECK-NEXT: tile.barrier
// CHECK-NEXT: scf.for
// CHECK-NEXT:   tile.copy %[[S]] to
// CHECK-NEXT: }
// CHECK-NEXT: tile.barrier
// CHECK-NEXT: scf.for
// CHECK-NEXT:   tile.copy %{{.*}} to %[[S]] :
// CHECK-NEXT: }
// CHECK-NEXT: }
func.func @loops(%A: !G, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %S = tile.alloc_shared : !S
    %F = tile.alloc_fragment : !F
    tile.copy %A to %S : !G to !S
    scf.for %i = %c0 to %n step %c1 {
      tile.copy %S to %F : !S to !F
    }
    scf.for %i = %c0 to %n step %c1 {
      tile.copy %A[%i, %c0] to %S : !G to !S
    }
  }
  return
}
