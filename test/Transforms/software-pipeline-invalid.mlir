// RUN: tile-opt --tile-software-pipeline --split-input-file --verify-diagnostics %s

// Schedules that slipped past planning (hand-edited IR) are errors, not
// miscompiles.
// Planning has not run.

func.func @unplanned(%A: memref<64x64xf16>, %B: memref<64x64xf16>, %C: memref<64x64xf16>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : memref<16x16xf16, #gpu.address_space<workgroup>>
    %B_s = tile.alloc_shared : memref<16x16xf16, #gpu.address_space<workgroup>>
    %C_l = tile.alloc_fragment : memref<16x16xf32, #gpu.address_space<private>>
    // expected-error @+1 {{has num_stages = 3 but no 'stage' list: run --tile-pipeline-planning first}}
    tile.pipelined %c0 to %c4 step %c1 num_stages = 3 as (%k) {
      %ko = arith.muli %k, %c16 : index
      tile.copy %A[%c0, %ko] to %A_s : memref<64x64xf16> to memref<16x16xf16, #gpu.address_space<workgroup>>
      tile.copy %B[%ko, %c0] to %B_s : memref<64x64xf16> to memref<16x16xf16, #gpu.address_space<workgroup>>
      tile.gemm %A_s, %B_s, %C_l : memref<16x16xf16, #gpu.address_space<workgroup>>, memref<16x16xf16, #gpu.address_space<workgroup>>, memref<16x16xf32, #gpu.address_space<private>>
    }
  }
  return
}

// -----

// num_stages edited after planning.

func.func @depth_mismatch(%A: memref<64x64xf16>, %B: memref<64x64xf16>, %C: memref<64x64xf16>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : memref<16x16xf16, #gpu.address_space<workgroup>>
    %B_s = tile.alloc_shared : memref<16x16xf16, #gpu.address_space<workgroup>>
    %C_l = tile.alloc_fragment : memref<16x16xf32, #gpu.address_space<private>>
    // expected-error @+1 {{'tile.pipelined' op num_stages = 3 but 'stage' gives depth 2 (max(stage) + 1); give one of them, or make them agree}}
    tile.pipelined %c0 to %c4 step %c1 num_stages = 3 stage = [0, 0, 1] as (%k) {
      %ko = arith.muli %k, %c16 : index
      tile.copy %A[%c0, %ko] to %A_s : memref<64x64xf16> to memref<16x16xf16, #gpu.address_space<workgroup>>
      tile.copy %B[%ko, %c0] to %B_s : memref<64x64xf16> to memref<16x16xf16, #gpu.address_space<workgroup>>
      tile.gemm %A_s, %B_s, %C_l : memref<16x16xf16, #gpu.address_space<workgroup>>, memref<16x16xf16, #gpu.address_space<workgroup>>, memref<16x16xf32, #gpu.address_space<private>>
    }
  }
  return
}

// -----

// A non-positive step that only folds to a constant (a constant one is a
// verifier error).

func.func @zero_step(%A: memref<64x64xf16>, %B: memref<64x64xf16>, %C: memref<64x64xf16>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %zero = arith.subi %c1, %c1 : index
    %A_s = tile.alloc_shared : memref<16x16xf16, #gpu.address_space<workgroup>>
    %B_s = tile.alloc_shared : memref<16x16xf16, #gpu.address_space<workgroup>>
    %C_l = tile.alloc_fragment : memref<16x16xf32, #gpu.address_space<private>>
    // expected-error @+1 {{has step 0; the pipelining rewrite needs a positive step}}
    tile.pipelined %c0 to %c4 step %zero stage = [0, 0, 1] as (%k) {
      %ko = arith.muli %k, %c16 : index
      tile.copy %A[%c0, %ko] to %A_s : memref<64x64xf16> to memref<16x16xf16, #gpu.address_space<workgroup>>
      tile.copy %B[%ko, %c0] to %B_s : memref<64x64xf16> to memref<16x16xf16, #gpu.address_space<workgroup>>
      tile.gemm %A_s, %B_s, %C_l : memref<16x16xf16, #gpu.address_space<workgroup>>, memref<16x16xf16, #gpu.address_space<workgroup>>, memref<16x16xf32, #gpu.address_space<private>>
    }
  }
  return
}

// -----

// TileLang issue 2668: the gemm reads A_s before this iteration writes it, in
// a later stage than the copy (so the copy would overwrite it first).

func.func @read_before_write(%A: memref<64x64xf16>, %B: memref<64x64xf16>, %C: memref<64x64xf16>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : memref<16x16xf16, #gpu.address_space<workgroup>>
    %B_s = tile.alloc_shared : memref<16x16xf16, #gpu.address_space<workgroup>>
    %C_l = tile.alloc_fragment : memref<16x16xf32, #gpu.address_space<private>>
    tile.pipelined %c0 to %c4 step %c1 stage = [1, 0, 0] as (%k) {
      %ko = arith.muli %k, %c16 : index
      // expected-error @+1 {{reads a shared tile before the statement that writes it in the same iteration; the rewrite carries a shared tile across iterations only when the writer and all its readers share a stage and the reader stays ordered first}}
      tile.gemm %A_s, %A_s, %C_l : memref<16x16xf16, #gpu.address_space<workgroup>>, memref<16x16xf16, #gpu.address_space<workgroup>>, memref<16x16xf32, #gpu.address_space<private>>
      // expected-note @+1 {{the writer is here}}
      tile.copy %A[%c0, %ko] to %A_s : memref<64x64xf16> to memref<16x16xf16, #gpu.address_space<workgroup>>
      tile.copy %B[%ko, %c0] to %B_s : memref<64x64xf16> to memref<16x16xf16, #gpu.address_space<workgroup>>
    }
  }
  return
}

// -----

// The gemm runs in stage 0 but B_s is only written in stage 1.

func.func @reader_in_earlier_stage(%A: memref<64x64xf16>, %B: memref<64x64xf16>, %C: memref<64x64xf16>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : memref<16x16xf16, #gpu.address_space<workgroup>>
    %B_s = tile.alloc_shared : memref<16x16xf16, #gpu.address_space<workgroup>>
    %C_l = tile.alloc_fragment : memref<16x16xf32, #gpu.address_space<private>>
    tile.pipelined %c0 to %c4 step %c1 stage = [0, 1, 0] as (%k) {
      %ko = arith.muli %k, %c16 : index
      tile.copy %A[%c0, %ko] to %A_s : memref<64x64xf16> to memref<16x16xf16, #gpu.address_space<workgroup>>
      // expected-note @+1 {{the writer is here}}
      tile.copy %B[%ko, %c0] to %B_s : memref<64x64xf16> to memref<16x16xf16, #gpu.address_space<workgroup>>
      // expected-error @+1 {{runs in stage 0 but reads a shared tile written in the later stage 1}}
      tile.gemm %A_s, %B_s, %C_l : memref<16x16xf16, #gpu.address_space<workgroup>>, memref<16x16xf16, #gpu.address_space<workgroup>>, memref<16x16xf32, #gpu.address_space<private>>
    }
  }
  return
}

// -----

// Same stage, but the gemm is ordered before the copy it reads.

func.func @order_against_dependence(%A: memref<64x64xf16>, %B: memref<64x64xf16>, %C: memref<64x64xf16>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : memref<16x16xf16, #gpu.address_space<workgroup>>
    %B_s = tile.alloc_shared : memref<16x16xf16, #gpu.address_space<workgroup>>
    %C_l = tile.alloc_fragment : memref<16x16xf32, #gpu.address_space<private>>
    tile.pipelined %c0 to %c4 step %c1 num_stages = 1 stage = [0, 0, 0] order = [0, 2, 1] as (%k) {
      %ko = arith.muli %k, %c16 : index
      tile.copy %A[%c0, %ko] to %A_s : memref<64x64xf16> to memref<16x16xf16, #gpu.address_space<workgroup>>
      // expected-note @+1 {{the writer is here}}
      tile.copy %B[%ko, %c0] to %B_s : memref<64x64xf16> to memref<16x16xf16, #gpu.address_space<workgroup>>
      // expected-error @+1 {{is ordered before the statement of the same stage that writes the shared tile it reads}}
      tile.gemm %A_s, %B_s, %C_l : memref<16x16xf16, #gpu.address_space<workgroup>>, memref<16x16xf16, #gpu.address_space<workgroup>>, memref<16x16xf32, #gpu.address_space<private>>
    }
  }
  return
}

// -----

// Two copies write A_s.

func.func @two_writers(%A: memref<64x64xf16>, %B: memref<64x64xf16>, %C: memref<64x64xf16>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : memref<16x16xf16, #gpu.address_space<workgroup>>
    %B_s = tile.alloc_shared : memref<16x16xf16, #gpu.address_space<workgroup>>
    %C_l = tile.alloc_fragment : memref<16x16xf32, #gpu.address_space<private>>
    tile.pipelined %c0 to %c4 step %c1 stage = [0, 0, 1] as (%k) {
      %ko = arith.muli %k, %c16 : index
      // expected-note @+1 {{the other writer is here}}
      tile.copy %A[%c0, %ko] to %A_s : memref<64x64xf16> to memref<16x16xf16, #gpu.address_space<workgroup>>
      // expected-error @+1 {{writes a shared tile that another statement of the pipelined loop also writes; the rewrite supports one writer per shared tile}}
      tile.copy %B[%c0, %ko] to %A_s : memref<64x64xf16> to memref<16x16xf16, #gpu.address_space<workgroup>>
      tile.gemm %A_s, %A_s, %C_l : memref<16x16xf16, #gpu.address_space<workgroup>>, memref<16x16xf16, #gpu.address_space<workgroup>>, memref<16x16xf32, #gpu.address_space<private>>
    }
  }
  return
}

// -----

// A fragment handed from stage 0 to stage 1 would be overwritten by the
// next iteration before the gemm reads it: only shared tiles get versions.

func.func @fragment_across_stages(%A: memref<64x64xf16>, %B: memref<64x64xf16>, %C: memref<64x64xf16>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : memref<16x16xf16, #gpu.address_space<workgroup>>
    %B_s = tile.alloc_shared : memref<16x16xf16, #gpu.address_space<workgroup>>
    %C_l = tile.alloc_fragment : memref<16x16xf32, #gpu.address_space<private>>
    %F_l = tile.alloc_fragment : memref<16x16xf16, #gpu.address_space<private>>
    tile.pipelined %c0 to %c4 step %c1 stage = [0, 0, 1] as (%k) {
      %ko = arith.muli %k, %c16 : index
      tile.copy %A[%c0, %ko] to %A_s : memref<64x64xf16> to memref<16x16xf16, #gpu.address_space<workgroup>>
      // expected-note @+1 {{the writer is here}}
      tile.copy %B[%ko, %c0] to %F_l : memref<64x64xf16> to memref<16x16xf16, #gpu.address_space<private>>
      // expected-error @+1 {{runs in stage 1 but touches a non-shared buffer written in stage 0; only shared tiles are multi-buffered, keep both in one stage}}
      tile.gemm %A_s, %F_l, %C_l : memref<16x16xf16, #gpu.address_space<workgroup>>, memref<16x16xf16, #gpu.address_space<private>>, memref<16x16xf32, #gpu.address_space<private>>
    }
  }
  return
}

// -----

// An allocation inside the loop.

func.func @alloc_inside(%A: memref<64x64xf16>, %B: memref<64x64xf16>, %C: memref<64x64xf16>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : memref<16x16xf16, #gpu.address_space<workgroup>>
    %B_s = tile.alloc_shared : memref<16x16xf16, #gpu.address_space<workgroup>>
    %C_l = tile.alloc_fragment : memref<16x16xf32, #gpu.address_space<private>>
    tile.pipelined %c0 to %c4 step %c1 stage = [0, 0, 1, 1] as (%k) {
      %ko = arith.muli %k, %c16 : index
      // expected-error @+1 {{allocates inside a pipelined loop; allocate tiles before the loop}}
      %T = tile.alloc_shared : memref<16x16xf16, #gpu.address_space<workgroup>>
      tile.copy %A[%c0, %ko] to %A_s : memref<64x64xf16> to memref<16x16xf16, #gpu.address_space<workgroup>>
      tile.copy %B[%ko, %c0] to %B_s : memref<64x64xf16> to memref<16x16xf16, #gpu.address_space<workgroup>>
      tile.gemm %A_s, %B_s, %C_l : memref<16x16xf16, #gpu.address_space<workgroup>>, memref<16x16xf16, #gpu.address_space<workgroup>>, memref<16x16xf32, #gpu.address_space<private>>
    }
  }
  return
}

// -----

// A statement with regions is scheduled as a whole, but what it holds must
// be what the rewrite can move: no tile allocation, no op of the pipelined
// level (the rewrite places those itself), no op of unknown effects.

func.func @region_statement_allocates(%A: memref<64x64xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %true = arith.constant true
    tile.pipelined %c0 to %c4 step %c1 num_stages = 1 as (%k) {
      scf.if %true {
        // expected-error @+1 {{allocates inside a pipelined loop; allocate tiles before the loop}}
        %S = tile.alloc_shared : memref<16x16xf16, #gpu.address_space<workgroup>>
        tile.copy %A[%c0, %k] to %S : memref<64x64xf16> to memref<16x16xf16, #gpu.address_space<workgroup>>
      }
    }
  }
  return
}

// -----

func.func @region_statement_barrier(%A: memref<64x64xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : memref<16x16xf16, #gpu.address_space<workgroup>>
    %C_l = tile.alloc_fragment : memref<16x16xf32, #gpu.address_space<private>>
    %true = arith.constant true
    tile.pipelined %c0 to %c4 step %c1 num_stages = 1 as (%k) {
      tile.copy %A[%c0, %k] to %A_s : memref<64x64xf16> to memref<16x16xf16, #gpu.address_space<workgroup>>
      scf.if %true {
        // expected-error @+1 {{is inside a statement of a pipelined loop; the rewrite places these itself}}
        tile.barrier
        tile.gemm %A_s, %A_s, %C_l : memref<16x16xf16, #gpu.address_space<workgroup>>, memref<16x16xf16, #gpu.address_space<workgroup>>, memref<16x16xf32, #gpu.address_space<private>>
      }
    }
  }
  return
}

// -----

func.func @statement_barrier(%A: memref<64x64xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : memref<16x16xf16, #gpu.address_space<workgroup>>
    %C_l = tile.alloc_fragment : memref<16x16xf32, #gpu.address_space<private>>
    tile.pipelined %c0 to %c4 step %c1 num_stages = 1 as (%k) {
      tile.copy %A[%c0, %k] to %A_s : memref<64x64xf16> to memref<16x16xf16, #gpu.address_space<workgroup>>
      // expected-error @+1 {{'tile.barrier' op is a statement of a pipelined loop; the rewrite places these itself}}
      tile.barrier
      tile.gemm %A_s, %A_s, %C_l : memref<16x16xf16, #gpu.address_space<workgroup>>, memref<16x16xf16, #gpu.address_space<workgroup>>, memref<16x16xf32, #gpu.address_space<private>>
    }
  }
  return
}

// -----

// A multi-buffered tile written under a condition: in an odd iteration the
// gemm would read that iteration's version, which nothing wrote.
func.func @region_statement_writes_versioned_tile(%A: memref<64x64xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : memref<16x16xf16, #gpu.address_space<workgroup>>
    %C_l = tile.alloc_fragment : memref<16x16xf32, #gpu.address_space<private>>
    tile.pipelined %c0 to %c4 step %c1 stage = [0, 1] as (%k) {
      %p = arith.remui %k, %c2 : index
      %even = arith.cmpi eq, %p, %c0 : index
      // expected-error @+1 {{writes a shared tile that the pipelined loop multi-buffers from inside its regions, which may skip an iteration; write it with a statement of its own, or keep its readers in its stage}}
      scf.if %even {
        tile.copy %A[%c0, %k] to %A_s : memref<64x64xf16> to memref<16x16xf16, #gpu.address_space<workgroup>>
      }
      tile.gemm %A_s, %A_s, %C_l : memref<16x16xf16, #gpu.address_space<workgroup>>, memref<16x16xf16, #gpu.address_space<workgroup>>, memref<16x16xf32, #gpu.address_space<private>>
    }
  }
  return
}

// -----

// A value of stage 0 used inside the region of a stage-1 statement.
func.func @region_statement_uses_earlier_stage_value(%A: memref<64x64xf16>, %cell: memref<1xindex>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : memref<16x16xf16, #gpu.address_space<workgroup>>
    %C_l = tile.alloc_fragment : memref<16x16xf32, #gpu.address_space<private>>
    %true = arith.constant true
    tile.pipelined %c0 to %c4 step %c1 stage = [0, 1, 1] as (%k) {
      // expected-error @+1 {{has a result used by a statement of another stage or ordered before it; the pipelining rewrite carries values only within one stage}}
      %kl = memref.load %cell[%c0] : memref<1xindex>
      scf.if %true {
        // expected-note @+1 {{the user is here}}
        tile.copy %A[%c0, %kl] to %A_s : memref<64x64xf16> to memref<16x16xf16, #gpu.address_space<workgroup>>
      }
      tile.gemm %A_s, %A_s, %C_l : memref<16x16xf16, #gpu.address_space<workgroup>>, memref<16x16xf16, #gpu.address_space<workgroup>>, memref<16x16xf32, #gpu.address_space<private>>
    }
  }
  return
}

// -----

func.func private @opaque()

func.func @region_statement_unknown_effects(%A: memref<64x64xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : memref<16x16xf16, #gpu.address_space<workgroup>>
    %true = arith.constant true
    tile.pipelined %c0 to %c4 step %c1 num_stages = 1 as (%k) {
      tile.copy %A[%c0, %k] to %A_s : memref<64x64xf16> to memref<16x16xf16, #gpu.address_space<workgroup>>
      scf.if %true {
        // expected-error @+1 {{has unknown memory effects; the pipelining rewrite cannot tell which tiles it touches}}
        func.call @opaque() : () -> ()
      }
    }
  }
  return
}

// -----

// A value passed from one stage to the next.

func.func @value_between_statements(%A: memref<64x64xf16>, %B: memref<64x64xf16>, %C: memref<64x64xf16>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : memref<16x16xf16, #gpu.address_space<workgroup>>
    %B_s = tile.alloc_shared : memref<16x16xf16, #gpu.address_space<workgroup>>
    %C_l = tile.alloc_fragment : memref<16x16xf32, #gpu.address_space<private>>
    tile.pipelined %c0 to %c4 step %c1 stage = [0, 0, 1, 0, 1] as (%k) {
      %ko = arith.muli %k, %c16 : index
      tile.copy %A[%c0, %ko] to %A_s : memref<64x64xf16> to memref<16x16xf16, #gpu.address_space<workgroup>>
      tile.copy %B[%ko, %c0] to %B_s : memref<64x64xf16> to memref<16x16xf16, #gpu.address_space<workgroup>>
      tile.gemm %A_s, %B_s, %C_l : memref<16x16xf16, #gpu.address_space<workgroup>>, memref<16x16xf16, #gpu.address_space<workgroup>>, memref<16x16xf32, #gpu.address_space<private>>
      // expected-error @+1 {{has a result used by a statement of another stage or ordered before it; the pipelining rewrite carries values only within one stage}}
      %v = memref.load %A[%c0, %c0] : memref<64x64xf16>
      // expected-note @+1 {{the user is here}}
      memref.store %v, %C[%c0, %c0] : memref<64x64xf16>
    }
  }
  return
}

// -----

// A call has unknown memory effects.

func.func private @opaque()
func.func @call(%A: memref<64x64xf16>, %B: memref<64x64xf16>, %C: memref<64x64xf16>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : memref<16x16xf16, #gpu.address_space<workgroup>>
    %B_s = tile.alloc_shared : memref<16x16xf16, #gpu.address_space<workgroup>>
    %C_l = tile.alloc_fragment : memref<16x16xf32, #gpu.address_space<private>>
    tile.pipelined %c0 to %c4 step %c1 stage = [0, 0, 1, 1] as (%k) {
      %ko = arith.muli %k, %c16 : index
      tile.copy %A[%c0, %ko] to %A_s : memref<64x64xf16> to memref<16x16xf16, #gpu.address_space<workgroup>>
      tile.copy %B[%ko, %c0] to %B_s : memref<64x64xf16> to memref<16x16xf16, #gpu.address_space<workgroup>>
      tile.gemm %A_s, %B_s, %C_l : memref<16x16xf16, #gpu.address_space<workgroup>>, memref<16x16xf16, #gpu.address_space<workgroup>>, memref<16x16xf32, #gpu.address_space<private>>
      // expected-error @+1 {{has unknown memory effects; the pipelining rewrite cannot tell which tiles it touches}}
      func.call @opaque() : () -> ()
    }
  }
  return
}

// -----

// Two pipelined loops cannot share a multi-buffered tile.

func.func @two_loops(%A: memref<64x64xf16>, %B: memref<64x64xf16>, %C: memref<64x64xf16>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    // expected-note @+1 {{the tile is allocated here}}
    %A_s = tile.alloc_shared : memref<16x16xf16, #gpu.address_space<workgroup>>
    %B_s = tile.alloc_shared : memref<16x16xf16, #gpu.address_space<workgroup>>
    %C_l = tile.alloc_fragment : memref<16x16xf32, #gpu.address_space<private>>
    // expected-note @+1 {{the other loop is here}}
    tile.pipelined %c0 to %c4 step %c1 stage = [0, 0, 1] as (%k) {
      %ko = arith.muli %k, %c16 : index
      tile.copy %A[%c0, %ko] to %A_s : memref<64x64xf16> to memref<16x16xf16, #gpu.address_space<workgroup>>
      tile.copy %B[%ko, %c0] to %B_s : memref<64x64xf16> to memref<16x16xf16, #gpu.address_space<workgroup>>
      tile.gemm %A_s, %B_s, %C_l : memref<16x16xf16, #gpu.address_space<workgroup>>, memref<16x16xf16, #gpu.address_space<workgroup>>, memref<16x16xf32, #gpu.address_space<private>>
    }
    // expected-error @+1 {{multi-buffers a shared tile that another pipelined loop also multi-buffers; give each loop its own tiles}}
    tile.pipelined %c0 to %c4 step %c1 stage = [0, 0, 1] as (%k) {
      %ko = arith.muli %k, %c16 : index
      tile.copy %A[%c0, %ko] to %A_s : memref<64x64xf16> to memref<16x16xf16, #gpu.address_space<workgroup>>
      tile.copy %B[%ko, %c0] to %B_s : memref<64x64xf16> to memref<16x16xf16, #gpu.address_space<workgroup>>
      tile.gemm %A_s, %B_s, %C_l : memref<16x16xf16, #gpu.address_space<workgroup>>, memref<16x16xf16, #gpu.address_space<workgroup>>, memref<16x16xf32, #gpu.address_space<private>>
    }
  }
  return
}

// -----

// Within one stage, the gemm is ordered before the copy into the fragment it
// reads.
func.func @fragment_reordered(%A: memref<64x64xf16>, %B: memref<64x64xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : memref<16x16xf16, #gpu.address_space<workgroup>>
    %F_l = tile.alloc_fragment : memref<16x16xf16, #gpu.address_space<private>>
    %C_l = tile.alloc_fragment : memref<16x16xf32, #gpu.address_space<private>>
    tile.pipelined %c0 to %c4 step %c1 num_stages = 1 stage = [0, 0, 0] order = [0, 2, 1] as (%k) {
      tile.copy %A[%c0, %k] to %A_s : memref<64x64xf16> to memref<16x16xf16, #gpu.address_space<workgroup>>
      // expected-note @+1 {{the other statement is here}}
      tile.copy %B[%k, %c0] to %F_l : memref<64x64xf16> to memref<16x16xf16, #gpu.address_space<private>>
      // expected-error @+1 {{is reordered against a statement of the same stage it depends on through a non-shared buffer}}
      tile.gemm %A_s, %F_l, %C_l : memref<16x16xf16, #gpu.address_space<workgroup>>, memref<16x16xf16, #gpu.address_space<private>>, memref<16x16xf32, #gpu.address_space<private>>
    }
  }
  return
}

// -----

// A shared tile the rewrite cannot give a version dimension.
func.func @shared_argument(%A: memref<64x64xf16>, %A_s: memref<16x16xf16, #gpu.address_space<workgroup>>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %C_l = tile.alloc_fragment : memref<16x16xf32, #gpu.address_space<private>>
    // expected-note @+1 {{the pipelined loop is here}}
    tile.pipelined %c0 to %c4 step %c1 stage = [0, 1] as (%k) {
      // expected-error @+1 {{uses a shared tile that is a block argument, not of a 'tile.alloc_shared'; the pipelining rewrite cannot tell which tile it is or add its version dimension}}
      tile.copy %A[%c0, %k] to %A_s : memref<64x64xf16> to memref<16x16xf16, #gpu.address_space<workgroup>>
      tile.gemm %A_s, %A_s, %C_l : memref<16x16xf16, #gpu.address_space<workgroup>>, memref<16x16xf16, #gpu.address_space<workgroup>>, memref<16x16xf32, #gpu.address_space<private>>
    }
  }
  return
}

// -----

// A tile picked by arith.select could be either allocation.
func.func @selected_tile(%A: memref<64x64xf16>, %p: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : memref<16x16xf16, #gpu.address_space<workgroup>>
    %A2_s = tile.alloc_shared : memref<16x16xf16, #gpu.address_space<workgroup>>
    %C_l = tile.alloc_fragment : memref<16x16xf32, #gpu.address_space<private>>
    // expected-note @+1 {{the pipelined loop is here}}
    tile.pipelined %c0 to %c4 step %c1 stage = [0, 1] as (%k) {
      %t = arith.select %p, %A_s, %A2_s : memref<16x16xf16, #gpu.address_space<workgroup>>
      // expected-error @+1 {{uses a shared tile that is the result of 'arith.select', not of a 'tile.alloc_shared'}}
      tile.copy %A[%c0, %k] to %t : memref<64x64xf16> to memref<16x16xf16, #gpu.address_space<workgroup>>
      tile.gemm %t, %t, %C_l : memref<16x16xf16, #gpu.address_space<workgroup>>, memref<16x16xf16, #gpu.address_space<workgroup>>, memref<16x16xf32, #gpu.address_space<private>>
    }
  }
  return
}

// -----

// A read of A_s after the outer loop could see any iteration's version.
func.func @use_after_enclosing_loop(%A: memref<64x64xf16>, %C: memref<64x64xf16>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : memref<16x16xf16, #gpu.address_space<workgroup>>
    %C_l = tile.alloc_fragment : memref<16x16xf32, #gpu.address_space<private>>
    scf.for %i = %c0 to %n step %c1 {
      // expected-note @+1 {{the pipelined loop is here}}
      tile.pipelined %c0 to %c4 step %c1 stage = [0, 1] as (%k) {
        tile.copy %A[%i, %k] to %A_s : memref<64x64xf16> to memref<16x16xf16, #gpu.address_space<workgroup>>
        tile.gemm %A_s, %A_s, %C_l : memref<16x16xf16, #gpu.address_space<workgroup>>, memref<16x16xf16, #gpu.address_space<workgroup>>, memref<16x16xf32, #gpu.address_space<private>>
      }
    }
    // expected-error @+1 {{uses a shared tile that a pipelined loop multi-buffers, but outside the loop's block; the rewrite cannot tell which version it sees}}
    tile.copy %A_s to %C : memref<16x16xf16, #gpu.address_space<workgroup>> to memref<64x64xf16>
  }
  return
}

// -----

// A view made before the loop views version 0; read after the loop it would
// not see the last iteration's tile.
func.func @view_before_loop_read_after(%A: memref<64x64xf16>, %C: memref<64x64xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : memref<16x16xf16, #gpu.address_space<workgroup>>
    // expected-note @+1 {{the view is made here}}
    %A_v = memref.cast %A_s : memref<16x16xf16, #gpu.address_space<workgroup>> to memref<16x16xf16, #gpu.address_space<workgroup>>
    %C_l = tile.alloc_fragment : memref<16x16xf32, #gpu.address_space<private>>
    // expected-note @+1 {{the pipelined loop is here}}
    tile.pipelined %c0 to %c4 step %c1 stage = [0, 1] as (%k) {
      tile.copy %A[%c0, %k] to %A_s : memref<64x64xf16> to memref<16x16xf16, #gpu.address_space<workgroup>>
      tile.gemm %A_s, %A_s, %C_l : memref<16x16xf16, #gpu.address_space<workgroup>>, memref<16x16xf16, #gpu.address_space<workgroup>>, memref<16x16xf32, #gpu.address_space<private>>
    }
    // expected-error @+1 {{uses a shared tile that a pipelined loop multi-buffers after the loop, through a view made before it; such a view sees the first version, not the last iteration's: read the tile itself after the loop}}
    tile.copy %A_v to %C : memref<16x16xf16, #gpu.address_space<workgroup>> to memref<64x64xf16>
  }
  return
}

// -----

// A view made after the loop: the tile there is the last iteration's
// version, a subview at a dynamic offset, which the view's result type
// (offset 0) cannot describe.
func.func @view_after_loop(%A: memref<64x64xf16>, %C: memref<64x64xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : memref<16x16xf16, #gpu.address_space<workgroup>>
    %C_l = tile.alloc_fragment : memref<16x16xf32, #gpu.address_space<private>>
    // expected-note @+1 {{the pipelined loop is here}}
    tile.pipelined %c0 to %c4 step %c1 stage = [0, 1] as (%k) {
      tile.copy %A[%c0, %k] to %A_s : memref<64x64xf16> to memref<16x16xf16, #gpu.address_space<workgroup>>
      tile.gemm %A_s, %A_s, %C_l : memref<16x16xf16, #gpu.address_space<workgroup>>, memref<16x16xf16, #gpu.address_space<workgroup>>, memref<16x16xf32, #gpu.address_space<private>>
    }
    // expected-error @+1 {{makes a view of a shared tile that a pipelined loop multi-buffers, after the loop; there the tile is one of its versions, at an offset the view's type does not have: use the tile itself}}
    %v = memref.subview %A_s[0, 0] [8, 16] [1, 1] : memref<16x16xf16, #gpu.address_space<workgroup>> to memref<8x16xf16, strided<[16, 1]>, #gpu.address_space<workgroup>>
    tile.copy %v to %C : memref<8x16xf16, strided<[16, 1]>, #gpu.address_space<workgroup>> to memref<64x64xf16>
  }
  return
}

// -----

// Inside an outer loop, a read before the pipelined loop sees, from the
// second outer iteration on, the version the previous run ended on.
func.func @read_before_loop_in_outer_loop(%A: memref<64x64xf16>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : memref<16x16xf16, #gpu.address_space<workgroup>>
    %C_l = tile.alloc_fragment : memref<16x16xf32, #gpu.address_space<private>>
    // expected-note @+1 {{the enclosing loop is here}}
    scf.for %i = %c0 to %n step %c1 {
      // expected-error @+1 {{reads a shared tile that a pipelined loop multi-buffers before the loop, inside a loop that runs the pipelined loop again; from its second run on the read would see a version left by the run before, which the rewrite cannot name}}
      tile.gemm %A_s, %A_s, %C_l : memref<16x16xf16, #gpu.address_space<workgroup>>, memref<16x16xf16, #gpu.address_space<workgroup>>, memref<16x16xf32, #gpu.address_space<private>>
      // expected-note @+1 {{the pipelined loop is here}}
      tile.pipelined %c0 to %c3 step %c1 stage = [0, 1] as (%k) {
        tile.copy %A[%i, %k] to %A_s : memref<64x64xf16> to memref<16x16xf16, #gpu.address_space<workgroup>>
        tile.gemm %A_s, %A_s, %C_l : memref<16x16xf16, #gpu.address_space<workgroup>>, memref<16x16xf16, #gpu.address_space<workgroup>>, memref<16x16xf32, #gpu.address_space<private>>
      }
    }
  }
  return
}

// -----

// After a run of no iterations (the trip count %m may be 0), a read after
// the loop sees what the previous run left, not the version of iteration 0.
func.func @read_after_empty_run_in_outer_loop(%A: memref<64x64xf16>, %C: memref<64x64xf16>, %n: index, %m: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : memref<16x16xf16, #gpu.address_space<workgroup>>
    %C_l = tile.alloc_fragment : memref<16x16xf32, #gpu.address_space<private>>
    // expected-note @+1 {{the enclosing loop is here}}
    scf.for %i = %c0 to %n step %c1 {
      // expected-note @+1 {{the pipelined loop is here}}
      tile.pipelined %c0 to %m step %c1 stage = [0, 1] as (%k) {
        tile.copy %A[%i, %k] to %A_s : memref<64x64xf16> to memref<16x16xf16, #gpu.address_space<workgroup>>
        tile.gemm %A_s, %A_s, %C_l : memref<16x16xf16, #gpu.address_space<workgroup>>, memref<16x16xf16, #gpu.address_space<workgroup>>, memref<16x16xf32, #gpu.address_space<private>>
      }
      // expected-error @+1 {{reads a shared tile that a pipelined loop multi-buffers after the loop, inside a loop that runs the pipelined loop again; after a run of no iterations the read would see a version left by the run before, which the rewrite cannot name}}
      tile.copy %A_s to %C[%i, %c0] : memref<16x16xf16, #gpu.address_space<workgroup>> to memref<64x64xf16>
    }
  }
  return
}

// -----

// A value that would leave a guarded step as an scf.if result must have a
// zero the other branch can yield.
func.func @vector_between_statements(%A: memref<64x64xf16>, %C: memref<64x64xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    tile.pipelined %c0 to %c4 step %c1 num_stages = 1 as (%k) {
      // expected-error @+1 {{has a result of type 'vector<4xf16>'; the pipelining rewrite carries only integer, index and float results out of a statement (a guarded step yields them from its scf.if)}}
      %v = vector.load %A[%k, %c0] : memref<64x64xf16>, vector<4xf16>
      vector.store %v, %C[%k, %c0] : memref<64x64xf16>, vector<4xf16>
    }
  }
  return
}

// -----

// A statement that reaches a multi-buffered tile through a view: the rewrite
// would version the allocation but leave the view on one buffer, so the
// stage-0 copy of the next iteration would overwrite what the gemm reads.

func.func @through_subview(%A: memref<64x64xf16>, %B: memref<64x64xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : memref<16x32xf16, #gpu.address_space<workgroup>>
    %B_s = tile.alloc_shared : memref<16x16xf16, #gpu.address_space<workgroup>>
    %C_l = tile.alloc_fragment : memref<16x16xf32, #gpu.address_space<private>>
    %A_v = memref.subview %A_s[0, 0] [16, 16] [1, 1] : memref<16x32xf16, #gpu.address_space<workgroup>> to memref<16x16xf16, strided<[32, 1]>, #gpu.address_space<workgroup>>
    // expected-note @+1 {{the pipelined loop is here}}
    tile.pipelined %c0 to %c4 step %c1 stage = [0, 0, 1] as (%k) {
      %ko = arith.muli %k, %c16 : index
      // expected-error @+1 {{'tile.copy' op uses a shared tile that the pipelined loop multi-buffers through a view ('memref.subview'); the rewrite versions tiles that statements use directly}}
      tile.copy %A[%c0, %ko] to %A_v : memref<64x64xf16> to memref<16x16xf16, strided<[32, 1]>, #gpu.address_space<workgroup>>
      tile.copy %B[%ko, %c0] to %B_s : memref<64x64xf16> to memref<16x16xf16, #gpu.address_space<workgroup>>
      tile.gemm %A_v, %B_s, %C_l : memref<16x16xf16, strided<[32, 1]>, #gpu.address_space<workgroup>>, memref<16x16xf16, #gpu.address_space<workgroup>>, memref<16x16xf32, #gpu.address_space<private>>
    }
  }
  return
}

// -----

// The same through a cast made inside the loop, read by the gemm.

func.func @through_cast(%A: memref<64x64xf16>, %B: memref<64x64xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : memref<16x16xf16, #gpu.address_space<workgroup>>
    %B_s = tile.alloc_shared : memref<16x16xf16, #gpu.address_space<workgroup>>
    %C_l = tile.alloc_fragment : memref<16x16xf32, #gpu.address_space<private>>
    // expected-note @+1 {{the pipelined loop is here}}
    tile.pipelined %c0 to %c4 step %c1 stage = [0, 0, 1] as (%k) {
      %ko = arith.muli %k, %c16 : index
      tile.copy %A[%c0, %ko] to %A_s : memref<64x64xf16> to memref<16x16xf16, #gpu.address_space<workgroup>>
      tile.copy %B[%ko, %c0] to %B_s : memref<64x64xf16> to memref<16x16xf16, #gpu.address_space<workgroup>>
      %A_c = memref.cast %A_s : memref<16x16xf16, #gpu.address_space<workgroup>> to memref<16x16xf16, strided<[16, 1]>, #gpu.address_space<workgroup>>
      // expected-error @+1 {{'tile.gemm' op uses a shared tile that the pipelined loop multi-buffers through a view ('memref.cast'); the rewrite versions tiles that statements use directly}}
      tile.gemm %A_c, %B_s, %C_l : memref<16x16xf16, strided<[16, 1]>, #gpu.address_space<workgroup>>, memref<16x16xf16, #gpu.address_space<workgroup>>, memref<16x16xf32, #gpu.address_space<private>>
    }
  }
  return
}

// -----

// Three versions of a 2^31-byte tile are more than a tile may hold.
func.func @versions_too_large(%A: memref<65536x65536xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    // expected-note @+1 {{the tile is allocated here}}
    %A_s = tile.alloc_shared : memref<32768x32768xf16, #gpu.address_space<workgroup>>
    %F = tile.alloc_fragment : memref<16x16xf16, #gpu.address_space<private>>
    // expected-error @+1 {{'tile.pipelined' op needs 3 versions of a shared tile of 2147483648 bytes, more than a tile may hold (2^32 bytes)}}
    tile.pipelined %c0 to %c4 step %c1 stage = [0, 2] as (%k) {
      tile.copy %A to %A_s : memref<65536x65536xf16> to memref<32768x32768xf16, #gpu.address_space<workgroup>>
      tile.copy %A_s to %F : memref<32768x32768xf16, #gpu.address_space<workgroup>> to memref<16x16xf16, #gpu.address_space<private>>
    }
  }
  return
}

// -----

// A value that hands the tile on (a select, a branch's or a loop's result)
// is not a view: the rewrite would give it version 0 wherever it is read.
func.func @select_before_loop(%A: memref<64x64xf16>, %C: memref<64x64xf16>, %X_s: memref<16x16xf16, #gpu.address_space<workgroup>>, %cond: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : memref<16x16xf16, #gpu.address_space<workgroup>>
    // expected-error @+1 {{'arith.select' op hands on a shared tile that a pipelined loop multi-buffers, outside the loop; the rewrite gives each use of the tile one version and cannot follow the value this op makes: use the tile itself}}
    %sel = arith.select %cond, %A_s, %A_s : memref<16x16xf16, #gpu.address_space<workgroup>>
    %C_l = tile.alloc_fragment : memref<16x16xf32, #gpu.address_space<private>>
    // expected-note @+1 {{the pipelined loop is here}}
    tile.pipelined %c0 to %c4 step %c1 stage = [0, 1] as (%k) {
      tile.copy %A[%c0, %k] to %A_s : memref<64x64xf16> to memref<16x16xf16, #gpu.address_space<workgroup>>
      tile.gemm %A_s, %A_s, %C_l : memref<16x16xf16, #gpu.address_space<workgroup>>, memref<16x16xf16, #gpu.address_space<workgroup>>, memref<16x16xf32, #gpu.address_space<private>>
    }
    tile.copy %sel to %C : memref<16x16xf16, #gpu.address_space<workgroup>> to memref<64x64xf16>
  }
  return
}

// -----

func.func @yield_after_loop(%A: memref<64x64xf16>, %C: memref<64x64xf16>, %cond: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : memref<16x16xf16, #gpu.address_space<workgroup>>
    %B_s = tile.alloc_shared : memref<16x16xf16, #gpu.address_space<workgroup>>
    %C_l = tile.alloc_fragment : memref<16x16xf32, #gpu.address_space<private>>
    // expected-note @+1 {{the pipelined loop is here}}
    tile.pipelined %c0 to %c4 step %c1 stage = [0, 1] as (%k) {
      tile.copy %A[%c0, %k] to %A_s : memref<64x64xf16> to memref<16x16xf16, #gpu.address_space<workgroup>>
      tile.gemm %A_s, %A_s, %C_l : memref<16x16xf16, #gpu.address_space<workgroup>>, memref<16x16xf16, #gpu.address_space<workgroup>>, memref<16x16xf32, #gpu.address_space<private>>
    }
    %t = scf.if %cond -> memref<16x16xf16, #gpu.address_space<workgroup>> {
      // expected-error @+1 {{'scf.yield' op hands on a shared tile that a pipelined loop multi-buffers}}
      scf.yield %A_s : memref<16x16xf16, #gpu.address_space<workgroup>>
    } else {
      scf.yield %B_s : memref<16x16xf16, #gpu.address_space<workgroup>>
    }
    tile.copy %t to %C : memref<16x16xf16, #gpu.address_space<workgroup>> to memref<64x64xf16>
  }
  return
}

// -----

// Through a view: the loop's initial iteration value is a view of the tile.
func.func @view_into_iter_args(%A: memref<64x64xf16>, %C: memref<64x64xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : memref<16x16xf16, #gpu.address_space<workgroup>>
    // expected-note @+1 {{the view is made here}}
    %A_v = memref.cast %A_s : memref<16x16xf16, #gpu.address_space<workgroup>> to memref<16x16xf16, #gpu.address_space<workgroup>>
    %C_l = tile.alloc_fragment : memref<16x16xf32, #gpu.address_space<private>>
    // expected-note @+1 {{the pipelined loop is here}}
    tile.pipelined %c0 to %c4 step %c1 stage = [0, 1] as (%k) {
      tile.copy %A[%c0, %k] to %A_s : memref<64x64xf16> to memref<16x16xf16, #gpu.address_space<workgroup>>
      tile.gemm %A_s, %A_s, %C_l : memref<16x16xf16, #gpu.address_space<workgroup>>, memref<16x16xf16, #gpu.address_space<workgroup>>, memref<16x16xf32, #gpu.address_space<private>>
    }
    // expected-error @+1 {{'scf.for' op hands on a shared tile that a pipelined loop multi-buffers}}
    %r = scf.for %i = %c0 to %c1 step %c1 iter_args(%t = %A_v) -> memref<16x16xf16, #gpu.address_space<workgroup>> {
      tile.copy %t to %C : memref<16x16xf16, #gpu.address_space<workgroup>> to memref<64x64xf16>
      scf.yield %t : memref<16x16xf16, #gpu.address_space<workgroup>>
    }
  }
  return
}

// -----

// A call takes the tile as its callee's argument, whose type a version's
// would not match.
func.func private @reader(memref<16x16xf16, #gpu.address_space<workgroup>>)

func.func @call_after_loop(%A: memref<64x64xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : memref<16x16xf16, #gpu.address_space<workgroup>>
    %C_l = tile.alloc_fragment : memref<16x16xf32, #gpu.address_space<private>>
    // expected-note @+1 {{the pipelined loop is here}}
    tile.pipelined %c0 to %c4 step %c1 stage = [0, 1] as (%k) {
      tile.copy %A[%c0, %k] to %A_s : memref<64x64xf16> to memref<16x16xf16, #gpu.address_space<workgroup>>
      tile.gemm %A_s, %A_s, %C_l : memref<16x16xf16, #gpu.address_space<workgroup>>, memref<16x16xf16, #gpu.address_space<workgroup>>, memref<16x16xf32, #gpu.address_space<private>>
    }
    // expected-error @+1 {{'func.call' op hands on a shared tile that a pipelined loop multi-buffers}}
    func.call @reader(%A_s) : (memref<16x16xf16, #gpu.address_space<workgroup>>) -> ()
  }
  return
}

// -----

// The tile's address as a plain value: a version's aligned pointer leaves
// out its offset.
func.func @aligned_pointer_after_loop(%A: memref<64x64xf16>, %P: memref<1xindex>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : memref<16x16xf16, #gpu.address_space<workgroup>>
    %C_l = tile.alloc_fragment : memref<16x16xf32, #gpu.address_space<private>>
    // expected-note @+1 {{the pipelined loop is here}}
    tile.pipelined %c0 to %c4 step %c1 stage = [0, 1] as (%k) {
      tile.copy %A[%c0, %k] to %A_s : memref<64x64xf16> to memref<16x16xf16, #gpu.address_space<workgroup>>
      tile.gemm %A_s, %A_s, %C_l : memref<16x16xf16, #gpu.address_space<workgroup>>, memref<16x16xf16, #gpu.address_space<workgroup>>, memref<16x16xf32, #gpu.address_space<private>>
    }
    // expected-error @+1 {{'memref.extract_aligned_pointer_as_index' op hands on a shared tile that a pipelined loop multi-buffers}}
    %p = memref.extract_aligned_pointer_as_index %A_s : memref<16x16xf16, #gpu.address_space<workgroup>> -> index
    memref.store %p, %P[%c0] : memref<1xindex>
  }
  return
}
