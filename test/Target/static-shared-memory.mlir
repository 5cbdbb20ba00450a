// RUN: tile-opt %s --split-input-file --tile-to-ptx="chip=sm_90 print-budget=false" -verify-diagnostics

// gpu.all_reduce lowers to a static shared array of 32 partial results,
// which comes before the dynamic region of the tiles (at their 1024-byte
// alignment). Tiles that fill sm_90's 232448 bytes leave no room for it:
// an error at compile time, where the kernel launched and failed before.

func.func @full(%A: memref<256x454xf16>, %C: memref<128xf32>) {
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{kernel needs 233472 bytes of shared memory but sm_90 allows 232448 per block (232448 for its tiles, 1024 for static shared memory: mbarriers of TMA copies and buffers that the lowering of ops such as gpu.all_reduce adds, rounded up to the tiles' 1024-byte alignment)}}
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %s = tile.alloc_shared : memref<256x454xf16, #gpu.address_space<workgroup>>
    tile.copy %A to %s : memref<256x454xf16> to memref<256x454xf16, #gpu.address_space<workgroup>>
    tile.copy %s to %A : memref<256x454xf16, #gpu.address_space<workgroup>> to memref<256x454xf16>
    %t = gpu.thread_id x
    %v = memref.load %C[%t] : memref<128xf32>
    %sum = gpu.all_reduce add %v uniform {} : (f32) -> (f32)
    memref.store %sum, %C[%t] : memref<128xf32>
  }
  return
}

// -----

// 1024 bytes fewer of tiles: it fits.
func.func @fits(%A: memref<256x452xf16>, %C: memref<128xf32>) {
  %c1 = arith.constant 1 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %s = tile.alloc_shared : memref<256x452xf16, #gpu.address_space<workgroup>>
    tile.copy %A to %s : memref<256x452xf16> to memref<256x452xf16, #gpu.address_space<workgroup>>
    tile.copy %s to %A : memref<256x452xf16, #gpu.address_space<workgroup>> to memref<256x452xf16>
    %t = gpu.thread_id x
    %v = memref.load %C[%t] : memref<128xf32>
    %sum = gpu.all_reduce add %v uniform {} : (f32) -> (f32)
    memref.store %sum, %C[%t] : memref<128xf32>
  }
  return
}

// -----

// Every kernel of a module goes into one GPU module; each counts only the
// static arrays it uses. @full's tiles fill sm_90 and it uses none; @reduce
// uses the all_reduce array (the same module, it was charged to @full too).
func.func @reduce(%C: memref<128xf32>) {
  %c1 = arith.constant 1 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %t = gpu.thread_id x
    %v = memref.load %C[%t] : memref<128xf32>
    %sum = gpu.all_reduce add %v uniform {} : (f32) -> (f32)
    memref.store %sum, %C[%t] : memref<128xf32>
  }
  return
}

func.func @full(%A: memref<256x454xf16>) {
  %c1 = arith.constant 1 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %s = tile.alloc_shared : memref<256x454xf16, #gpu.address_space<workgroup>>
    tile.copy %A to %s : memref<256x454xf16> to memref<256x454xf16, #gpu.address_space<workgroup>>
    tile.copy %s to %A : memref<256x454xf16, #gpu.address_space<workgroup>> to memref<256x454xf16>
  }
  return
}
