// RUN: tile-opt %s --test-tile-lower-fragments=chip=sm_90a -split-input-file -verify-diagnostics -o /dev/null
// RUN: tile-opt %s --test-tile-lower-fragments=chip=sm_90a -split-input-file 2>/dev/null | FileCheck %s --check-prefix=CODE
// RUN: tile-opt %s --test-tile-lower-fragments=chip=sm_90 -split-input-file -o /dev/null 2>&1 | not grep "remark:"

// On sm_90a a kernel whose GEMMs cannot all use wgmma keeps mma.sync (or the
// FMA loop) and says why, at the op that keeps it: a remark, not an error,
// since the kernel is still correct. On sm_90 nothing is said (mma.sync is
// the only choice there); see fragment-gemm-wgmma.mlir for the code. The
// register cases really keep mma.sync, and the one that fits uses wgmma:
// CODE-LABEL: func.func @registers()
// CODE-NOT:   wgmma
// CODE:       nvgpu.mma.sync
// CODE-NOT:   wgmma
// CODE:       return
// CODE-LABEL: func.func @registers_spill()
// CODE-NOT:   wgmma
// CODE:       nvgpu.mma.sync
// CODE-NOT:   wgmma
// CODE:       return
// CODE-LABEL: func.func @registers_fit()
// CODE-NOT:   nvgpu.mma.sync
// CODE:       nvvm.wgmma.mma_async
// CODE-NOT:   nvgpu.mma.sync
// CODE:       return
// A cast of a whole tile (here to dynamic strides) is still that tile:
// wgmma, and no remark.
// CODE-LABEL: func.func @cast_operand()
// CODE-NOT:   nvgpu.mma.sync
// CODE:       nvvm.wgmma.mma_async
// CODE-NOT:   nvgpu.mma.sync
// CODE:       return
// CODE-LABEL: func.func @two_accumulators()
// CODE-NOT:   wgmma
// CODE:       nvgpu.mma.sync
// CODE-NOT:   wgmma
// CODE:       return
// CODE-LABEL: func.func @two_accumulators_fit()
// CODE-NOT:   nvgpu.mma.sync
// CODE:       nvvm.wgmma.mma_async
// CODE-NOT:   nvgpu.mma.sync
// CODE:       return
// CODE-LABEL: func.func @two_accumulators_in_two_loops(
// CODE-NOT:   wgmma
// CODE:       nvgpu.mma.sync
// CODE-NOT:   wgmma
// CODE:       return
// CODE-LABEL: func.func @two_accumulators_in_turn(
// CODE-NOT:   nvgpu.mma.sync
// CODE:       nvvm.wgmma.mma_async
// CODE-NOT:   nvgpu.mma.sync
// CODE:       return
// CODE-LABEL: func.func @fragment_without_layout(
// CODE-NOT:   wgmma
// CODE:       nvgpu.mma.sync
// CODE-NOT:   wgmma
// CODE:       return

func.func @f32_operands() {
  %c1 = arith.constant 1 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : memref<128x16xf32, #gpu.address_space<workgroup>>
    %B_s = tile.alloc_shared : memref<16x128xf32, #gpu.address_space<workgroup>>
    %C_l = tile.alloc_fragment : memref<128x128xf32, #gpu.address_space<private>>
    // expected-remark @+1 {{the kernel's GEMMs do not use wgmma on sm_90a: wgmma here takes f16 or bf16 operands of one type}}
    tile.gemm %A_s, %B_s, %C_l : memref<128x16xf32, #gpu.address_space<workgroup>>, memref<16x128xf32, #gpu.address_space<workgroup>>, memref<128x128xf32, #gpu.address_space<private>>
  }
  return
}

// -----

func.func @k8() {
  %c1 = arith.constant 1 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : memref<128x8xf16, #gpu.address_space<workgroup>>
    %B_s = tile.alloc_shared : memref<8x128xf16, #gpu.address_space<workgroup>>
    %C_l = tile.alloc_fragment : memref<128x128xf32, #gpu.address_space<private>>
    // expected-remark @+1 {{the kernel's GEMMs do not use wgmma on sm_90a: K is not a multiple of 16}}
    tile.gemm %A_s, %B_s, %C_l : memref<128x8xf16, #gpu.address_space<workgroup>>, memref<8x128xf16, #gpu.address_space<workgroup>>, memref<128x128xf32, #gpu.address_space<private>>
  }
  return
}

// -----

func.func @threads64() {
  %c1 = arith.constant 1 : index
  tile.kernel grid(%c1) threads(64) as (%bx) {
    %A_s = tile.alloc_shared : memref<128x32xf16, #gpu.address_space<workgroup>>
    %B_s = tile.alloc_shared : memref<32x128xf16, #gpu.address_space<workgroup>>
    // expected-remark @+1 {{the kernel's GEMMs do not use wgmma on sm_90a: wgmma needs a 2-D fragment and a multiple of 128 threads}}
    %C_l = tile.alloc_fragment : memref<128x128xf32, #gpu.address_space<private>>
    tile.gemm %A_s, %B_s, %C_l : memref<128x32xf16, #gpu.address_space<workgroup>>, memref<32x128xf16, #gpu.address_space<workgroup>>, memref<128x128xf32, #gpu.address_space<private>>
  }
  return
}

// -----

func.func @rows96() {
  %c1 = arith.constant 1 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : memref<96x32xf16, #gpu.address_space<workgroup>>
    %B_s = tile.alloc_shared : memref<32x64xf16, #gpu.address_space<workgroup>>
    // expected-remark @+1 {{no tiling of 1 warpgroup fits a 96x64 fragment: rows must split into multiples of 64}}
    %C_l = tile.alloc_fragment : memref<96x64xf32, #gpu.address_space<private>>
    tile.gemm %A_s, %B_s, %C_l : memref<96x32xf16, #gpu.address_space<workgroup>>, memref<32x64xf16, #gpu.address_space<workgroup>>, memref<96x64xf32, #gpu.address_space<private>>
  }
  return
}

// -----

// Two warpgroups on 64x64 with B stored [K][N]: each group's 32 columns are
// half of B's one 128-byte panel.
func.func @split_panel() {
  %c1 = arith.constant 1 : index
  tile.kernel grid(%c1) threads(256) as (%bx) {
    %A_s = tile.alloc_shared : memref<64x32xf16, #gpu.address_space<workgroup>>
    %B_s = tile.alloc_shared : memref<32x64xf16, #gpu.address_space<workgroup>>
    %C_l = tile.alloc_fragment : memref<64x64xf32, #gpu.address_space<private>>
    // expected-remark @+1 {{a warpgroup's columns of an operand are not whole 128-byte panels}}
    tile.gemm %A_s, %B_s, %C_l : memref<64x32xf16, #gpu.address_space<workgroup>>, memref<32x64xf16, #gpu.address_space<workgroup>>, memref<64x64xf32, #gpu.address_space<private>>
  }
  return
}

// -----

// 512 threads leave a thread 128 registers (64K per block), and a warpgroup's
// m64n256k16 needs its 128 accumulators and more: ptxas would refuse the
// kernel, while mma.sync spills and runs.
func.func @registers() {
  %c1 = arith.constant 1 : index
  tile.kernel grid(%c1) threads(512) as (%bx) {
    %A_s = tile.alloc_shared : memref<256x16xf16, #gpu.address_space<workgroup>>
    %B_s = tile.alloc_shared : memref<16x256xf16, #gpu.address_space<workgroup>>
    %C_l = tile.alloc_fragment : memref<256x256xf32, #gpu.address_space<private>>
    // expected-remark @+1 {{the kernel's GEMMs do not use wgmma on sm_90a: the accumulator needs 128 registers per thread and wgmma about 32 more, but a thread of this block has 128}}
    tile.gemm %A_s, %B_s, %C_l : memref<256x16xf16, #gpu.address_space<workgroup>>, memref<16x256xf16, #gpu.address_space<workgroup>>, memref<256x256xf32, #gpu.address_space<private>>
  }
  return
}

// -----

// One warpgroup on 128x256: 256 accumulator registers per thread, more than a
// thread has. wgmma would spill accumulators between groups (slower than
// mma.sync; docs/performance.md, "What the random sweeps found"), so the
// kernel keeps mma.sync.
func.func @registers_spill() {
  %c1 = arith.constant 1 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : memref<128x16xf16, #gpu.address_space<workgroup>>
    %B_s = tile.alloc_shared : memref<16x256xf16, #gpu.address_space<workgroup>>
    %C_l = tile.alloc_fragment : memref<128x256xf32, #gpu.address_space<private>>
    // expected-remark @+1 {{the kernel's GEMMs do not use wgmma on sm_90a: the accumulator needs 256 registers per thread and wgmma about 32 more, but a thread of this block has 255}}
    tile.gemm %A_s, %B_s, %C_l : memref<128x16xf16, #gpu.address_space<workgroup>>, memref<16x256xf16, #gpu.address_space<workgroup>>, memref<128x256xf32, #gpu.address_space<private>>
  }
  return
}

// -----

// The same tile at 256 threads: two warpgroups, 128 accumulator registers
// each, in a thread's 255.
func.func @registers_fit() {
  %c1 = arith.constant 1 : index
  tile.kernel grid(%c1) threads(256) as (%bx) {
    %A_s = tile.alloc_shared : memref<128x16xf16, #gpu.address_space<workgroup>>
    %B_s = tile.alloc_shared : memref<16x256xf16, #gpu.address_space<workgroup>>
    %C_l = tile.alloc_fragment : memref<128x256xf32, #gpu.address_space<private>>
    tile.gemm %A_s, %B_s, %C_l : memref<128x16xf16, #gpu.address_space<workgroup>>, memref<16x256xf16, #gpu.address_space<workgroup>>, memref<128x256xf32, #gpu.address_space<private>>
  }
  return
}

// -----

// A kernel without GEMMs has nothing to say.
func.func @no_gemm(%C: memref<128x128xf16>) {
  %c1 = arith.constant 1 : index
  tile.kernel grid(%c1) threads(64) as (%bx) {
    %C_l = tile.alloc_fragment : memref<128x128xf32, #gpu.address_space<private>>
    tile.clear %C_l : memref<128x128xf32, #gpu.address_space<private>>
    tile.copy %C_l to %C : memref<128x128xf32, #gpu.address_space<private>> to memref<128x128xf16>
  }
  return
}

// -----

// B is 32x192 f16: 384-byte rows, which the shared layout keeps whole (not
// in 128-byte panels), and wgmma's descriptors describe 32, 64 or 128-byte
// rows.
func.func @rows384() {
  %c1 = arith.constant 1 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : memref<128x32xf16, #gpu.address_space<workgroup>>
    %B_s = tile.alloc_shared : memref<32x192xf16, #gpu.address_space<workgroup>>
    %C_l = tile.alloc_fragment : memref<128x192xf32, #gpu.address_space<private>>
    // expected-remark @+1 {{the kernel's GEMMs do not use wgmma on sm_90a: an operand's rows are neither 32 or 64 bytes nor laid out in 128-byte panels}}
    tile.gemm %A_s, %B_s, %C_l : memref<128x32xf16, #gpu.address_space<workgroup>>, memref<32x192xf16, #gpu.address_space<workgroup>>, memref<128x192xf32, #gpu.address_space<private>>
  }
  return
}

// -----

func.func @cast_operand() {
  %c1 = arith.constant 1 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : memref<128x32xf16, #gpu.address_space<workgroup>>
    %B_s = tile.alloc_shared : memref<32x128xf16, #gpu.address_space<workgroup>>
    %C_l = tile.alloc_fragment : memref<128x128xf32, #gpu.address_space<private>>
    %A_c = memref.cast %A_s : memref<128x32xf16, #gpu.address_space<workgroup>> to memref<128x32xf16, strided<[?, ?], offset: ?>, #gpu.address_space<workgroup>>
    tile.gemm %A_c, %B_s, %C_l : memref<128x32xf16, strided<[?, ?], offset: ?>, #gpu.address_space<workgroup>>, memref<32x128xf16, #gpu.address_space<workgroup>>, memref<128x128xf32, #gpu.address_space<private>>
  }
  return
}

// -----

// Two 128x128 accumulators that one loop updates are live together: 256
// registers per thread at 128 threads. Each alone fits, and the kernel used
// wgmma, which ptxas then serialized for want of registers (C7511), spilling
// 6796 B.
func.func @two_accumulators() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : memref<128x16xf16, #gpu.address_space<workgroup>>
    %B_s = tile.alloc_shared : memref<16x128xf16, #gpu.address_space<workgroup>>
    %C_l = tile.alloc_fragment : memref<128x128xf32, #gpu.address_space<private>>
    %D_l = tile.alloc_fragment : memref<128x128xf32, #gpu.address_space<private>>
    scf.for %k = %c0 to %c4 step %c1 {
      // expected-remark @+1 {{the kernel's GEMMs do not use wgmma on sm_90a: the 2 accumulators live here need 256 registers per thread together, but a thread of this block has 255}}
      tile.gemm %A_s, %B_s, %C_l : memref<128x16xf16, #gpu.address_space<workgroup>>, memref<16x128xf16, #gpu.address_space<workgroup>>, memref<128x128xf32, #gpu.address_space<private>>
      tile.gemm %A_s, %B_s, %D_l : memref<128x16xf16, #gpu.address_space<workgroup>>, memref<16x128xf16, #gpu.address_space<workgroup>>, memref<128x128xf32, #gpu.address_space<private>>
    }
  }
  return
}

// -----

// 128x128 and 128x96 (B stored 96x16): 224 registers together, which fit.
func.func @two_accumulators_fit() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : memref<128x16xf16, #gpu.address_space<workgroup>>
    %B_s = tile.alloc_shared : memref<16x128xf16, #gpu.address_space<workgroup>>
    %B2_s = tile.alloc_shared : memref<96x16xf16, #gpu.address_space<workgroup>>
    %C_l = tile.alloc_fragment : memref<128x128xf32, #gpu.address_space<private>>
    %D_l = tile.alloc_fragment : memref<128x96xf32, #gpu.address_space<private>>
    scf.for %k = %c0 to %c4 step %c1 {
      tile.gemm %A_s, %B_s, %C_l : memref<128x16xf16, #gpu.address_space<workgroup>>, memref<16x128xf16, #gpu.address_space<workgroup>>, memref<128x128xf32, #gpu.address_space<private>>
      tile.gemm %A_s, %B2_s, %D_l transpose_b : memref<128x16xf16, #gpu.address_space<workgroup>>, memref<96x16xf16, #gpu.address_space<workgroup>>, memref<128x96xf32, #gpu.address_space<private>>
    }
  }
  return
}

// -----

// An accumulator is live from the first op of the kernel body that uses it
// to the last: C, computed in one loop and stored after the next, is live
// while D is computed.
func.func @two_accumulators_in_two_loops(%C: memref<128x128xf32>, %D: memref<128x128xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : memref<128x16xf16, #gpu.address_space<workgroup>>
    %B_s = tile.alloc_shared : memref<16x128xf16, #gpu.address_space<workgroup>>
    %C_l = tile.alloc_fragment : memref<128x128xf32, #gpu.address_space<private>>
    %D_l = tile.alloc_fragment : memref<128x128xf32, #gpu.address_space<private>>
    tile.clear %C_l : memref<128x128xf32, #gpu.address_space<private>>
    scf.for %k = %c0 to %c4 step %c1 {
      tile.gemm %A_s, %B_s, %C_l : memref<128x16xf16, #gpu.address_space<workgroup>>, memref<16x128xf16, #gpu.address_space<workgroup>>, memref<128x128xf32, #gpu.address_space<private>>
    }
    tile.clear %D_l : memref<128x128xf32, #gpu.address_space<private>>
    scf.for %k = %c0 to %c4 step %c1 {
      // expected-remark @below {{the kernel's GEMMs do not use wgmma on sm_90a: the 2 accumulators live here need 256 registers per thread together, but a thread of this block has 255}}
      tile.gemm %A_s, %B_s, %D_l : memref<128x16xf16, #gpu.address_space<workgroup>>, memref<16x128xf16, #gpu.address_space<workgroup>>, memref<128x128xf32, #gpu.address_space<private>>
    }
    tile.copy %C_l to %C : memref<128x128xf32, #gpu.address_space<private>> to memref<128x128xf32>
    tile.copy %D_l to %D : memref<128x128xf32, #gpu.address_space<private>> to memref<128x128xf32>
  }
  return
}

// -----

// Accumulators computed in turn (C stored before D is cleared) are not live
// at once. The software pipeline leaves a K loop's prologue and epilogue
// gemms in the kernel body; grouped by where their gemms are, this kernel
// (and two pipelined K loops in turn) went to mma.sync.
func.func @two_accumulators_in_turn(%C: memref<128x128xf32>, %D: memref<128x128xf32>) {
  %c1 = arith.constant 1 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : memref<128x16xf16, #gpu.address_space<workgroup>>
    %B_s = tile.alloc_shared : memref<16x128xf16, #gpu.address_space<workgroup>>
    %C_l = tile.alloc_fragment : memref<128x128xf32, #gpu.address_space<private>>
    %D_l = tile.alloc_fragment : memref<128x128xf32, #gpu.address_space<private>>
    tile.clear %C_l : memref<128x128xf32, #gpu.address_space<private>>
    tile.gemm %A_s, %B_s, %C_l : memref<128x16xf16, #gpu.address_space<workgroup>>, memref<16x128xf16, #gpu.address_space<workgroup>>, memref<128x128xf32, #gpu.address_space<private>>
    tile.copy %C_l to %C : memref<128x128xf32, #gpu.address_space<private>> to memref<128x128xf32>
    tile.clear %D_l : memref<128x128xf32, #gpu.address_space<private>>
    tile.gemm %A_s, %B_s, %D_l : memref<128x16xf16, #gpu.address_space<workgroup>>, memref<16x128xf16, #gpu.address_space<workgroup>>, memref<128x128xf32, #gpu.address_space<private>>
    tile.copy %D_l to %D : memref<128x128xf32, #gpu.address_space<private>> to memref<128x128xf32>
  }
  return
}

// -----

// A fragment of no GEMM that has no warpgroup layout keeps the kernel on
// mma.sync too (a kernel's fragments take one kind of layout); it used to
// do so without a word.
func.func @fragment_without_layout(%X: memref<32x32xf32>) {
  %c1 = arith.constant 1 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : memref<128x16xf16, #gpu.address_space<workgroup>>
    %B_s = tile.alloc_shared : memref<16x128xf16, #gpu.address_space<workgroup>>
    %C_l = tile.alloc_fragment : memref<128x128xf32, #gpu.address_space<private>>
    // expected-remark @+1 {{the kernel's GEMMs do not use wgmma on sm_90a: this fragment has no warpgroup layout (no tiling of 1 warpgroup fits a 32x32 fragment: rows must split into multiples of 64 and columns into multiples of 8 of at most 256 per warpgroup), and a kernel's fragments all take one kind of layout}}
    %X_l = tile.alloc_fragment : memref<32x32xf32, #gpu.address_space<private>>
    tile.gemm %A_s, %B_s, %C_l : memref<128x16xf16, #gpu.address_space<workgroup>>, memref<16x128xf16, #gpu.address_space<workgroup>>, memref<128x128xf32, #gpu.address_space<private>>
    tile.clear %X_l : memref<32x32xf32, #gpu.address_space<private>>
    tile.copy %X_l to %X : memref<32x32xf32, #gpu.address_space<private>> to memref<32x32xf32>
  }
  return
}
