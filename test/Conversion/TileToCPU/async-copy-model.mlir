// RUN: tile-opt --tile-lower-to-cpu %s | FileCheck %s

// The default CPU model of asynchronous copies: a tile.copy_async is
// recorded where it is issued (its group and the indices it needs) and
// performed by the first tile.wait_group that retires its group.

!G = memref<64x48xf16>
!S2 = memref<2x16x8xf16, #gpu.address_space<workgroup>>
!Sv = memref<16x8xf16, strided<[8, 1], offset: ?>, #gpu.address_space<workgroup>>

// CHECK-LABEL: func.func @one_copy(
// CHECK-SAME:    %[[G:[a-z0-9]+]]: memref<64x48xf16>, %[[VER:[a-z0-9]+]]: index, %[[ROW:[a-z0-9]+]]: index)
// The state (committed groups, queue length), the queue (group, the
// source's two offsets, the subview's version offset) and, per pending
// copy, what it would read of G where it is issued.
// CHECK:       %[[STATE:.*]] = memref.alloc() : memref<2xindex>
// CHECK:       %[[QUEUE:.*]] = memref.alloc() : memref<64x4xindex>
// CHECK:       %[[ISSUED:.*]] = memref.alloc() : memref<64x16x8xf16>
// CHECK:       %[[TILE:.*]] = memref.alloc() : memref<2x16x8xf16>
// Issue: a full queue (64 pending) first lands its copies; then the copy is
// recorded (the group, the source's row and column, the version), not
// performed: what it would read of G is kept, and the tile is not written.
// CHECK:       %[[FULL:.*]] = arith.cmpi uge, %{{.*}}, %c64
// CHECK:       scf.if %[[FULL]] {
// CHECK:         memref.store %{{.*}}, %[[STATE]][%{{.*}}] : memref<2xindex>
// CHECK-NEXT:  }
// CHECK-NOT:   memref.load %[[G]]
// CHECK-DAG:   memref.store %[[ROW]], %[[QUEUE]][%[[N:.*]], %c1
// CHECK-DAG:   memref.store %[[VER]], %[[QUEUE]][%[[N]], %c3
// CHECK:       memref.load %[[G]]
// CHECK:       memref.store %{{.*}}, %[[ISSUED]][%[[N]],
// CHECK-NOT:   memref.load %[[G]]
// Commit: one more group.
// CHECK:       %[[OLD:.*]] = memref.load %[[STATE]][%c0
// CHECK:       %[[NEW:.*]] = arith.addi %[[OLD]], %c1
// CHECK:       memref.store %[[NEW]], %[[STATE]][%c0
// wait_group 1: retire the groups older than committed - 1, in issue order;
// a retired entry becomes the copy, on the version it recorded.
// CHECK:       %[[COMMITTED:.*]] = memref.load %[[STATE]][%c0
// CHECK:       %[[THRESHOLD:.*]] = arith.subi %[[COMMITTED]], %c1
// CHECK:       scf.for %[[E:.*]] = {{.*}} iter_args(
// CHECK:         %[[G0:.*]] = memref.load %[[QUEUE]][%[[E]], %c0
// CHECK:         %[[OLDER:.*]] = arith.cmpi slt, %[[G0]], %[[THRESHOLD]]
// CHECK:         scf.if %[[OLDER]]
// CHECK:           %[[RV:.*]] = memref.load %[[QUEUE]][%[[E]], %c3
// CHECK:           %[[SV:.*]] = memref.subview %[[TILE]][%[[RV]], 0, 0]
// CHECK:           memref.load %[[G]]
// CHECK:           memref.store %{{.*}}, %[[SV]][
// The rest stay queued, moved to the front.
// CHECK:         } else {
// CHECK:       memref.dealloc %[[STATE]]
// CHECK:       memref.dealloc %[[QUEUE]]
func.func @one_copy(%G: !G, %ver: index, %row: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tile.kernel grid(%c1) threads(32) as (%bx) {
    %S = tile.alloc_shared : !S2
    %v = memref.subview %S[%ver, 0, 0] [1, 16, 8] [1, 1, 1] : !S2 to !Sv
    tile.copy_async %G[%row, %c0] to %v : !G to !Sv
    tile.commit_group
    tile.wait_group 1
    tile.barrier
  }
  return
}

// Copies that differ only in their indices (here the source row, the version
// and one index repeated in one copy but not the other) share a queue, so
// that each wait replays one queue and not one per copy; a copy from another
// source gets its own. The state holds the group count and two lengths.

// CHECK-LABEL: func.func @shared_queue(
// CHECK-SAME:    %[[G:[a-z0-9]+]]: memref<64x48xf16>, %[[H:[a-z0-9]+]]: memref<64x48xf16>, %[[ROW:[a-z0-9]+]]: index)
// CHECK:       %[[STATE:.*]] = memref.alloc() : memref<3xindex>
// CHECK:       %[[QG:.*]] = memref.alloc() : memref<64x4xindex>
// CHECK:       %[[QH:.*]] = memref.alloc() : memref<64x4xindex>
// CHECK-NOT:   memref.alloc() : memref<64x{{[0-9]+}}xindex>
// The copies from G record into one queue, the one from H into another
// (column 1 holds the source row).
// CHECK:       memref.store %[[ROW]], %[[QG]][%{{.*}}, %c1
// CHECK:       memref.store %c8{{.*}}, %[[QG]][%{{.*}}, %c1
// CHECK:       memref.store %c0{{.*}}, %[[QG]][%{{.*}}, %c1
// CHECK:       memref.store %[[ROW]], %[[QH]][%{{.*}}, %c1
// CHECK:       memref.store %[[ROW]], %[[QG]][%{{.*}}, %c1
// The wait replays each queue once, rebuilding the version's subview from
// the recorded columns by position.
// CHECK:       %[[THRESHOLD:.*]] = arith.subi %{{.*}}, %c1
// CHECK:       scf.for %[[E:.*]] = {{.*}} iter_args(
// CHECK:         memref.load %[[QG]][%[[E]], %c0
// CHECK:         scf.if
// CHECK:           %[[R:.*]] = memref.load %[[QG]][%[[E]], %c1
// CHECK:           %[[C:.*]] = memref.load %[[QG]][%[[E]], %c2
// CHECK:           %[[V:.*]] = memref.load %[[QG]][%[[E]], %c3
// CHECK:           %[[SV:.*]] = memref.subview %{{.*}}[%[[V]], 0, 0]
// CHECK:           scf.for %[[I:.*]] =
// CHECK:             scf.for %[[J:.*]] =
// CHECK:               %[[GR:.*]] = arith.addi %[[R]], %[[I]]
// CHECK:               %[[GC:.*]] = arith.addi %[[C]], %[[J]]
// CHECK:               memref.load %[[G]][%[[GR]], %[[GC]]]
// CHECK:             memref.store %{{.*}}, %[[SV]][%[[I]], %[[J]]]
// CHECK:       scf.for %[[F:.*]] = {{.*}} iter_args(
// CHECK:         memref.load %[[QH]][%[[F]], %c0
// CHECK:           memref.load %[[H]]
// CHECK-NOT:   scf.for {{.*}} iter_args(
// CHECK:       memref.dealloc %[[STATE]]
func.func @shared_queue(%G: !G, %H: !G, %row: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  tile.kernel grid(%c1) threads(32) as (%bx) {
    %S = tile.alloc_shared : !S2
    %v0 = memref.subview %S[%c0, 0, 0] [1, 16, 8] [1, 1, 1] : !S2 to !Sv
    %v1 = memref.subview %S[%c1, 0, 0] [1, 16, 8] [1, 1, 1] : !S2 to !Sv
    tile.copy_async %G[%row, %c0] to %v0 : !G to !Sv
    tile.commit_group
    tile.copy_async %G[%c8, %c8] to %v1 : !G to !Sv
    tile.copy_async %G[%c0, %c8] to %v0 : !G to !Sv
    tile.commit_group
    tile.copy_async %H[%row, %c8] to %v1 : !G to !Sv
    tile.copy_async %G[%row, %c0] to %v1 : !G to !Sv
    tile.commit_group
    tile.wait_group 1
    tile.barrier
  }
  return
}
