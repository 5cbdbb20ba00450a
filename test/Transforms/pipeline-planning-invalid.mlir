// RUN: tile-opt --tile-pipeline-planning --split-input-file -verify-diagnostics %s

// num_stages given next to stage must equal max(stage) + 1.
!A = memref<256x256xf16>
!B = memref<256x256xf16>
!As = memref<64x32xf16, #gpu.address_space<workgroup>>
!Bs = memref<32x64xf16, #gpu.address_space<workgroup>>
!Cl = memref<64x64xf32, #gpu.address_space<private>>
!Af = memref<64x32xf16, #gpu.address_space<private>>

func.func @depth_mismatch(%A: !A, %B: !B) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : !As
    %B_s = tile.alloc_shared : !Bs
    %C_l = tile.alloc_fragment : !Cl
    // expected-error @+1 {{'tile.pipelined' op num_stages = 3 but 'stage' gives depth 2 (max(stage) + 1); give one of them, or make them agree}}
    tile.pipelined %c0 to %c8 step %c1 num_stages = 3 stage = [0, 0, 1] as (%k) {
      %ko = arith.muli %k, %c32 : index
      tile.copy %A[%c0, %ko] to %A_s : !A to !As
      tile.copy %B[%ko, %c0] to %B_s : !B to !Bs
      tile.gemm %A_s, %B_s, %C_l : !As, !Bs, !Cl
    }
  }
  return
}

// -----

// A reader in an earlier stage than its writer.
!A = memref<256x256xf16>
!B = memref<256x256xf16>
!As = memref<64x32xf16, #gpu.address_space<workgroup>>
!Bs = memref<32x64xf16, #gpu.address_space<workgroup>>
!Cl = memref<64x64xf32, #gpu.address_space<private>>
!Af = memref<64x32xf16, #gpu.address_space<private>>

func.func @reader_before_writer(%A: !A, %B: !B) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : !As
    %B_s = tile.alloc_shared : !Bs
    %C_l = tile.alloc_fragment : !Cl
    tile.pipelined %c0 to %c8 step %c1 stage = [1, 0, 0] as (%k) {
      %ko = arith.muli %k, %c32 : index
      // expected-note @+1 {{statement #0 ('tile.copy', stage 1) writes shared tile %0 (64x32xf16) here}}
      tile.copy %A[%c0, %ko] to %A_s : !A to !As
      tile.copy %B[%ko, %c0] to %B_s : !B to !Bs
      // expected-error @+1 {{statement #2 ('tile.gemm', stage 0) reads shared tile %0 (64x32xf16) that statement #0 ('tile.copy', stage 1) writes, so it cannot run in an earlier stage}}
      tile.gemm %A_s, %B_s, %C_l : !As, !Bs, !Cl
    }
  }
  return
}

// -----

// Same stage, but order runs the reader first.
!A = memref<256x256xf16>
!B = memref<256x256xf16>
!As = memref<64x32xf16, #gpu.address_space<workgroup>>
!Bs = memref<32x64xf16, #gpu.address_space<workgroup>>
!Cl = memref<64x64xf32, #gpu.address_space<private>>
!Af = memref<64x32xf16, #gpu.address_space<private>>

func.func @order_against_dependence(%A: !A, %B: !B) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : !As
    %B_s = tile.alloc_shared : !Bs
    %C_l = tile.alloc_fragment : !Cl
    tile.pipelined %c0 to %c8 step %c1 stage = [0, 0, 0] order = [1, 2, 0] as (%k) {
      %ko = arith.muli %k, %c32 : index
      // expected-note @+1 {{statement #0 ('tile.copy', stage 0) writes shared tile %0 (64x32xf16) here}}
      tile.copy %A[%c0, %ko] to %A_s : !A to !As
      tile.copy %B[%ko, %c0] to %B_s : !B to !Bs
      // expected-error @+1 {{'order' runs statement #2 ('tile.gemm', stage 0) before statement #0 ('tile.copy', stage 0) in the same stage, but it reads shared tile %0 (64x32xf16)}}
      tile.gemm %A_s, %B_s, %C_l : !As, !Bs, !Cl
    }
  }
  return
}

// -----

// A statement whose result a copy uses, in a later stage than the copy.
!A = memref<256x256xf16>
!B = memref<256x256xf16>
!As = memref<64x32xf16, #gpu.address_space<workgroup>>
!Bs = memref<32x64xf16, #gpu.address_space<workgroup>>
!Cl = memref<64x64xf32, #gpu.address_space<private>>
!Af = memref<64x32xf16, #gpu.address_space<private>>

func.func @value_in_later_stage(%A: !A, %B: !B, %rows: memref<8xindex>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : !As
    %B_s = tile.alloc_shared : !Bs
    %C_l = tile.alloc_fragment : !Cl
    tile.pipelined %c0 to %c8 step %c1 stage = [1, 0, 0, 1] as (%k) {
      %ko = arith.muli %k, %c32 : index
      // expected-note @+1 {{statement #0 ('memref.load', stage 1) computes it here}}
      %row = memref.load %rows[%k] : memref<8xindex>
      // expected-error @+1 {{statement #1 ('tile.copy', stage 0) uses a value that statement #0 ('memref.load', stage 1) computes, so it cannot run in an earlier stage}}
      tile.copy %A[%row, %ko] to %A_s : !A to !As
      tile.copy %B[%ko, %c0] to %B_s : !B to !Bs
      tile.gemm %A_s, %B_s, %C_l : !As, !Bs, !Cl
    }
  }
  return
}

// -----

// TileLang issue 2668: the body reads A_s, then overwrites it for the next
// iteration; a stage-0 copy would clobber it before the read.
!A = memref<256x256xf16>
!B = memref<256x256xf16>
!As = memref<64x32xf16, #gpu.address_space<workgroup>>
!Bs = memref<32x64xf16, #gpu.address_space<workgroup>>
!Cl = memref<64x64xf32, #gpu.address_space<private>>
!Af = memref<64x32xf16, #gpu.address_space<private>>

func.func @write_after_read_2668(%A: !A, %B: !B) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : !As
    %B_s = tile.alloc_shared : !Bs
    %C_l = tile.alloc_fragment : !Cl
    tile.pipelined %c0 to %c8 step %c1 stage = [1, 0, 0] as (%k) {
      %ko = arith.muli %k, %c32 : index
      // expected-note @+1 {{statement #0 ('tile.gemm', stage 1) reads shared tile %0 (64x32xf16) here}}
      tile.gemm %A_s, %B_s, %C_l : !As, !Bs, !Cl
      // expected-error @+1 {{statement #1 ('tile.copy', stage 0) overwrites shared tile %0 (64x32xf16) that statement #0 ('tile.gemm', stage 1) reads earlier in the same iteration, so it cannot run in an earlier stage (the reader would see the next iteration's data: the write-after-read that TileLang issue 2668 miscompiles)}}
      tile.copy %A[%c0, %ko] to %A_s : !A to !As
      tile.copy %B[%ko, %c0] to %B_s : !B to !Bs
    }
  }
  return
}

// -----

// Two writes of one tile (here in the wrong stage order): the rewrite takes
// one writer per shared tile, so planning refuses the loop before it looks at
// the schedule, even with num_stages alone (the schedule's own error is
// ScheduleVerifierTest's).
!A = memref<256x256xf16>
!B = memref<256x256xf16>
!As = memref<64x32xf16, #gpu.address_space<workgroup>>
!Bs = memref<32x64xf16, #gpu.address_space<workgroup>>
!Cl = memref<64x64xf32, #gpu.address_space<private>>
!Af = memref<64x32xf16, #gpu.address_space<private>>

func.func @write_after_write(%A: !A, %B: !B) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : !As
    %B_s = tile.alloc_shared : !Bs
    %C_l = tile.alloc_fragment : !Cl
    tile.pipelined %c0 to %c8 step %c1 stage = [1, 0, 1] as (%k) {
      %ko = arith.muli %k, %c32 : index
      // expected-note @+1 {{the other writer is here}}
      tile.copy %A[%c0, %ko] to %A_s : !A to !As
      // expected-error @+1 {{'tile.copy' op writes a shared tile that another statement of the pipelined loop also writes; the rewrite supports one writer per shared tile}}
      tile.copy %A[%c32, %ko] to %A_s : !A to !As
      tile.gemm %A_s, %B_s, %C_l : !As, !Bs, !Cl
    }
  }
  return
}

// -----

// With num_stages alone, planning used to infer a schedule for two writers
// of A_s, which the rewrite then refused.
!A = memref<256x256xf16>
!B = memref<256x256xf16>
!As = memref<64x32xf16, #gpu.address_space<workgroup>>
!Bs = memref<32x64xf16, #gpu.address_space<workgroup>>
!Cl = memref<64x64xf32, #gpu.address_space<private>>

func.func @two_writers_inferred(%A: !A, %B: !B) {
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
      // expected-note @+1 {{the other writer is here}}
      tile.copy %A[%c0, %ko] to %A_s : !A to !As
      // expected-error @+1 {{'tile.copy' op writes a shared tile that another statement of the pipelined loop also writes}}
      tile.copy %A[%c32, %ko] to %A_s : !A to !As
      tile.copy %B[%ko, %c0] to %B_s : !B to !Bs
      tile.gemm %A_s, %B_s, %C_l : !As, !Bs, !Cl
    }
  }
  return
}

// -----

// Same-stage read-then-write is fine in one iteration, but a later stage
// reads A_s too: A_s gets 2 versions and the first gemm, which needs the
// previous iteration's data, would read its own iteration's version.
!A = memref<256x256xf16>
!B = memref<256x256xf16>
!As = memref<64x32xf16, #gpu.address_space<workgroup>>
!Bs = memref<32x64xf16, #gpu.address_space<workgroup>>
!Cl = memref<64x64xf32, #gpu.address_space<private>>
!Af = memref<64x32xf16, #gpu.address_space<private>>

func.func @read_before_write_multibuffered(%A: !A, %B: !B) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : !As
    %B_s = tile.alloc_shared : !Bs
    %C_l = tile.alloc_fragment : !Cl
    %C_2 = tile.alloc_fragment : !Cl
    tile.pipelined %c0 to %c8 step %c1 stage = [0, 0, 0, 1] as (%k) {
      %ko = arith.muli %k, %c32 : index
      // expected-error @+1 {{statement #0 ('tile.gemm', stage 0) reads shared tile %0 (64x32xf16) before statement #1 ('tile.copy', stage 0) overwrites it in the same iteration, so it needs the previous iteration's data; but the schedule splits the tile into 2 versions}}
      tile.gemm %A_s, %B_s, %C_l : !As, !Bs, !Cl
      // expected-note @+1 {{statement #1 ('tile.copy', stage 0) overwrites shared tile %0 (64x32xf16) here}}
      tile.copy %A[%c0, %ko] to %A_s : !A to !As
      tile.copy %B[%ko, %c0] to %B_s : !B to !Bs
      tile.gemm %A_s, %B_s, %C_2 : !As, !Bs, !Cl
    }
  }
  return
}

// -----

// A fragment has one version: the copy into A_f of iteration k+1 runs in the
// same time step as the gemm of iteration k, and order puts the copy first.
!A = memref<256x256xf16>
!B = memref<256x256xf16>
!As = memref<64x32xf16, #gpu.address_space<workgroup>>
!Bs = memref<32x64xf16, #gpu.address_space<workgroup>>
!Cl = memref<64x64xf32, #gpu.address_space<private>>
!Af = memref<64x32xf16, #gpu.address_space<private>>

func.func @fragment_overwritten_too_early(%A: !A, %B: !B) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : !As
    %B_s = tile.alloc_shared : !Bs
    %C_l = tile.alloc_fragment : !Cl
    %A_f = tile.alloc_fragment : !Af
    tile.pipelined %c0 to %c8 step %c1 stage = [0, 0, 1] order = [0, 1, 2] as (%k) {
      %ko = arith.muli %k, %c32 : index
      // expected-error @+1 {{statement #0 ('tile.copy', stage 0) of iteration k+1 runs before statement #2 ('tile.gemm', stage 1) of iteration k, but it overwrites fragment %3 (64x32xf16) that statement #2 ('tile.gemm', stage 1) still has to read}}
      tile.copy %A[%c0, %ko] to %A_f : !A to !Af
      tile.copy %B[%ko, %c0] to %B_s : !B to !Bs
      // expected-note @+1 {{statement #2 ('tile.gemm', stage 1) reads fragment %3 (64x32xf16) here}}
      tile.gemm %A_f, %B_s, %C_l : !Af, !Bs, !Cl
    }
  }
  return
}

// -----

// num_stages = 0 means serial; a stage list contradicts it.
!A = memref<256x256xf16>
!B = memref<256x256xf16>
!As = memref<64x32xf16, #gpu.address_space<workgroup>>
!Bs = memref<32x64xf16, #gpu.address_space<workgroup>>
!Cl = memref<64x64xf32, #gpu.address_space<private>>
!Af = memref<64x32xf16, #gpu.address_space<private>>

func.func @serial_with_stage(%A: !A, %B: !B) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : !As
    %B_s = tile.alloc_shared : !Bs
    %C_l = tile.alloc_fragment : !Cl
    // expected-error @+1 {{'tile.pipelined' op num_stages = 0 but 'stage' gives depth 1 (max(stage) + 1)}}
    tile.pipelined %c0 to %c8 step %c1 num_stages = 0 stage = [0, 0, 0] as (%k) {
      %ko = arith.muli %k, %c32 : index
      tile.copy %A[%c0, %ko] to %A_s : !A to !As
      tile.copy %B[%ko, %c0] to %B_s : !B to !Bs
      tile.gemm %A_s, %B_s, %C_l : !As, !Bs, !Cl
    }
  }
  return
}

// -----

// Each gemm reads the fragment A_f that the previous iteration's copy left
// (a dependence across iterations); putting the copy in a later stage makes
// the next gemm run first.
!A = memref<256x256xf16>
!B = memref<256x256xf16>
!Bs = memref<32x64xf16, #gpu.address_space<workgroup>>
!Cl = memref<64x64xf32, #gpu.address_space<private>>
!Af = memref<64x32xf16, #gpu.address_space<private>>

func.func @read_across_iterations(%A: !A, %B: !B) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_f = tile.alloc_fragment : !Af
    %B_s = tile.alloc_shared : !Bs
    %C_l = tile.alloc_fragment : !Cl
    tile.pipelined %c0 to %c8 step %c1 stage = [0, 1, 0] as (%k) {
      %ko = arith.muli %k, %c32 : index
      // expected-error @+1 {{statement #0 ('tile.gemm', stage 0) of iteration k+1 runs before statement #1 ('tile.copy', stage 1) of iteration k, but it reads fragment %0 (64x32xf16) that statement #1 ('tile.copy', stage 1) writes}}
      tile.gemm %A_f, %B_s, %C_l : !Af, !Bs, !Cl
      // expected-note @+1 {{statement #1 ('tile.copy', stage 1) writes fragment %0 (64x32xf16) here}}
      tile.copy %A[%c0, %ko] to %A_f : !A to !Af
      tile.copy %B[%ko, %c0] to %B_s : !B to !Bs
    }
  }
  return
}

// -----

// Two writes of one fragment: the later one in a later stage lets the next
// iteration's first write land before it.
!A = memref<256x256xf16>
!B = memref<256x256xf16>
!Bs = memref<32x64xf16, #gpu.address_space<workgroup>>
!Cl = memref<64x64xf32, #gpu.address_space<private>>
!Af = memref<64x32xf16, #gpu.address_space<private>>

func.func @write_across_iterations(%A: !A, %B: !B) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_f = tile.alloc_fragment : !Af
    %B_s = tile.alloc_shared : !Bs
    %C_l = tile.alloc_fragment : !Cl
    tile.pipelined %c0 to %c8 step %c1 stage = [0, 1, 1] as (%k) {
      %ko = arith.muli %k, %c32 : index
      // expected-error @+1 {{statement #0 ('tile.clear', stage 0) of iteration k+1 runs before statement #1 ('tile.copy', stage 1) of iteration k, but both write fragment %0 (64x32xf16), so the earlier iteration's write would land last}}
      tile.clear %A_f : !Af
      // expected-note @+1 {{statement #1 ('tile.copy', stage 1) writes fragment %0 (64x32xf16) here}}
      tile.copy %A[%c0, %ko] to %A_f : !A to !Af
      tile.gemm %A_f, %B_s, %C_l : !Af, !Bs, !Cl
    }
  }
  return
}

// -----

// A tile written in stages 0 and 2 and read in stage 1: two writers, which
// the rewrite does not take (the schedule's own error, that the copy of
// iteration k+2 would land before the clear of iteration k in the one
// version they share, is ScheduleVerifierTest's).
!A = memref<256x256xf16>
!As = memref<64x32xf16, #gpu.address_space<workgroup>>
!Bs = memref<32x64xf16, #gpu.address_space<workgroup>>
!Cl = memref<64x64xf32, #gpu.address_space<private>>

func.func @write_across_versions(%A: !A) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : !As
    %B_s = tile.alloc_shared : !Bs
    %C_l = tile.alloc_fragment : !Cl
    tile.pipelined %c0 to %c8 step %c1 stage = [0, 1, 2] as (%k) {
      %ko = arith.muli %k, %c32 : index
      // expected-note @+1 {{the other writer is here}}
      tile.copy %A[%c0, %ko] to %A_s : !A to !As
      tile.gemm %A_s, %B_s, %C_l : !As, !Bs, !Cl
      // expected-error @+1 {{'tile.clear' op writes a shared tile that another statement of the pipelined loop also writes}}
      tile.clear %A_s : !As
    }
  }
  return
}
