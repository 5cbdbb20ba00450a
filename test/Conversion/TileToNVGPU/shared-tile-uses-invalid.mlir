// RUN: tile-opt %s --split-input-file --verify-diagnostics --tile-lower-to-nvgpu=chip=sm_90

// The GPU lowering swizzles a shared tile's layout for the tile ops, so no
// other op may read or write it: a memref.load of element (1, 0) would read
// the element that the tile ops keep at (1, 8).

func.func @load(%A: memref<64x64xf16>, %C: memref<64x64xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    // expected-note @+1 {{the shared tile}}
    %s = tile.alloc_shared : memref<64x64xf16, #gpu.address_space<workgroup>>
    tile.copy %A to %s : memref<64x64xf16> to memref<64x64xf16, #gpu.address_space<workgroup>>
    // expected-error @+1 {{'memref.load' op uses a shared tile, which the GPU lowering lays out swizzled for the tile ops: only tile ops, directly or through memref.subview (or a memref.cast that keeps the shape), may use it (tile.copy moves it into a fragment or to global memory)}}
    %v = memref.load %s[%c1, %c0] : memref<64x64xf16, #gpu.address_space<workgroup>>
    memref.store %v, %C[%c0, %c0] : memref<64x64xf16>
  }
  return
}

// -----

// Through a subview too.
func.func @store_through_subview(%C: memref<64x64xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %x = arith.constant 1.0 : f16
  tile.kernel grid(%c1) threads(128) as (%bx) {
    // expected-note @+1 {{the shared tile}}
    %s = tile.alloc_shared : memref<2x64x64xf16, #gpu.address_space<workgroup>>
    %v = memref.subview %s[1, 0, 0] [1, 64, 64] [1, 1, 1] : memref<2x64x64xf16, #gpu.address_space<workgroup>> to memref<64x64xf16, strided<[64, 1], offset: 4096>, #gpu.address_space<workgroup>>
    tile.clear %v : memref<64x64xf16, strided<[64, 1], offset: 4096>, #gpu.address_space<workgroup>>
    // expected-error @+1 {{'memref.store' op uses a shared tile}}
    memref.store %x, %v[%c1, %c0] : memref<64x64xf16, strided<[64, 1], offset: 4096>, #gpu.address_space<workgroup>>
    tile.copy %v to %C : memref<64x64xf16, strided<[64, 1], offset: 4096>, #gpu.address_space<workgroup>> to memref<64x64xf16>
  }
  return
}

// -----

// A view other than a subview: the swizzle would follow the view's
// coordinates, not the tile's.
func.func @transposed_view(%A: memref<64x64xf16>, %C: memref<64x64xf16>) {
  %c1 = arith.constant 1 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    // expected-note @+1 {{the shared tile}}
    %s = tile.alloc_shared : memref<64x64xf16, #gpu.address_space<workgroup>>
    // expected-error @+1 {{'memref.transpose' op uses a shared tile}}
    %t = memref.transpose %s (i, j) -> (j, i) : memref<64x64xf16, #gpu.address_space<workgroup>> to memref<64x64xf16, strided<[1, 64]>, #gpu.address_space<workgroup>>
    tile.copy %A to %t : memref<64x64xf16> to memref<64x64xf16, strided<[1, 64]>, #gpu.address_space<workgroup>>
    tile.copy %s to %C : memref<64x64xf16, #gpu.address_space<workgroup>> to memref<64x64xf16>
  }
  return
}

// -----

func.func @rank0_clear() {
  %c1 = arith.constant 1 : index
  tile.kernel grid(%c1) threads(32) as (%bx) {
    %s = tile.alloc_shared : memref<f32, #gpu.address_space<workgroup>>
    // expected-error @+1 {{a tile copy or clear of a memref of rank 0 is not supported by the GPU lowering: give the tile at least one dimension (memref<1xT>)}}
    tile.clear %s : memref<f32, #gpu.address_space<workgroup>>
  }
  return
}

// -----

func.func @rank0_copy(%A: memref<f16>) {
  %c1 = arith.constant 1 : index
  tile.kernel grid(%c1) threads(32) as (%bx) {
    %s = tile.alloc_shared : memref<f16, #gpu.address_space<workgroup>>
    // expected-error @+1 {{a tile copy or clear of a memref of rank 0 is not supported by the GPU lowering}}
    tile.copy %A to %s : memref<f16> to memref<f16, #gpu.address_space<workgroup>>
  }
  return
}

// -----

func.func @rank0_copy_async(%A: memref<f16>) {
  %c1 = arith.constant 1 : index
  tile.kernel grid(%c1) threads(32) as (%bx) {
    %s = tile.alloc_shared : memref<f16, #gpu.address_space<workgroup>>
    // expected-error @+1 {{a tile copy or clear of a memref of rank 0 is not supported by the GPU lowering}}
    tile.copy_async %A to %s : memref<f16> to memref<f16, #gpu.address_space<workgroup>>
    tile.commit_group
    tile.wait_group 0
  }
  return
}

// -----

// Each thread copies its own chunks at once: a shift within one tile could
// read elements that another thread has already written.
func.func @self_copy(%A: memref<64x64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %s = tile.alloc_shared : memref<64x64xf32, #gpu.address_space<workgroup>>
    tile.copy %A to %s : memref<64x64xf32> to memref<64x64xf32, #gpu.address_space<workgroup>>
    // expected-error @+1 {{'tile.copy' op copies between parts of one shared tile, which the GPU lowering does not support: its threads copy at once, so one could read an element that another has already overwritten (copy through a second tile)}}
    tile.copy %s[%c0, %c1] to %s : memref<64x64xf32, #gpu.address_space<workgroup>> to memref<64x64xf32, #gpu.address_space<workgroup>>
  }
  return
}

// -----

// Elements copied onto themselves: each thread writes back what it read.
func.func @identity_copy(%A: memref<64x64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %s = tile.alloc_shared : memref<64x64xf32, #gpu.address_space<workgroup>>
    tile.copy %A to %s : memref<64x64xf32> to memref<64x64xf32, #gpu.address_space<workgroup>>
    tile.copy %s to %s : memref<64x64xf32, #gpu.address_space<workgroup>> to memref<64x64xf32, #gpu.address_space<workgroup>>
    tile.copy %s[%c0, %c1] to %s[%c0, %c1] : memref<64x64xf32, #gpu.address_space<workgroup>> to memref<64x64xf32, #gpu.address_space<workgroup>>
    tile.copy %s to %A : memref<64x64xf32, #gpu.address_space<workgroup>> to memref<64x64xf32>
  }
  return
}

// -----

// Two versions of one multi-buffered tile are apart: a copy between them
// is lowered. Two overlapping parts are not.
func.func @versions(%C: memref<64x64xf16>) {
  %c1 = arith.constant 1 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %s = tile.alloc_shared : memref<2x64x64xf16, #gpu.address_space<workgroup>>
    %v0 = memref.subview %s[0, 0, 0] [1, 64, 64] [1, 1, 1] : memref<2x64x64xf16, #gpu.address_space<workgroup>> to memref<64x64xf16, strided<[64, 1]>, #gpu.address_space<workgroup>>
    %v1 = memref.subview %s[1, 0, 0] [1, 64, 64] [1, 1, 1] : memref<2x64x64xf16, #gpu.address_space<workgroup>> to memref<64x64xf16, strided<[64, 1], offset: 4096>, #gpu.address_space<workgroup>>
    tile.clear %v0 : memref<64x64xf16, strided<[64, 1]>, #gpu.address_space<workgroup>>
    tile.copy %v0 to %v1 : memref<64x64xf16, strided<[64, 1]>, #gpu.address_space<workgroup>> to memref<64x64xf16, strided<[64, 1], offset: 4096>, #gpu.address_space<workgroup>>
    tile.copy %v1 to %C : memref<64x64xf16, strided<[64, 1], offset: 4096>, #gpu.address_space<workgroup>> to memref<64x64xf16>
  }
  return
}

// -----

func.func @overlapping_parts() {
  %c1 = arith.constant 1 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %s = tile.alloc_shared : memref<64x64xf16, #gpu.address_space<workgroup>>
    %top = memref.subview %s[0, 0] [48, 64] [1, 1] : memref<64x64xf16, #gpu.address_space<workgroup>> to memref<48x64xf16, strided<[64, 1]>, #gpu.address_space<workgroup>>
    %bottom = memref.subview %s[16, 0] [48, 64] [1, 1] : memref<64x64xf16, #gpu.address_space<workgroup>> to memref<48x64xf16, strided<[64, 1], offset: 1024>, #gpu.address_space<workgroup>>
    tile.clear %s : memref<64x64xf16, #gpu.address_space<workgroup>>
    // expected-error @+1 {{'tile.copy' op copies between parts of one shared tile}}
    tile.copy %top to %bottom : memref<48x64xf16, strided<[64, 1]>, #gpu.address_space<workgroup>> to memref<48x64xf16, strided<[64, 1], offset: 1024>, #gpu.address_space<workgroup>>
  }
  return
}

// -----

// A view with a negative stride runs downwards from its offset: rows 20
// down to 5 overlap rows 10 to 25. Rows 31 down to 26 do not.
func.func @overlapping_reversed_parts() {
  %c1 = arith.constant 1 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %s = tile.alloc_shared : memref<32x64xf16, #gpu.address_space<workgroup>>
    %down = memref.subview %s[20, 0] [16, 64] [-1, 1] : memref<32x64xf16, #gpu.address_space<workgroup>> to memref<16x64xf16, strided<[-64, 1], offset: 1280>, #gpu.address_space<workgroup>>
    %up = memref.subview %s[10, 0] [16, 64] [1, 1] : memref<32x64xf16, #gpu.address_space<workgroup>> to memref<16x64xf16, strided<[64, 1], offset: 640>, #gpu.address_space<workgroup>>
    %end = memref.subview %s[31, 0] [6, 64] [-1, 1] : memref<32x64xf16, #gpu.address_space<workgroup>> to memref<6x64xf16, strided<[-64, 1], offset: 1984>, #gpu.address_space<workgroup>>
    %start = memref.subview %s[0, 0] [6, 64] [1, 1] : memref<32x64xf16, #gpu.address_space<workgroup>> to memref<6x64xf16, strided<[64, 1]>, #gpu.address_space<workgroup>>
    tile.clear %s : memref<32x64xf16, #gpu.address_space<workgroup>>
    tile.copy %end to %start : memref<6x64xf16, strided<[-64, 1], offset: 1984>, #gpu.address_space<workgroup>> to memref<6x64xf16, strided<[64, 1]>, #gpu.address_space<workgroup>>
    // expected-error @+1 {{'tile.copy' op copies between parts of one shared tile}}
    tile.copy %down to %up : memref<16x64xf16, strided<[-64, 1], offset: 1280>, #gpu.address_space<workgroup>> to memref<16x64xf16, strided<[64, 1], offset: 640>, #gpu.address_space<workgroup>>
  }
  return
}

// -----

// A cast that keeps the shape keeps the tile ops' indexing and is followed;
// one to a dynamic shape is not (the swizzle needs the tile's sizes).
func.func @cast_to_dynamic(%A: memref<64x64xf16>) {
  %c1 = arith.constant 1 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    // expected-note @+1 {{the shared tile}}
    %s = tile.alloc_shared : memref<64x64xf16, #gpu.address_space<workgroup>>
    %same = memref.cast %s : memref<64x64xf16, #gpu.address_space<workgroup>> to memref<64x64xf16, strided<[64, 1]>, #gpu.address_space<workgroup>>
    tile.copy %A to %same : memref<64x64xf16> to memref<64x64xf16, strided<[64, 1]>, #gpu.address_space<workgroup>>
    // expected-error @+1 {{'memref.cast' op uses a shared tile, which the GPU lowering lays out swizzled for the tile ops: only tile ops, directly or through memref.subview (or a memref.cast that keeps the shape), may use it (tile.copy moves it into a fragment or to global memory)}}
    %dyn = memref.cast %s : memref<64x64xf16, #gpu.address_space<workgroup>> to memref<?x64xf16, #gpu.address_space<workgroup>>
  }
  return
}
