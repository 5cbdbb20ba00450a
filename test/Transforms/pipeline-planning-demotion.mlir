// RUN: tile-opt --tile-pipeline-planning -verify-diagnostics %s | FileCheck %s

// Planning never hoists a copy whose hoisting would break a dependence
// (TileLang issue 2668 miscompiles these loops silently): the copy stays
// with the consumers and a warning says why.

!A = memref<256x256xf16>
!B = memref<256x256xf16>
!As = memref<64x32xf16, #gpu.address_space<workgroup>>
!Bs = memref<32x64xf16, #gpu.address_space<workgroup>>
!Cl = memref<64x64xf32, #gpu.address_space<private>>

// B is loaded after the gemm that reads it: the gemm of iteration k uses the
// B tile of iteration k-1. Only the copy of A is issued ahead.
// CHECK-LABEL: func.func @late_load
// CHECK: tile.pipelined {{.*}} num_stages = 3 stage = [0, 2, 2] order = [0, 1, 2]
func.func @late_load(%A: !A, %B: !B) {
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
      // expected-note @+1 {{statement #1 ('tile.gemm', stage 2) reads shared tile %1 (32x64xf16) here}}
      tile.gemm %A_s, %B_s, %C_l : !As, !Bs, !Cl
      // expected-warning @+1 {{this copy stays in the consumer stage instead of being issued ahead in stage 0: there, statement #2 ('tile.copy', stage 0) overwrites shared tile %1 (32x64xf16) that statement #1 ('tile.gemm', stage 2) reads earlier in the same iteration}}
      tile.copy %B[%ko, %c0] to %B_s : !B to !Bs
    }
  }
  return
}

// Both tiles are read before they are loaded: nothing can be issued ahead,
// so the loop keeps depth 1.
// CHECK-LABEL: func.func @read_then_load
// CHECK: tile.pipelined {{.*}} num_stages = 1 stage = [0, 0, 0] order = [0, 1, 2]
func.func @read_then_load(%A: !A, %B: !B) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : !As
    %B_s = tile.alloc_shared : !Bs
    %C_l = tile.alloc_fragment : !Cl
    // expected-warning @+1 {{num_stages = 2 finds nothing to overlap (no copy from global into shared memory can be issued ahead of its consumers); the loop runs with depth 1}}
    tile.pipelined %c0 to %c8 step %c1 num_stages = 2 as (%k) {
      %ko = arith.muli %k, %c32 : index
      // expected-note @+2 {{statement #0 ('tile.gemm', stage 1) reads shared tile %0 (64x32xf16) here}}
      // expected-note @+1 {{statement #0 ('tile.gemm', stage 1) reads shared tile %1 (32x64xf16) here}}
      tile.gemm %A_s, %B_s, %C_l : !As, !Bs, !Cl
      // expected-warning @+1 {{this copy stays in the consumer stage instead of being issued ahead in stage 0: there, statement #1 ('tile.copy', stage 0) overwrites shared tile %0 (64x32xf16) that statement #0 ('tile.gemm', stage 1) reads earlier in the same iteration}}
      tile.copy %A[%c0, %ko] to %A_s : !A to !As
      // expected-warning @+1 {{this copy stays in the consumer stage instead of being issued ahead in stage 0: there, statement #2 ('tile.copy', stage 0) overwrites shared tile %1 (32x64xf16) that statement #0 ('tile.gemm', stage 1) reads earlier in the same iteration}}
      tile.copy %B[%ko, %c0] to %B_s : !B to !Bs
    }
  }
  return
}

// A statement that writes the tensor a copy reads (here a store into A):
// issuing the next iteration's copy of A before it would read stale data, so
// that copy stays; the copy of B is still issued ahead. (An op that does not
// declare its effects, which may write any tensor, the rewrite refuses, so
// planning does as well: pipeline-planning-invalid-more.mlir.)
// CHECK-LABEL: func.func @store_into_source
// CHECK: tile.pipelined {{.*}} num_stages = 3 stage = [2, 0, 2, 2] order = [0, 1, 2, 3]
func.func @store_into_source(%A: !A, %B: !B) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %zero = arith.constant 0.0 : f16
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : !As
    %B_s = tile.alloc_shared : !Bs
    %C_l = tile.alloc_fragment : !Cl
    tile.pipelined %c0 to %c8 step %c1 num_stages = 3 as (%k) {
      %ko = arith.muli %k, %c32 : index
      // expected-warning @+1 {{this copy stays in the consumer stage instead of being issued ahead in stage 0: there, statement #0 ('tile.copy', stage 0) of iteration k+1 runs before statement #3 ('memref.store', stage 2) of iteration k, but it reads buffer %arg0 (256x256xf16) that statement #3 ('memref.store', stage 2) writes}}
      tile.copy %A[%c0, %ko] to %A_s : !A to !As
      tile.copy %B[%ko, %c0] to %B_s : !B to !Bs
      tile.gemm %A_s, %B_s, %C_l : !As, !Bs, !Cl
      // expected-note @+1 {{statement #3 ('memref.store', stage 2) writes buffer %arg0 (256x256xf16) here}}
      memref.store %zero, %A[%c0, %ko] : !A
    }
  }
  return
}

// A column index loaded in the loop feeds the copy of A and, after the gemm,
// a copy of the same A tile into a fragment. Issuing the copy of A ahead
// would take the load into stage 0 with it, while the last copy stays in
// the consumer stage: the rewrite carries values only within one stage. So
// the copy of A stays with its consumers and only B is issued ahead; the
// loop then passes the rewrite.
// CHECK-LABEL: func.func @value_across_stages
// CHECK: tile.pipelined {{.*}} num_stages = 3 stage = [2, 2, 0, 2, 2] order = [0, 1, 2, 3, 4]
!Af = memref<64x32xf16, #gpu.address_space<private>>
func.func @value_across_stages(%A: !A, %B: !B, %idx: memref<8xindex>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : !As
    %B_s = tile.alloc_shared : !Bs
    %C_l = tile.alloc_fragment : !Cl
    %A_f = tile.alloc_fragment : !Af
    tile.pipelined %c0 to %c8 step %c1 num_stages = 3 as (%k) {
      %ko = arith.muli %k, %c32 : index
      // expected-note @+1 {{statement #0 ('memref.load', stage 0) computes it here}}
      %r = memref.load %idx[%k] : memref<8xindex>
      // expected-warning @+1 {{this copy stays in the consumer stage instead of being issued ahead in stage 0: there, statement #4 ('tile.copy', stage 2) uses a value that statement #0 ('memref.load', stage 0) computes, and the pipelining rewrite carries values only within one stage}}
      tile.copy %A[%c0, %r] to %A_s : !A to !As
      tile.copy %B[%ko, %c0] to %B_s : !B to !Bs
      tile.gemm %A_s, %B_s, %C_l : !As, !Bs, !Cl
      tile.copy %A[%c0, %r] to %A_f : !A to !Af
    }
  }
  return
}

// A copy into part of A_s (columns 16..31, at a destination offset): with
// its own version per iteration in flight, the rest of each version would
// hold another iteration's data, so the copy stays with the gemm; B's copy
// is still issued ahead.
// CHECK-LABEL: func.func @partial_write
// CHECK: tile.pipelined {{.*}} num_stages = 3 stage = [2, 0, 2] order = [0, 1, 2]
func.func @partial_write(%A: !A, %B: !B) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : !As
    %B_s = tile.alloc_shared : !Bs
    %C_l = tile.alloc_fragment : !Cl
    tile.clear %A_s : !As
    tile.pipelined %c0 to %c8 step %c1 num_stages = 3 as (%k) {
      %ko = arith.muli %k, %c32 : index
      // expected-warning @+1 {{this copy stays in the consumer stage instead of being issued ahead in stage 0: there, statement #0 ('tile.copy', stage 0) may not write all of shared tile %0 (64x32xf16) in every iteration (it writes a part, or writes under a condition), but the schedule splits the tile into 3 versions, one per iteration in flight, and the rest of each version would hold another iteration's data; write the whole tile (a tile.copy or tile.clear of all of it)}}
      tile.copy %A[%c0, %ko] to %A_s[%c0, %c16] : !A to !As
      tile.copy %B[%ko, %c0] to %B_s : !B to !Bs
      // expected-note @+1 {{statement #2 ('tile.gemm', stage 2) reads shared tile %0 (64x32xf16) here}}
      tile.gemm %A_s, %B_s, %C_l : !As, !Bs, !Cl
    }
  }
  return
}

// A body without statements has nothing to overlap either.
// CHECK-LABEL: func.func @no_statements
// CHECK: tile.pipelined {{.*}} num_stages = 1 stage = [] order = []
func.func @no_statements() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    // expected-warning @+1 {{num_stages = 3 finds nothing to overlap (no copy from global into shared memory can be issued ahead of its consumers); the loop runs with depth 1}}
    tile.pipelined %c0 to %c8 step %c1 num_stages = 3 as (%k) {
      %ko = arith.muli %k, %c8 : index
    }
  }
  return
}
