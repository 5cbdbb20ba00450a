// RUN: tile-opt --tile-software-pipeline %s | FileCheck %s

// Code with no tile op in it (scalar loads and stores, and loops and branches
// of them) runs in each thread on its own, under control that may differ
// from thread to thread (gpu.thread_id). Barrier placement takes such an op
// as one access: the barrier that hands it what the tile ops wrote goes
// before it, where every thread runs, never inside. Before, it went next to
// the load inside the branch, and the GPU lowering refused the kernel (a
// barrier under per-thread control).

!G = memref<32x32xf32>
!S = memref<32x32xf32, #gpu.address_space<workgroup>>
!V = memref<128xf32>

// CHECK-LABEL: func.func @epilogue_in_branch
// CHECK:      tile.copy %{{.*}} to %[[B:.*]] : memref<32x32xf32, #gpu.address_space<workgroup>> to memref<32x32xf32>
// CHECK-NEXT: gpu.thread_id
// CHECK-NEXT: arith.cmpi
// CHECK-NEXT: tile.barrier
// CHECK-NEXT: scf.if
// CHECK-NEXT:   memref.load %[[B]]
// CHECK-NEXT:   memref.store
// CHECK-NEXT: }
// CHECK-NEXT: }
func.func @epilogue_in_branch(%A: !G, %B: !G, %C: !V) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %s = tile.alloc_shared : !S
    tile.copy %A to %s : !G to !S
    tile.copy %s to %B : !S to !G
    %t = gpu.thread_id x
    %busy = arith.cmpi ult, %t, %c64 : index
    scf.if %busy {
      %v = memref.load %B[%c0, %t] : !G
      memref.store %v, %C[%t] : !V
    }
  }
  return
}

// A loop from the thread id by the block size over a row of what a tile
// copy wrote, in place: one barrier before it, none in the body (where a
// load and a store of one tensor would otherwise get one each).
// CHECK-LABEL: func.func @epilogue_loop
// CHECK:      tile.copy %{{.*}} to %[[B:.*]] : memref<32x32xf32, #gpu.address_space<workgroup>> to memref<32x32xf32>
// CHECK-NEXT: gpu.thread_id
// CHECK-NEXT: tile.barrier
// CHECK-NEXT: scf.for
// CHECK-NEXT:   memref.load %[[B]]
// CHECK-NEXT:   arith.maximumf
// CHECK-NEXT:   memref.store %{{.*}}, %[[B]]
// CHECK-NEXT: }
// CHECK-NEXT: }
func.func @epilogue_loop(%A: !G, %B: !G) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %c128 = arith.constant 128 : index
  %zero = arith.constant 0.0 : f32
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %s = tile.alloc_shared : !S
    tile.copy %A to %s : !G to !S
    tile.copy %s to %B : !S to !G
    %t = gpu.thread_id x
    scf.for %j = %t to %c32 step %c128 {
      %v = memref.load %B[%c0, %j] : !G
      %r = arith.maximumf %v, %zero : f32
      memref.store %r, %B[%c0, %j] : !G
    }
  }
  return
}

// Per-thread writes to a shared tile that a tile op then reads: the barrier
// goes after the loop that writes it, before the copy.
// CHECK-LABEL: func.func @scalar_writes_then_tile_op
// CHECK:      scf.for
// CHECK-NEXT:   memref.store
// CHECK-NEXT: }
// CHECK-NEXT: tile.barrier
// CHECK-NEXT: tile.copy
func.func @scalar_writes_then_tile_op(%B: !G) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %one = arith.constant 1.0 : f32
  tile.kernel grid(%c1) threads(32) as (%bx) {
    %s = tile.alloc_shared : !S
    %t = gpu.thread_id x
    scf.for %i = %c0 to %c32 step %c1 {
      memref.store %one, %s[%i, %t] : !S
    }
    tile.copy %s to %B : !S to !G
  }
  return
}

// Branches and loops that hold a tile op are followed inside as before: a
// block-wide branch (on the block index) gets its barrier next to the access.
// CHECK-LABEL: func.func @branch_with_tile_op
// CHECK:      scf.if
// CHECK-NEXT:   tile.copy %{{.*}} to %[[S:.*]] : memref<32x32xf32> to
// CHECK-NEXT:   tile.barrier
// CHECK-NEXT:   memref.load %[[S]]
func.func @branch_with_tile_op(%A: !G, %C: !V) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %s = tile.alloc_shared : !S
    %first = arith.cmpi eq, %bx, %c0 : index
    scf.if %first {
      tile.copy %A to %s : !G to !S
      %v = memref.load %s[%c0, %c0] : !S
      memref.store %v, %C[%c0] : !V
    }
  }
  return
}

// An exit ends a thread and touches no memory: no barrier around the branch
// that holds it.
// CHECK-LABEL: func.func @exit_after_tile_ops
// CHECK:      arith.cmpi
// CHECK-NEXT: scf.if
// CHECK-NEXT:   nvvm.exit
// CHECK-NEXT: }
// CHECK-NEXT: memref.load
func.func @exit_after_tile_ops(%A: !G, %B: !G, %C: !V) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %s = tile.alloc_shared : !S
    tile.copy %A to %s : !G to !S
    tile.copy %s to %B : !S to !G
    %t = gpu.thread_id x
    %idle = arith.cmpi uge, %t, %c64 : index
    scf.if %idle {
      nvvm.exit
    }
    %v = memref.load %A[%c0, %t] : !G
    memref.store %v, %C[%t] : !V
  }
  return
}

// An exit before per-thread code that reads what a tile op stored: the
// barrier that hands it over goes after the exit (a barrier waits for the
// threads that have not exited), and tile-to-ptx accepts it
// (test/Target/per-thread-epilogue.mlir).
// CHECK-LABEL: func.func @exit_then_read
// CHECK:      scf.if
// CHECK-NEXT:   nvvm.exit
// CHECK-NEXT: }
// CHECK-NEXT: tile.barrier
// CHECK-NEXT: memref.load
func.func @exit_then_read(%A: !G, %B: !G, %C: !V) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %s = tile.alloc_shared : !S
    tile.copy %A to %s : !G to !S
    tile.copy %s to %B : !S to !G
    %t = gpu.thread_id x
    %idle = arith.cmpi uge, %t, %c64 : index
    scf.if %idle {
      nvvm.exit
    }
    %v = memref.load %B[%c0, %t] : !G
    memref.store %v, %C[%t] : !V
  }
  return
}
