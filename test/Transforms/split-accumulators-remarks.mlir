// RUN: tile-opt %s --tile-split-accumulators=chip=sm_90 --split-input-file -verify-diagnostics

// Every accumulator too large for the registers gets a remark: how it is
// cut and where its parts run, or why it stays whole. Each kernel below has
// a 128x256 accumulator at 128 threads (256 registers; a thread has 255),
// or a 256x256 one (512).

!A = memref<1024x1024xf16>
!As = memref<128x32xf16, #gpu.address_space<workgroup>>
!Bs = memref<32x256xf16, #gpu.address_space<workgroup>>
!Cl = memref<128x256xf32, #gpu.address_space<private>>

func.func @split(%A: !A, %B: !A, %C: !A) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : !As
    %B_s = tile.alloc_shared : !Bs
    // expected-remark @+1 {{this 128x256 accumulator needs 256 registers per thread at 128 threads, and a GEMM about 32 more; sm_90 gives a thread 255; it is computed in 2 parts of 128x128, each in a block of its own}}
    %C_l = tile.alloc_fragment : !Cl
    tile.clear %C_l : !Cl
    tile.pipelined %c0 to %c8 step %c1 num_stages = 2 as (%k) {
      tile.copy %A[%c0, %k] to %A_s : !A to !As
      tile.copy %B[%k, %c0] to %B_s : !A to !Bs
      tile.gemm %A_s, %B_s, %C_l : !As, !Bs, !Cl
    }
    tile.copy %C_l to %C : !Cl to !A
  }
  return
}

// -----

!A = memref<1024x1024xf16>
!As = memref<128x32xf16, #gpu.address_space<workgroup>>
!Bs = memref<32x256xf16, #gpu.address_space<workgroup>>
!Cl = memref<128x256xf32, #gpu.address_space<private>>
!Cs = memref<128x256xf32, #gpu.address_space<workgroup>>

func.func @stored_into_shared(%A: !A, %B: !A) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : !As
    %B_s = tile.alloc_shared : !Bs
    %C_s = tile.alloc_shared : !Cs
    // expected-remark @+1 {{this 128x256 accumulator needs 256 registers per thread at 128 threads, and a GEMM about 32 more; sm_90 gives a thread 255; it stays whole and will spill, because 'tile.copy' uses it, and only a clear, GEMMs into it and stores of the whole tile into global memory can be split}}
    %C_l = tile.alloc_fragment : !Cl
    tile.clear %C_l : !Cl
    tile.copy %A to %A_s : !A to !As
    tile.copy %B to %B_s : !A to !Bs
    tile.gemm %A_s, %B_s, %C_l : !As, !Bs, !Cl
    tile.copy %C_l to %C_s : !Cl to !Cs
  }
  return
}

// -----

!A = memref<1024x1024xf16>
!As = memref<128x32xf16, #gpu.address_space<workgroup>>
!Bs = memref<32x256xf16, #gpu.address_space<workgroup>>
!Cl = memref<128x256xf32, #gpu.address_space<private>>

func.func @cleared_twice(%A: !A, %B: !A, %C: !A) {
  %c1 = arith.constant 1 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : !As
    %B_s = tile.alloc_shared : !Bs
    // expected-remark @+1 {{it stays whole and will spill, because it is cleared more than once}}
    %C_l = tile.alloc_fragment : !Cl
    tile.clear %C_l : !Cl
    tile.copy %A to %A_s : !A to !As
    tile.copy %B to %B_s : !A to !Bs
    tile.gemm %A_s, %B_s, %C_l : !As, !Bs, !Cl
    tile.copy %C_l to %C : !Cl to !A
    tile.clear %C_l : !Cl
  }
  return
}

// -----

!A = memref<1024x1024xf16>
!As = memref<128x32xf16, #gpu.address_space<workgroup>>
!Bs = memref<32x256xf16, #gpu.address_space<workgroup>>
!Cl = memref<128x256xf32, #gpu.address_space<private>>

func.func @not_cleared(%A: !A, %B: !A, %C: !A) {
  %c1 = arith.constant 1 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : !As
    %B_s = tile.alloc_shared : !Bs
    // expected-remark @+1 {{it stays whole and will spill, because it is not cleared, accumulated by tile.gemm and stored into global memory}}
    %C_l = tile.alloc_fragment : !Cl
    tile.copy %A to %A_s : !A to !As
    tile.copy %B to %B_s : !A to !Bs
    tile.gemm %A_s, %B_s, %C_l : !As, !Bs, !Cl
    tile.copy %C_l to %C : !Cl to !A
  }
  return
}

// -----

!A = memref<1024x1024xf16>
!As = memref<128x32xf16, #gpu.address_space<workgroup>>
!Bs = memref<32x256xf16, #gpu.address_space<workgroup>>
!Cl = memref<128x256xf32, #gpu.address_space<private>>

func.func @gemm_after_store(%A: !A, %B: !A, %C: !A) {
  %c1 = arith.constant 1 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : !As
    %B_s = tile.alloc_shared : !Bs
    // expected-remark @+1 {{it stays whole and will spill, because its GEMMs do not all run between its clear and its stores}}
    %C_l = tile.alloc_fragment : !Cl
    tile.clear %C_l : !Cl
    tile.copy %A to %A_s : !A to !As
    tile.copy %B to %B_s : !A to !Bs
    tile.copy %C_l to %C : !Cl to !A
    tile.gemm %A_s, %B_s, %C_l : !As, !Bs, !Cl
  }
  return
}

// -----

!A = memref<1024x1024xf16>
!Af = memref<128x32xf16, #gpu.address_space<private>>
!Bs = memref<32x256xf16, #gpu.address_space<workgroup>>
!Cl = memref<128x256xf32, #gpu.address_space<private>>

func.func @fragment_operand(%A: !A, %B: !A, %C: !A) {
  %c1 = arith.constant 1 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_f = tile.alloc_fragment : !Af
    %B_s = tile.alloc_shared : !Bs
    // expected-remark @+1 {{it stays whole and will spill, because a GEMM into it reads a tile that is not a shared tile allocated before its clear}}
    %C_l = tile.alloc_fragment : !Cl
    tile.clear %C_l : !Cl
    tile.copy %A to %A_f : !A to !Af
    tile.copy %B to %B_s : !A to !Bs
    tile.gemm %A_f, %B_s, %C_l : !Af, !Bs, !Cl
    tile.copy %C_l to %C : !Cl to !A
  }
  return
}

// -----

!A = memref<1024x1024xf16>
!Ts = memref<128x128xf16, #gpu.address_space<workgroup>>
!Cl = memref<128x128xf32, #gpu.address_space<private>>

func.func @two_roles(%A: !A, %C: !A) {
  %c1 = arith.constant 1 : index
  tile.kernel grid(%c1) threads(32) as (%bx) {
    %T_s = tile.alloc_shared : !Ts
    // expected-remark @+1 {{this 128x128 accumulator needs 512 registers per thread at 32 threads, and a GEMM about 32 more; sm_90 gives a thread 255; it stays whole and will spill, because a shared tile is read in two roles by its GEMMs}}
    %C_l = tile.alloc_fragment : !Cl
    tile.clear %C_l : !Cl
    tile.copy %A to %T_s : !A to !Ts
    tile.gemm %T_s, %T_s, %C_l : !Ts, !Ts, !Cl
    tile.copy %C_l to %C : !Cl to !A
  }
  return
}

// -----

!A = memref<1024x1024xf16>
!As = memref<128x32xf16, #gpu.address_space<workgroup>>
!Bs = memref<32x256xf16, #gpu.address_space<workgroup>>
!Cl = memref<128x256xf32, #gpu.address_space<private>>

func.func @tile_with_offsets(%A: !A, %B: !A, %C: !A) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : !As
    %B_s = tile.alloc_shared : !Bs
    // expected-remark @+1 {{it stays whole and will spill, because 'tile.copy' uses one of its GEMMs' shared tiles, which only whole-tile copies from global memory may fill}}
    %C_l = tile.alloc_fragment : !Cl
    tile.clear %C_l : !Cl
    tile.copy %A to %A_s : !A to !As
    tile.copy %B to %B_s[%c0, %c1] : !A to !Bs
    tile.gemm %A_s, %B_s, %C_l : !As, !Bs, !Cl
    tile.copy %C_l to %C : !Cl to !A
  }
  return
}

// -----

!A = memref<1024x1024xf16>
!As = memref<128x32xf16, #gpu.address_space<workgroup>>
!Bs = memref<32x256xf16, #gpu.address_space<workgroup>>
!Cl = memref<128x256xf32, #gpu.address_space<private>>

func.func @reads_its_output(%A: !A, %C: !A) {
  %c1 = arith.constant 1 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : !As
    %B_s = tile.alloc_shared : !Bs
    // expected-remark @+1 {{it stays whole and will spill, because the tensor it is stored into is also read into its GEMMs' tiles}}
    %C_l = tile.alloc_fragment : !Cl
    tile.clear %C_l : !Cl
    tile.copy %A to %A_s : !A to !As
    tile.copy %C to %B_s : !A to !Bs
    tile.gemm %A_s, %B_s, %C_l : !As, !Bs, !Cl
    tile.copy %C_l to %C : !Cl to !A
  }
  return
}

// -----

// The same through a view: the store goes to a memref.cast of the tensor
// the GEMM reads, one buffer all the same.

!A = memref<1024x1024xf16>
!As = memref<128x32xf16, #gpu.address_space<workgroup>>
!Bs = memref<32x256xf16, #gpu.address_space<workgroup>>
!Cl = memref<128x256xf32, #gpu.address_space<private>>

func.func @reads_its_output_through_a_view(%A: !A, %C: !A) {
  %c1 = arith.constant 1 : index
  %X = memref.cast %C : !A to memref<?x1024xf16>
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : !As
    %B_s = tile.alloc_shared : !Bs
    // expected-remark @+1 {{it stays whole and will spill, because the tensor it is stored into is also read into its GEMMs' tiles}}
    %C_l = tile.alloc_fragment : !Cl
    tile.clear %C_l : !Cl
    tile.copy %A to %A_s : !A to !As
    tile.copy %C to %B_s : !A to !Bs
    tile.gemm %A_s, %B_s, %C_l : !As, !Bs, !Cl
    tile.copy %C_l to %X : !Cl to memref<?x1024xf16>
  }
  return
}

// -----

// The tensor read and the tensor stored are one global, reached through two
// memref.get_global (they were taken for two buffers, and the parts in
// blocks of their own read what earlier parts stored).

!A = memref<1024x1024xf16>
!As = memref<128x32xf16, #gpu.address_space<workgroup>>
!Bs = memref<32x256xf16, #gpu.address_space<workgroup>>
!Cl = memref<128x256xf32, #gpu.address_space<private>>

memref.global "private" @X : memref<1024x1024xf16> = uninitialized

func.func @reads_its_output_through_a_global(%A: !A) {
  %c1 = arith.constant 1 : index
  %B = memref.get_global @X : !A
  %C = memref.get_global @X : !A
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : !As
    %B_s = tile.alloc_shared : !Bs
    // expected-remark @+1 {{it stays whole and will spill, because the tensor it is stored into is also read into its GEMMs' tiles}}
    %C_l = tile.alloc_fragment : !Cl
    tile.clear %C_l : !Cl
    tile.copy %A to %A_s : !A to !As
    tile.copy %B to %B_s : !A to !Bs
    tile.gemm %A_s, %B_s, %C_l : !As, !Bs, !Cl
    tile.copy %C_l to %C : !Cl to !A
  }
  return
}

// -----

!A = memref<1024x1024xf16>
!As = memref<128x32xf16, #gpu.address_space<workgroup>>
!Bs = memref<32x256xf16, #gpu.address_space<workgroup>>
!Cl = memref<128x256xf32, #gpu.address_space<private>>

func.func @other_effect(%A: !A, %B: !A, %C: !A, %flag: memref<1xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : !As
    %B_s = tile.alloc_shared : !Bs
    // expected-remark @+1 {{it stays whole and will spill, because 'memref.store' runs between its clear and its stores, and each part would repeat it}}
    %C_l = tile.alloc_fragment : !Cl
    tile.clear %C_l : !Cl
    memref.store %one, %flag[%c0] : memref<1xi32>
    tile.copy %A to %A_s : !A to !As
    tile.copy %B to %B_s : !A to !Bs
    tile.gemm %A_s, %B_s, %C_l : !As, !Bs, !Cl
    tile.copy %C_l to %C : !Cl to !A
  }
  return
}

// -----

!A = memref<1024x1024xf16>
!As = memref<128x32xf16, #gpu.address_space<workgroup>>
!Bs = memref<32x256xf16, #gpu.address_space<workgroup>>
!Cl = memref<128x256xf32, #gpu.address_space<private>>

func.func @value_used_after(%A: !A, %B: !A, %C: !A, %out: memref<1xindex>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : !As
    %B_s = tile.alloc_shared : !Bs
    // expected-remark @+1 {{it stays whole and will spill, because a value computed between its clear and its stores is used after them}}
    %C_l = tile.alloc_fragment : !Cl
    tile.clear %C_l : !Cl
    %steps = scf.for %k = %c0 to %c4 step %c1 iter_args(%n = %c0) -> (index) {
      tile.copy %A[%c0, %k] to %A_s : !A to !As
      tile.copy %B[%k, %c0] to %B_s : !A to !Bs
      tile.gemm %A_s, %B_s, %C_l : !As, !Bs, !Cl
      %next = arith.addi %n, %c1 : index
      scf.yield %next : index
    }
    tile.copy %C_l to %C : !Cl to !A
    memref.store %steps, %out[%c0] : memref<1xindex>
  }
  return
}

// -----

// 144x144 f32 at 32 threads is 648 registers; its halves, 72, are not
// multiples of 16.

!A = memref<1024x1024xf16>
!As = memref<144x16xf16, #gpu.address_space<workgroup>>
!Bs = memref<16x144xf16, #gpu.address_space<workgroup>>
!Cl = memref<144x144xf32, #gpu.address_space<private>>

func.func @no_part_fits(%A: !A, %B: !A, %C: !A) {
  %c1 = arith.constant 1 : index
  tile.kernel grid(%c1) threads(32) as (%bx) {
    %A_s = tile.alloc_shared : !As
    %B_s = tile.alloc_shared : !Bs
    // expected-remark @+1 {{this 144x144 accumulator needs 648 registers per thread at 32 threads, and a GEMM about 32 more; sm_90 gives a thread 255; it stays whole and will spill, because no part of at least 16 rows and columns fits}}
    %C_l = tile.alloc_fragment : !Cl
    tile.clear %C_l : !Cl
    tile.copy %A to %A_s : !A to !As
    tile.copy %B to %B_s : !A to !Bs
    tile.gemm %A_s, %B_s, %C_l : !As, !Bs, !Cl
    tile.copy %C_l to %C : !Cl to !A
  }
  return
}

// -----

// A grid of one dimension takes the parts of the rows and the columns.

!A = memref<1024x1024xf16>
!As = memref<256x32xf16, #gpu.address_space<workgroup>>
!Bs = memref<32x256xf16, #gpu.address_space<workgroup>>
!Cl = memref<256x256xf32, #gpu.address_space<private>>

func.func @one_grid_dimension(%A: !A, %B: !A, %C: !A) {
  %c1 = arith.constant 1 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : !As
    %B_s = tile.alloc_shared : !Bs
    // expected-remark @+1 {{it is computed in 4 parts of 128x128, each in a block of its own}}
    %C_l = tile.alloc_fragment : !Cl
    tile.clear %C_l : !Cl
    tile.copy %A to %A_s : !A to !As
    tile.copy %B to %B_s : !A to !Bs
    tile.gemm %A_s, %B_s, %C_l : !As, !Bs, !Cl
    tile.copy %C_l to %C : !Cl to !A
  }
  return
}

// -----

!A = memref<1024x1024xf16>
!As = memref<128x32xf16, #gpu.address_space<workgroup>>
!Bs = memref<32x256xf16, #gpu.address_space<workgroup>>
!Cl = memref<128x256xf32, #gpu.address_space<private>>

func.func @grid_known_at_run_time(%A: !A, %B: !A, %C: !A, %blocks: index) {
  tile.kernel grid(%blocks) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : !As
    %B_s = tile.alloc_shared : !Bs
    // expected-remark @+1 {{it is computed in 2 parts of 128x128, each in a block of its own}}
    %C_l = tile.alloc_fragment : !Cl
    tile.clear %C_l : !Cl
    tile.copy %A to %A_s : !A to !As
    tile.copy %B to %B_s : !A to !Bs
    tile.gemm %A_s, %B_s, %C_l : !As, !Bs, !Cl
    tile.copy %C_l to %C : !Cl to !A
  }
  return
}

// -----

// Something that writes memory before the clear or after the stores would
// run once per part in blocks, but once per block in a loop.

!A = memref<1024x1024xf16>
!As = memref<128x32xf16, #gpu.address_space<workgroup>>
!Bs = memref<32x256xf16, #gpu.address_space<workgroup>>
!Cl = memref<128x256xf32, #gpu.address_space<private>>

func.func @other_work(%A: !A, %B: !A, %C: !A, %count: memref<1xi32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : !As
    %B_s = tile.alloc_shared : !Bs
    // expected-remark @+1 {{it is computed in 2 parts of 128x128, one after another, each with its own reduction loop (not in blocks of their own: 'memref.atomic_rmw' runs outside its clear and stores, and each block would repeat it)}}
    %C_l = tile.alloc_fragment : !Cl
    tile.clear %C_l : !Cl
    tile.copy %A to %A_s : !A to !As
    tile.copy %B to %B_s : !A to !Bs
    tile.gemm %A_s, %B_s, %C_l : !As, !Bs, !Cl
    tile.copy %C_l to %C : !Cl to !A
    %old = memref.atomic_rmw addi %one, %count[%c0] : (i32, memref<1xi32>) -> i32
  }
  return
}

// -----

// Twice 40000 blocks in y is above CUDA's 65535: the rows' parts go along x.

!A = memref<1024x1024xf16>
!As = memref<256x32xf16, #gpu.address_space<workgroup>>
!Bs = memref<32x128xf16, #gpu.address_space<workgroup>>
!Cl = memref<256x128xf32, #gpu.address_space<private>>

func.func @rows_past_y_limit(%A: !A, %B: !A, %C: !A) {
  %c1 = arith.constant 1 : index
  %c40000 = arith.constant 40000 : index
  tile.kernel grid(%c1, %c40000) threads(128) as (%bx, %by) {
    %A_s = tile.alloc_shared : !As
    %B_s = tile.alloc_shared : !Bs
    // expected-remark @+1 {{it is computed in 2 parts of 128x128, each in a block of its own}}
    %C_l = tile.alloc_fragment : !Cl
    tile.clear %C_l : !Cl
    tile.copy %A to %A_s : !A to !As
    tile.copy %B to %B_s : !A to !Bs
    tile.gemm %A_s, %B_s, %C_l : !As, !Bs, !Cl
    tile.copy %C_l to %C : !Cl to !A
  }
  return
}

// -----

// Twice 1.5 billion blocks in x is above CUDA's 2^31 - 1.

!A = memref<1024x1024xf16>
!As = memref<128x32xf16, #gpu.address_space<workgroup>>
!Bs = memref<32x256xf16, #gpu.address_space<workgroup>>
!Cl = memref<128x256xf32, #gpu.address_space<private>>

func.func @grid_limit(%A: !A, %B: !A, %C: !A) {
  %blocks = arith.constant 1500000000 : index
  tile.kernel grid(%blocks) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : !As
    %B_s = tile.alloc_shared : !Bs
    // expected-remark @+1 {{it is computed in 2 parts of 128x128, one after another, each with its own reduction loop (not in blocks of their own: its grid would have 3000000000 blocks in x, above CUDA's limit of 2147483647)}}
    %C_l = tile.alloc_fragment : !Cl
    tile.clear %C_l : !Cl
    tile.copy %A to %A_s : !A to !As
    tile.copy %B to %B_s : !A to !Bs
    tile.gemm %A_s, %B_s, %C_l : !As, !Bs, !Cl
    tile.copy %C_l to %C : !Cl to !A
  }
  return
}

// -----

// A row offset computed in i32 that wraps to 0 (1 + 2^31 - 1 + 2^31 - 1 + 1
// for block 0): the bound analysis does not follow i32 sums past their
// range, so no part is taken to lie outside the tensor (one was, and its
// rows were never written). A 256x128 accumulator, cut along its rows.

!A = memref<1024x1024xf16>
!As = memref<256x32xf16, #gpu.address_space<workgroup>>
!Bs = memref<32x128xf16, #gpu.address_space<workgroup>>
!Cl = memref<256x128xf32, #gpu.address_space<private>>

func.func @row_in_wrapping_i32(%A: !A, %B: !A, %C: !A) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %big = arith.constant 2147483647 : i32
  %one = arith.constant 1 : i32
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : !As
    %B_s = tile.alloc_shared : !Bs
    %first = arith.cmpi eq, %bx, %c0 : index
    %e = arith.extui %first : i1 to i32
    %s1 = arith.addi %e, %big : i32
    %s2 = arith.addi %s1, %big : i32
    %s3 = arith.addi %s2, %one : i32
    %row = arith.index_cast %s3 : i32 to index
    // expected-remark @+1 {{it is computed in 2 parts of 128x128, each in a block of its own}}
    %C_l = tile.alloc_fragment : !Cl
    tile.clear %C_l : !Cl
    tile.copy %A[%row, %c0] to %A_s : !A to !As
    tile.copy %B to %B_s : !A to !Bs
    tile.gemm %A_s, %B_s, %C_l : !As, !Bs, !Cl
    tile.copy %C_l to %C[%row, %c0] : !Cl to !A
  }
  return
}

// -----

// The clear, the K loop and the store inside a loop over tiles (gemm.py
// --tiles-per-block): the parts are cut inside the loop, and as the loop
// writes nothing else, each part takes a block of its own.
!A = memref<1024x1024xf16>
!As = memref<128x32xf16, #gpu.address_space<workgroup>>
!Bs = memref<32x256xf16, #gpu.address_space<workgroup>>
!Cl = memref<128x256xf32, #gpu.address_space<private>>

func.func @in_tile_loop(%A: !A, %B: !A, %C: !A) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c256 = arith.constant 256 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : !As
    %B_s = tile.alloc_shared : !Bs
    // expected-remark @+1 {{this 128x256 accumulator needs 256 registers per thread at 128 threads, and a GEMM about 32 more; sm_90 gives a thread 255; it is computed in 2 parts of 128x128, each in a block of its own}}
    %C_l = tile.alloc_fragment : !Cl
    scf.for %t = %c0 to %c2 step %c1 {
      %col = arith.muli %t, %c256 : index
      tile.clear %C_l : !Cl
      tile.copy %A to %A_s : !A to !As
      tile.copy %B[%c0, %col] to %B_s : !A to !Bs
      tile.gemm %A_s, %B_s, %C_l : !As, !Bs, !Cl
      tile.copy %C_l to %C[%c0, %col] : !Cl to !A
    }
  }
  return
}

// -----

// A loop over tiles that also writes something else: a block per part would
// write it once per part, so the parts run one after another in the loop.
!A = memref<1024x1024xf16>
!As = memref<128x32xf16, #gpu.address_space<workgroup>>
!Bs = memref<32x256xf16, #gpu.address_space<workgroup>>
!Cl = memref<128x256xf32, #gpu.address_space<private>>

func.func @tile_loop_writes(%A: !A, %B: !A, %C: !A, %count: memref<2xindex>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c256 = arith.constant 256 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : !As
    %B_s = tile.alloc_shared : !Bs
    // expected-remark @+1 {{it is computed in 2 parts of 128x128, one after another, each with its own reduction loop (not in blocks of their own: 'memref.store' runs outside its clear and stores, and each block would repeat it)}}
    %C_l = tile.alloc_fragment : !Cl
    scf.for %t = %c0 to %c2 step %c1 {
      %col = arith.muli %t, %c256 : index
      tile.clear %C_l : !Cl
      tile.copy %A to %A_s : !A to !As
      tile.copy %B[%c0, %col] to %B_s : !A to !Bs
      tile.gemm %A_s, %B_s, %C_l : !As, !Bs, !Cl
      tile.copy %C_l to %C[%c0, %col] : !Cl to !A
      memref.store %t, %count[%t] : memref<2xindex>
    }
  }
  return
}

// -----

// In a branch: every block of a tile takes it or not alike, as its
// condition sees the tile's block index. Outside loops the store runs once,
// so its column need not be a multiple of the tile.
!A = memref<1024x1024xf16>
!As = memref<128x32xf16, #gpu.address_space<workgroup>>
!Bs = memref<32x256xf16, #gpu.address_space<workgroup>>
!Cl = memref<128x256xf32, #gpu.address_space<private>>

func.func @clear_in_if(%A: !A, %B: !A, %C: !A, %p: i1, %col: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : !As
    %B_s = tile.alloc_shared : !Bs
    // expected-remark @+1 {{it is computed in 2 parts of 128x128, each in a block of its own}}
    %C_l = tile.alloc_fragment : !Cl
    scf.if %p {
      tile.clear %C_l : !Cl
      tile.copy %A to %A_s : !A to !As
      tile.copy %B to %B_s : !A to !Bs
      tile.gemm %A_s, %B_s, %C_l : !As, !Bs, !Cl
      tile.copy %C_l to %C[%c0, %col] : !Cl to !A
    }
  }
  return
}

// -----

// An scf.parallel's iterations are not ones this pass takes apart.
!A = memref<1024x1024xf16>
!As = memref<128x32xf16, #gpu.address_space<workgroup>>
!Bs = memref<32x256xf16, #gpu.address_space<workgroup>>
!Cl = memref<128x256xf32, #gpu.address_space<private>>

func.func @clear_in_parallel(%A: !A, %B: !A, %C: !A) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : !As
    %B_s = tile.alloc_shared : !Bs
    // expected-remark @+1 {{it stays whole and will spill, because its clear is inside a 'scf.parallel', and only one in the kernel's body, or in 'scf.for', 'scf.while', 'scf.if' and 'scf.index_switch' ops there, can be split}}
    %C_l = tile.alloc_fragment : !Cl
    scf.parallel (%t) = (%c0) to (%c2) step (%c1) {
      tile.clear %C_l : !Cl
      tile.copy %A to %A_s : !A to !As
      tile.copy %B to %B_s : !A to !Bs
      tile.gemm %A_s, %B_s, %C_l : !As, !Bs, !Cl
      tile.copy %C_l to %C : !Cl to !A
    }
  }
  return
}

// -----

// Cleared in each iteration of a loop, stored after it: the store does not
// follow the clear in one block.
!A = memref<1024x1024xf16>
!As = memref<128x32xf16, #gpu.address_space<workgroup>>
!Bs = memref<32x256xf16, #gpu.address_space<workgroup>>
!Cl = memref<128x256xf32, #gpu.address_space<private>>

func.func @store_after_tile_loop(%A: !A, %B: !A, %C: !A) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : !As
    %B_s = tile.alloc_shared : !Bs
    // expected-remark @+1 {{it stays whole and will spill, because its 'tile.copy' is not in the block of its clear, and only stores beside the clear can be split}}
    %C_l = tile.alloc_fragment : !Cl
    scf.for %t = %c0 to %c2 step %c1 {
      tile.clear %C_l : !Cl
      tile.copy %A to %A_s : !A to !As
      tile.copy %B to %B_s : !A to !Bs
      tile.gemm %A_s, %B_s, %C_l : !As, !Bs, !Cl
    }
    tile.copy %C_l to %C : !Cl to !A
  }
  return
}

// -----

// Two stores into one tensor, 64 rows apart: the second overwrites half of
// the first. In parts, the first part's second store would come before the
// second part's first, which would overwrite it.
!A = memref<1024x1024xf16>
!As = memref<128x32xf16, #gpu.address_space<workgroup>>
!Bs = memref<32x256xf16, #gpu.address_space<workgroup>>
!Cl = memref<128x256xf32, #gpu.address_space<private>>

func.func @overlapping_stores(%A: !A, %B: !A, %C: !A) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : !As
    %B_s = tile.alloc_shared : !Bs
    // expected-remark @+1 {{it stays whole and will spill, because two of its stores may write overlapping regions of one tensor, whose order its parts would not keep}}
    %C_l = tile.alloc_fragment : !Cl
    tile.clear %C_l : !Cl
    tile.copy %A to %A_s : !A to !As
    tile.copy %B to %B_s : !A to !Bs
    tile.gemm %A_s, %B_s, %C_l : !As, !Bs, !Cl
    tile.copy %C_l to %C : !Cl to !A
    tile.copy %C_l to %C[%c64, %c0] : !Cl to !A
  }
  return
}

// -----

// Tiles 64 columns apart in a loop: each iteration's store overwrites part
// of the last one's. The parts keep that order one after another inside the
// loop, not in blocks of their own.
!A = memref<1024x1024xf16>
!As = memref<128x32xf16, #gpu.address_space<workgroup>>
!Bs = memref<32x256xf16, #gpu.address_space<workgroup>>
!Cl = memref<128x256xf32, #gpu.address_space<private>>

func.func @overlapping_tiles(%A: !A, %B: !A, %C: !A) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : !As
    %B_s = tile.alloc_shared : !Bs
    // expected-remark @+1 {{it is computed in 2 parts of 128x128, one after another, each with its own reduction loop (not in blocks of their own: its store in a loop may write tiles that overlap from one iteration to the next (its column is not known to be a multiple of 256), and blocks of their own would not keep their order)}}
    %C_l = tile.alloc_fragment : !Cl
    scf.for %t = %c0 to %c2 step %c1 {
      %col = arith.muli %t, %c64 : index
      tile.clear %C_l : !Cl
      tile.copy %A to %A_s : !A to !As
      tile.copy %B[%c0, %col] to %B_s : !A to !Bs
      tile.gemm %A_s, %B_s, %C_l : !As, !Bs, !Cl
      tile.copy %C_l to %C[%c0, %col] : !Cl to !A
    }
  }
  return
}

// -----

// Through a view that moves with the loop, the tile's place is the view's
// offset plus the store's index: the parts stay in a loop.
!A = memref<1024x1024xf16>
!As = memref<128x32xf16, #gpu.address_space<workgroup>>
!Bs = memref<32x256xf16, #gpu.address_space<workgroup>>
!Cl = memref<128x256xf32, #gpu.address_space<private>>

func.func @store_through_view(%A: !A, %B: !A, %C: !A) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c64 = arith.constant 64 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : !As
    %B_s = tile.alloc_shared : !Bs
    // expected-remark @+1 {{it is computed in 2 parts of 128x128, one after another, each with its own reduction loop (not in blocks of their own: its store in a loop may write tiles that overlap from one iteration to the next (it stores through a view of the tensor), and blocks of their own would not keep their order)}}
    %C_l = tile.alloc_fragment : !Cl
    scf.for %t = %c0 to %c2 step %c1 {
      %col = arith.muli %t, %c64 : index
      %Cv = memref.subview %C[0, %col] [128, 256] [1, 1] : !A to memref<128x256xf16, strided<[1024, 1], offset: ?>>
      tile.clear %C_l : !Cl
      tile.copy %A to %A_s : !A to !As
      tile.copy %B[%c0, %col] to %B_s : !A to !Bs
      tile.gemm %A_s, %B_s, %C_l : !As, !Bs, !Cl
      tile.copy %C_l to %Cv : !Cl to memref<128x256xf16, strided<[1024, 1], offset: ?>>
    }
  }
  return
}

// -----

// After tile-software-pipeline, a GEMM reads a version of a multi-buffered
// tile: the pass runs before the rewrite.
!A = memref<1024x1024xf16>
!As2 = memref<2x128x32xf16, #gpu.address_space<workgroup>>
!Av = memref<128x32xf16, strided<[32, 1]>, #gpu.address_space<workgroup>>
!Bs = memref<32x256xf16, #gpu.address_space<workgroup>>
!Cl = memref<128x256xf32, #gpu.address_space<private>>

func.func @multi_buffered_operand(%A: !A, %B: !A, %C: !A) {
  %c1 = arith.constant 1 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : !As2
    %B_s = tile.alloc_shared : !Bs
    // expected-remark @+1 {{it stays whole and will spill, because a GEMM into it reads a version of a multi-buffered tile (run tile-split-accumulators before tile-software-pipeline)}}
    %C_l = tile.alloc_fragment : !Cl
    tile.clear %C_l : !Cl
    %A_v = memref.subview %A_s[0, 0, 0] [1, 128, 32] [1, 1, 1] : !As2 to !Av
    tile.copy %A to %A_v : !A to !Av
    tile.copy %B to %B_s : !A to !Bs
    tile.gemm %A_v, %B_s, %C_l : !Av, !Bs, !Cl
    tile.copy %C_l to %C : !Cl to !A
  }
  return
}
