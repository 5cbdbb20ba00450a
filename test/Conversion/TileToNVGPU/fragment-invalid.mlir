// RUN: tile-opt %s --test-tile-lower-fragments -split-input-file -verify-diagnostics

func.func @gemm_a_in_fragment() {
  %c1 = arith.constant 1 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A = tile.alloc_fragment : memref<64x32xf16, #gpu.address_space<private>>
    %B = tile.alloc_shared : memref<32x64xf16, #gpu.address_space<workgroup>>
    %C = tile.alloc_fragment : memref<64x64xf32, #gpu.address_space<private>>
    // expected-error @+1 {{'tile.gemm' op with operand A in a fragment is not supported by the GPU lowering}}
    tile.gemm %A, %B, %C : memref<64x32xf16, #gpu.address_space<private>>, memref<32x64xf16, #gpu.address_space<workgroup>>, memref<64x64xf32, #gpu.address_space<private>>
  }
  return
}

// -----

func.func @gemm_b_in_fragment() {
  %c1 = arith.constant 1 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A = tile.alloc_shared : memref<64x32xf16, #gpu.address_space<workgroup>>
    %B = tile.alloc_fragment : memref<32x64xf16, #gpu.address_space<private>>
    %C = tile.alloc_fragment : memref<64x64xf32, #gpu.address_space<private>>
    // expected-error @+1 {{'tile.gemm' op with operand B in a fragment is not supported by the GPU lowering}}
    tile.gemm %A, %B, %C : memref<64x32xf16, #gpu.address_space<workgroup>>, memref<32x64xf16, #gpu.address_space<private>>, memref<64x64xf32, #gpu.address_space<private>>
  }
  return
}

// -----

func.func @no_warp_tiling() {
  %c1 = arith.constant 1 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    // expected-error @+1 {{'tile.alloc_fragment' op cannot be laid out in registers: no warp tiling of 4 warps fits a 24x24 fragment}}
    %C = tile.alloc_fragment : memref<24x24xf32, #gpu.address_space<private>>
    tile.clear %C : memref<24x24xf32, #gpu.address_space<private>>
  }
  return
}

// -----

func.func @not_2d() {
  %c1 = arith.constant 1 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    // expected-error @+1 {{'tile.alloc_fragment' op cannot be laid out in registers: a fragment must be 2-D on the GPU, got rank 1}}
    %C = tile.alloc_fragment : memref<512xf32, #gpu.address_space<private>>
    tile.clear %C : memref<512xf32, #gpu.address_space<private>>
  }
  return
}

// -----

func.func @offsets_into_fragment(%G: memref<256x256xf32>, %i: index) {
  %c1 = arith.constant 1 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %C = tile.alloc_fragment : memref<64x64xf32, #gpu.address_space<private>>
    // expected-error @+1 {{'tile.copy' op with offsets into a fragment is not supported by the GPU lowering: which thread holds an element must be known at compile time}}
    tile.copy %G to %C[%i, %i] : memref<256x256xf32> to memref<64x64xf32, #gpu.address_space<private>>
  }
  return
}

// -----

func.func @fragments_of_different_shapes() {
  %c1 = arith.constant 1 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A = tile.alloc_fragment : memref<64x64xf32, #gpu.address_space<private>>
    %B = tile.alloc_fragment : memref<32x64xf32, #gpu.address_space<private>>
    // expected-error @+1 {{'tile.copy' op between fragments of different shapes is not supported by the GPU lowering: their register layouts differ}}
    tile.copy %A to %B : memref<64x64xf32, #gpu.address_space<private>> to memref<32x64xf32, #gpu.address_space<private>>
  }
  return
}

// -----

func.func @other_user(%i: index) {
  %c1 = arith.constant 1 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A = tile.alloc_fragment : memref<64x64xf32, #gpu.address_space<private>>
    // expected-error @+1 {{'memref.load' op uses a fragment tile, which the GPU lowering supports only in tile.clear, tile.copy and as the accumulator of tile.gemm}}
    %v = memref.load %A[%i, %i] : memref<64x64xf32, #gpu.address_space<private>>
  }
  return
}


// -----

func.func @fragment_from_outside(%F: memref<64x64xf32, #gpu.address_space<private>>) {
  %c1 = arith.constant 1 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    // expected-error @+1 {{'tile.clear' op uses a fragment that is not a tile.alloc_fragment of its kernel; the GPU lowering cannot place it in registers}}
    tile.clear %F : memref<64x64xf32, #gpu.address_space<private>>
  }
  return
}

// -----

// A view of the kernel's own fragment: the message names the view, not
// "a fragment from outside the kernel".
func.func @gemm_into_fragment_view() {
  %c1 = arith.constant 1 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : memref<32x16xf16, #gpu.address_space<workgroup>>
    %B_s = tile.alloc_shared : memref<16x32xf16, #gpu.address_space<workgroup>>
    %C_l = tile.alloc_fragment : memref<32x64xf32, #gpu.address_space<private>>
    %v = memref.subview %C_l[0, 0] [32, 32] [1, 1] : memref<32x64xf32, #gpu.address_space<private>> to memref<32x32xf32, strided<[64, 1]>, #gpu.address_space<private>>
    // expected-error @+1 {{'tile.gemm' op uses a fragment through 'memref.subview'; the GPU lowering places whole fragments in registers, so tile ops take a tile.alloc_fragment result itself}}
    tile.gemm %A_s, %B_s, %v : memref<32x16xf16, #gpu.address_space<workgroup>>, memref<16x32xf16, #gpu.address_space<workgroup>>, memref<32x32xf32, strided<[64, 1]>, #gpu.address_space<private>>
  }
  return
}

// -----

// A part of a shared tile (columns 16..31 of a 128x32 tile) has another
// shape than its buffer, whose swizzle the copy into the tile followed:
// ldmatrix would read with the part's swizzle.
func.func @gemm_on_column_slice() {
  %c1 = arith.constant 1 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : memref<128x32xf16, #gpu.address_space<workgroup>>
    %B_s = tile.alloc_shared : memref<16x128xf16, #gpu.address_space<workgroup>>
    %C_l = tile.alloc_fragment : memref<128x128xf32, #gpu.address_space<private>>
    %A_v = memref.subview %A_s[0, 16] [128, 16] [1, 1] : memref<128x32xf16, #gpu.address_space<workgroup>> to memref<128x16xf16, strided<[32, 1], offset: 16>, #gpu.address_space<workgroup>>
    // expected-error @+1 {{'tile.gemm' op reads operand A from a part of a shared tile, which the GPU lowering does not support: ldmatrix and the fragment copies address a whole tile through its swizzle (use the whole tile, with offsets for a copy)}}
    tile.gemm %A_v, %B_s, %C_l : memref<128x16xf16, strided<[32, 1], offset: 16>, #gpu.address_space<workgroup>>, memref<16x128xf16, #gpu.address_space<workgroup>>, memref<128x128xf32, #gpu.address_space<private>>
  }
  return
}

// -----

// The same for operand B (columns 128..255 of a 16x256 tile).
func.func @gemm_on_b_column_slice() {
  %c1 = arith.constant 1 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A_s = tile.alloc_shared : memref<128x16xf16, #gpu.address_space<workgroup>>
    %B_s = tile.alloc_shared : memref<16x256xf16, #gpu.address_space<workgroup>>
    %C_l = tile.alloc_fragment : memref<128x128xf32, #gpu.address_space<private>>
    %B_v = memref.subview %B_s[0, 128] [16, 128] [1, 1] : memref<16x256xf16, #gpu.address_space<workgroup>> to memref<16x128xf16, strided<[256, 1], offset: 128>, #gpu.address_space<workgroup>>
    // expected-error @+1 {{'tile.gemm' op reads operand B from a part of a shared tile, which the GPU lowering does not support}}
    tile.gemm %A_s, %B_v, %C_l : memref<128x16xf16, #gpu.address_space<workgroup>>, memref<16x128xf16, strided<[256, 1], offset: 128>, #gpu.address_space<workgroup>>, memref<128x128xf32, #gpu.address_space<private>>
  }
  return
}

// -----

// The same for a copy between a fragment and a part of a shared tile.
func.func @copy_to_row_slice() {
  %c1 = arith.constant 1 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %S = tile.alloc_shared : memref<128x64xf16, #gpu.address_space<workgroup>>
    %C_l = tile.alloc_fragment : memref<64x64xf32, #gpu.address_space<private>>
    %S_v = memref.subview %S[64, 0] [64, 64] [1, 1] : memref<128x64xf16, #gpu.address_space<workgroup>> to memref<64x64xf16, strided<[64, 1], offset: 4096>, #gpu.address_space<workgroup>>
    // expected-error @+1 {{'tile.copy' op copies a fragment to or from a part of a shared tile, which the GPU lowering does not support}}
    tile.copy %C_l to %S_v : memref<64x64xf32, #gpu.address_space<private>> to memref<64x64xf16, strided<[64, 1], offset: 4096>, #gpu.address_space<workgroup>>
  }
  return
}

// -----

// tf32 is 19 bits wide: no whole number of bytes to pack into registers
// (the same check as tile-lower-to-nvgpu's, before anything is lowered).
func.func @tf32_fragment(%C: memref<64x32xtf32>) {
  %c1 = arith.constant 1 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    // expected-error @+1 {{'tile.alloc_fragment' op uses a memref of 'tf32' elements; the GPU lowering handles integer and float elements of 1, 2, 4 or 8 bytes only}}
    %G = tile.alloc_fragment : memref<64x32xtf32, #gpu.address_space<private>>
    tile.clear %G : memref<64x32xtf32, #gpu.address_space<private>>
    tile.copy %G to %C : memref<64x32xtf32, #gpu.address_space<private>> to memref<64x32xtf32>
  }
  return
}

// -----

// 4096 registers per thread: the lowering refuses before it unrolls them.
func.func @too_many_registers(%A: memref<512x512xf32>) {
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{fragment tiles need 4096 registers per thread (1048576 B / 64 threads / 4 B); the GPU lowering writes one op per register and takes at most 2048 (a thread holds 255): use more threads or smaller fragments}}
  tile.kernel grid(%c1) threads(64) as (%bx) {
    %f = tile.alloc_fragment : memref<512x512xf32, #gpu.address_space<private>>
    tile.copy %A to %f : memref<512x512xf32> to memref<512x512xf32, #gpu.address_space<private>>
    tile.copy %f to %A : memref<512x512xf32, #gpu.address_space<private>> to memref<512x512xf32>
  }
  return
}
