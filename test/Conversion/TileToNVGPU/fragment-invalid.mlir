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
    // expected-error @+1 {{'tile.copy' op with offsets into a fragment is not supported by the GPU lowering}}
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
    // expected-error @+1 {{'tile.copy' op between fragments of different shapes is not supported by the GPU lowering}}
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
    // expected-error @+1 {{'tile.clear' op uses a fragment that is not a tile.alloc_fragment of its kernel}}
    tile.clear %F : memref<64x64xf32, #gpu.address_space<private>>
  }
  return
}
