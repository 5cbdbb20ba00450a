// RUN: tile-opt --tile-pipeline-planning --split-input-file -verify-diagnostics %s

// Schedules whose 'order' runs a statement before one it depends on within
// the same stage, for each kind of dependence, and a dependence through
// memory that neither statement declares.

// A statement ordered before the one that computes a value it uses.
!A = memref<256x256xf16>
!As = memref<64x32xf16, #gpu.address_space<workgroup>>

func.func @order_against_value(%A: !A, %rows: memref<8xindex>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : !As
    tile.pipelined %c0 to %c8 step %c1 stage = [0, 0] order = [1, 0] as (%k) {
      // expected-note @+1 {{statement #0 ('memref.load', stage 0) computes it here}}
      %row = memref.load %rows[%k] : memref<8xindex>
      // expected-error @+1 {{'order' runs statement #1 ('tile.copy', stage 0) before statement #0 ('memref.load', stage 0) in the same stage, but it uses a value that statement #0 ('memref.load', stage 0) computes}}
      tile.copy %A[%row, %c0] to %A_s : !A to !As
    }
  }
  return
}

// -----

// A copy ordered before the gemm that reads the tile it overwrites.
!A = memref<256x256xf16>
!As = memref<64x32xf16, #gpu.address_space<workgroup>>
!Bs = memref<32x64xf16, #gpu.address_space<workgroup>>
!Cl = memref<64x64xf32, #gpu.address_space<private>>

func.func @order_against_read(%A: !A) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : !As
    %B_s = tile.alloc_shared : !Bs
    %C_l = tile.alloc_fragment : !Cl
    tile.pipelined %c0 to %c8 step %c1 stage = [0, 0] order = [1, 0] as (%k) {
      // expected-note @+1 {{statement #0 ('tile.gemm', stage 0) reads shared tile %0 (64x32xf16) here}}
      tile.gemm %A_s, %B_s, %C_l : !As, !Bs, !Cl
      // expected-error @+1 {{'order' runs statement #1 ('tile.copy', stage 0) before statement #0 ('tile.gemm', stage 0) in the same stage, but it overwrites shared tile %0 (64x32xf16) that statement #0 ('tile.gemm', stage 0) reads earlier in the same iteration}}
      tile.copy %A[%c0, %k] to %A_s : !A to !As
    }
  }
  return
}

// -----

// Two writes of one fragment swapped by 'order'.
!A = memref<256x256xf16>
!Af = memref<64x32xf16, #gpu.address_space<private>>

func.func @order_against_write(%A: !A) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_f = tile.alloc_fragment : !Af
    tile.pipelined %c0 to %c8 step %c1 stage = [0, 0] order = [1, 0] as (%k) {
      // expected-note @+1 {{statement #0 ('tile.clear', stage 0) writes fragment %0 (64x32xf16) here}}
      tile.clear %A_f : !Af
      // expected-error @+1 {{'order' runs statement #1 ('tile.copy', stage 0) before statement #0 ('tile.clear', stage 0) in the same stage, but it writes fragment %0 (64x32xf16) that statement #0 ('tile.clear', stage 0) writes earlier in the same iteration}}
      tile.copy %A[%c0, %k] to %A_f : !A to !Af
    }
  }
  return
}

// -----

// Two calls that declare no memory effects: each may read and write all
// memory. Planning refuses the loop before it looks at the schedule (the
// schedule's own error, that the second call cannot run a stage ahead of the
// first, is ScheduleVerifierTest's).
func.func private @opaque()

func.func @unknown_memory() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    tile.pipelined %c0 to %c8 step %c1 stage = [1, 0] as (%k) {
      // expected-error @+1 {{'func.call' op has unknown memory effects; the pipelining rewrite cannot tell which tiles it touches}}
      func.call @opaque() : () -> ()
      func.call @opaque() : () -> ()
    }
  }
  return
}

// -----

// A hand-given schedule that multi-buffers a tile one statement writes only
// part of (one element).
!A = memref<256x256xf16>
!Ss = memref<32x32xf16, #gpu.address_space<workgroup>>
!Cl = memref<32x32xf32, #gpu.address_space<private>>

func.func @partial_write(%A: !A, %v: f16) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : !Ss
    %C_l = tile.alloc_fragment : !Cl
    tile.pipelined %c0 to %c8 step %c1 stage = [0, 1] order = [0, 1] as (%k) {
      // expected-error @+1 {{statement #0 ('memref.store', stage 0) may not write all of shared tile %0 (32x32xf16) in every iteration (it writes a part, or writes under a condition), but the schedule splits the tile into 2 versions, one per iteration in flight, and the rest of each version would hold another iteration's data; write the whole tile (a tile.copy or tile.clear of all of it)}}
      memref.store %v, %A_s[%c0, %k] : !Ss
      // expected-note @+1 {{statement #1 ('tile.gemm', stage 1) reads shared tile %0 (32x32xf16) here}}
      tile.gemm %A_s, %A_s, %C_l : !Ss, !Ss, !Cl
    }
  }
  return
}

// -----

// A copy into a tile picked by arith.select: the rewrite cannot version it,
// so planning refuses the loop whatever its schedule (the schedule's own
// error, that such a tile aliases A_s, which the gemm reads a stage earlier,
// is ScheduleVerifierTest's).
!A = memref<256x256xf16>
!Ss = memref<32x32xf16, #gpu.address_space<workgroup>>
!Cl = memref<32x32xf32, #gpu.address_space<private>>

func.func @selected_tile(%A: !A, %p: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : !Ss
    %A2_s = tile.alloc_shared : !Ss
    %C_l = tile.alloc_fragment : !Cl
    // expected-note @+1 {{the pipelined loop is here}}
    tile.pipelined %c0 to %c8 step %c1 stage = [1, 0] order = [0, 1] as (%k) {
      %t = arith.select %p, %A_s, %A2_s : !Ss
      // expected-error @+1 {{'tile.copy' op uses a shared tile that is the result of 'arith.select', not of a 'tile.alloc_shared'; the pipelining rewrite cannot tell which tile it is or add its version dimension}}
      tile.copy %A[%c0, %k] to %t : !A to !Ss
      tile.gemm %A_s, %A_s, %C_l : !Ss, !Ss, !Cl
    }
  }
  return
}
