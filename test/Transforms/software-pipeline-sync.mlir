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

// A pipelined loop inside a serial loop: its prologue's copies into A_s
// overwrite what the previous trip's epilogue gemm read, in other threads,
// so the outer body ends with a barrier (the same tile.pipelined op again is
// not the same collective access, unlike a single copy).
// CHECK-LABEL: func.func @pipelined_in_loop
// CHECK:      scf.for
// CHECK:        tile.copy_async
// CHECK:        scf.for
// CHECK:        } {tile.steady_state = 2 : i64}
// CHECK:        tile.gemm
// CHECK-NEXT:   tile.wait_group 0
// CHECK-NEXT:   tile.barrier
// CHECK-NEXT: }
!As = memref<64x32xf16, #gpu.address_space<workgroup>>
!Bs = memref<32x64xf16, #gpu.address_space<workgroup>>
!Cl = memref<64x64xf32, #gpu.address_space<private>>
func.func @pipelined_in_loop(%A: !G, %B: !G) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c32 = arith.constant 32 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : !As
    %B_s = tile.alloc_shared : !Bs
    %C_l = tile.alloc_fragment : !Cl
    scf.for %r = %c0 to %c2 step %c1 {
      tile.pipelined %c0 to %c2 step %c1 stage = [0, 0, 1] order = [0, 1, 2] as (%k) {
        %ko = arith.muli %k, %c32 : index
        tile.copy %A[%c0, %ko] to %A_s : !G to !As
        tile.copy %B[%ko, %c0] to %B_s : !G to !Bs
        tile.gemm %A_s, %B_s, %C_l : !As, !Bs, !Cl
      }
    }
  }
  return
}

// A statement with regions: an scf.if that copies B's tile and runs the gemm
// that reads it gets a barrier between the two in every step the rewrite
// clones it into (the copy stays synchronous inside the statement).
// CHECK-LABEL: func.func @region_statement
// CHECK:       scf.for
// CHECK:         scf.if %{{.*}} {
// CHECK-NEXT:      tile.copy %{{.*}} to %[[BS:.*]] : memref<64x64xf16> to
// CHECK-NEXT:      tile.barrier
// CHECK-NEXT:      tile.gemm %{{.*}}, %[[BS]], %{{.*}} :
// CHECK:         } {tile.steady_state
// CHECK:         scf.if %{{.*}} {
// CHECK-NEXT:      tile.copy %{{.*}} to %[[BS]] : memref<64x64xf16> to
// CHECK-NEXT:      tile.barrier
// CHECK-NEXT:      tile.gemm %{{.*}}, %[[BS]], %{{.*}} :
// CHECK-NOT:   scf.if
// CHECK:       return
func.func @region_statement(%A: !G, %B: !G, %cond: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c32 = arith.constant 32 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : !As
    %B_s = tile.alloc_shared : !Bs
    %C_l = tile.alloc_fragment : !Cl
    tile.pipelined %c0 to %c2 step %c1 stage = [0, 1] order = [0, 1] as (%k) {
      %ko = arith.muli %k, %c32 : index
      tile.copy %A[%c0, %ko] to %A_s : !G to !As
      scf.if %cond {
        tile.copy %B[%ko, %c0] to %B_s : !G to !Bs
        tile.gemm %A_s, %B_s, %C_l : !As, !Bs, !Cl
      }
    }
  }
  return
}

// A tensor handed from one tile op to another: each spreads it over the
// threads its own way, so the read after the write needs a barrier, outside
// a pipelined loop and between its statements (the read-back copy stays
// synchronous: the loop writes the tensor it reads).
// CHECK-LABEL: func.func @global_hand_over
// CHECK:      tile.copy %{{.*}} to %[[T:.*]] : memref<16x16xf16, #gpu.address_space<private>> to memref<64x64xf16>
// CHECK-NEXT: tile.barrier
// CHECK-NEXT: tile.copy %[[T]] to %{{.*}} : memref<64x64xf16> to memref<16x16xf16, #gpu.address_space<workgroup>>
// CHECK:      scf.for
// CHECK:        tile.copy %{{.*}} to %[[T]][%{{.*}}] : memref<16x16xf16, #gpu.address_space<private>> to memref<64x64xf16>
// CHECK-NEXT:   tile.barrier
// CHECK-NEXT:   tile.copy %[[T]][%{{.*}}] to %{{.*}} : memref<64x64xf16> to
// CHECK:        tile.copy %{{.*}} to %{{.*}}[%{{.*}}] : memref<16x16xf16, #gpu.address_space<workgroup>> to memref<64x64xf16>
func.func @global_hand_over(%A: !G, %T: !G, %C: !G) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %S = tile.alloc_shared : !S
    %F = tile.alloc_fragment : !F
    tile.copy %A to %F : !G to !F
    tile.copy %F to %T : !F to !G
    tile.copy %T to %S : !G to !S
    tile.copy %S to %C : !S to !G
    tile.pipelined %c0 to %c4 step %c1 stage = [0, 0, 0, 0] as (%k) {
      %ko = arith.muli %k, %c16 : index
      tile.copy %A[%c0, %ko] to %F : !G to !F
      tile.copy %F to %T[%c0, %ko] : !F to !G
      tile.copy %T[%c0, %ko] to %S : !G to !S
      tile.copy %S to %C[%c0, %ko] : !S to !G
    }
  }
  return
}

// The body of an scf.while, whose control flow the placement does not
// follow: the read after the write gets its barrier, and the body ends with
// one, so the next trip's write waits for this trip's read.
// CHECK-LABEL: func.func @while_body
// CHECK:      scf.while
// CHECK-NOT:  tile.barrier
// CHECK:      } do {
// CHECK:        tile.copy %{{.*}} to %[[S:.*]] : memref<64x64xf16> to
// CHECK-NEXT:   tile.barrier
// CHECK-NEXT:   tile.copy %[[S]] to
// CHECK:        tile.barrier
// CHECK-NEXT:   scf.yield
func.func @while_body(%A: !G, %C: !G) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %S = tile.alloc_shared : !S
    %F = tile.alloc_fragment : !F
    %r = scf.while (%i = %c0) : (index) -> index {
      %go = arith.cmpi slt, %i, %c4 : index
      scf.condition(%go) %i : index
    } do {
    ^bb0(%j: index):
      tile.copy %A[%j, %c0] to %S : !G to !S
      tile.copy %S to %F : !S to !F
      tile.copy %F to %C[%j, %c0] : !F to !G
      %n = arith.addi %j, %c1 : index
      scf.yield %n : index
    }
  }
  return
}

// A shared tile that an scf.if yields is some tile the placement cannot
// name: it may be any of them, so the copy into it and the read of a part of
// it get a barrier in between.
// CHECK-LABEL: func.func @yielded_tile
// CHECK:      scf.if
// CHECK:      tile.copy %{{.*}} to %[[T:.*]] : memref<64x64xf16> to
// CHECK-NEXT: %[[V:.*]] = memref.subview %[[T]]
// CHECK-NEXT: tile.barrier
// CHECK-NEXT: tile.copy %[[V]] to
!S64 = memref<64x64xf16, #gpu.address_space<workgroup>>
func.func @yielded_tile(%A: !G, %C: memref<32x64xf16>, %first: i1) {
  %c1 = arith.constant 1 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %a = tile.alloc_shared : !S64
    %b = tile.alloc_shared : !S64
    %T = scf.if %first -> !S64 {
      scf.yield %a : !S64
    } else {
      scf.yield %b : !S64
    }
    tile.copy %A to %T : !G to !S64
    %V = memref.subview %T[32, 0] [32, 64] [1, 1] : !S64 to memref<32x64xf16, strided<[64, 1], offset: 2048>, #gpu.address_space<workgroup>>
    tile.copy %V to %C : memref<32x64xf16, strided<[64, 1], offset: 2048>, #gpu.address_space<workgroup>> to memref<32x64xf16>
  }
  return
}

// A statement that is a loop: the copies of the next trip overwrite what the
// gemm of this one read, so its body ends with a barrier too, in every step
// the rewrite clones it into. (Its body was scanned once, as straight-line
// code, and the barrier across the back edge was missing.)
// CHECK-LABEL: func.func @loop_statement
// CHECK:       scf.for
// CHECK:         tile.copy %{{.*}} to %[[AS:.*]] : memref<64x64xf16> to
// CHECK-NEXT:    tile.copy
// CHECK-NEXT:    tile.barrier
// CHECK-NEXT:    tile.gemm %[[AS]],
// CHECK-NEXT:    tile.barrier
// CHECK-NEXT:  }
func.func @loop_statement(%A: !G, %B: !G) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c32 = arith.constant 32 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : !As
    %B_s = tile.alloc_shared : !Bs
    %C_l = tile.alloc_fragment : !Cl
    tile.pipelined %c0 to %c2 step %c1 num_stages = 1 as (%k) {
      scf.for %j = %c0 to %c2 step %c1 {
        %ko = arith.muli %j, %c32 : index
        tile.copy %A[%c0, %ko] to %A_s : !G to !As
        tile.copy %B[%ko, %c0] to %B_s : !G to !Bs
        tile.gemm %A_s, %B_s, %C_l : !As, !Bs, !Cl
      }
    }
  }
  return
}

// The same copy again is the same threads on the same elements only at the
// same place. Here trip i copies the tile's extent (8x4) to row 4i, and
// writes rows 4..7 at positions 0..3 of its extent, which trip 0 wrote at
// positions 4..7, that is, in other threads: the trips need a barrier in
// between (there was none).
// CHECK-LABEL: func.func @moving_copy
// CHECK:       scf.for
// CHECK-NEXT:    arith.muli
// CHECK-NEXT:    tile.copy
// CHECK-NEXT:    tile.barrier
// CHECK-NEXT:  }
// And at a fixed place, none.
// CHECK:       scf.for
// CHECK-NEXT:    tile.copy
// CHECK-NEXT:  }
func.func @moving_copy(%G: memref<4x4xf32>, %H: memref<8x4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  tile.kernel grid(%c1) threads(32) as (%bx) {
    %S = tile.alloc_shared : memref<8x4xf32, #gpu.address_space<workgroup>>
    scf.for %i = %c0 to %c2 step %c1 {
      %o = arith.muli %i, %c4 : index
      tile.copy %G to %S[%o, %c0] : memref<4x4xf32> to memref<8x4xf32, #gpu.address_space<workgroup>>
    }
    scf.for %i = %c0 to %c2 step %c1 {
      tile.copy %G to %S[%c4, %c0] : memref<4x4xf32> to memref<8x4xf32, #gpu.address_space<workgroup>>
    }
    tile.copy %S to %H : memref<8x4xf32, #gpu.address_space<workgroup>> to memref<8x4xf32>
  }
  return
}
