// Copies to and from fragments become per-thread loads and stores of the
// thread's own elements: masked at the other side's bounds, converted
// between float types, swizzled on shared tiles.
// RUN: tile-opt %s --test-tile-lower-fragments -split-input-file | FileCheck %s

// Fragment -> global f16 at an offset into a 100x100 tensor: f32 rounds to
// f16; each (row, col) is checked against 100; an in-bounds pair at an even
// linear index is one 4-byte-aligned vector store.
// CHECK-LABEL: func.func @store_masked
// CHECK: arith.truncf %{{.*}} : f32 to f16
// CHECK: %[[C100:.*]] = arith.constant 100 : index
// CHECK-NEXT: arith.cmpi ult, %{{.*}}, %[[C100]] : index
// CHECK: scf.if
// CHECK: vector.store %{{.*}}, %{{.*}} {alignment = 4 : i64} : memref<100x100xf16>, vector<2xf16>
// CHECK: } else {
// CHECK: scf.if
// CHECK: memref.store %{{.*}} : memref<100x100xf16>
// CHECK-NOT: tile.copy
// CHECK: return
func.func @store_masked(%C: memref<100x100xf16>, %i: index, %j: index) {
  %c1 = arith.constant 1 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %C_l = tile.alloc_fragment : memref<64x64xf32, #gpu.address_space<private>>
    tile.clear %C_l : memref<64x64xf32, #gpu.address_space<private>>
    tile.copy %C_l to %C[%i, %j] : memref<64x64xf32, #gpu.address_space<private>> to memref<100x100xf16>
  }
  return
}

// -----

// tile.clear of a fragment: one zero store per mma tile (4 registers),
// 32 registers per thread for 64x64 over 128 threads.
// CHECK-LABEL: func.func @clear
// CHECK: %[[R:.*]] = memref.alloca() : memref<32xf32>
// CHECK: %[[Z:.*]] = arith.constant dense<0.000000e+00> : vector<4xf32>
// CHECK-COUNT-8: vector.store %[[Z]], %[[R]]
// CHECK-NOT: vector.store %[[Z]]
// CHECK: return
func.func @clear(%C: memref<64x64xf32>) {
  %c1 = arith.constant 1 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %C_l = tile.alloc_fragment : memref<64x64xf32, #gpu.address_space<private>>
    tile.clear %C_l : memref<64x64xf32, #gpu.address_space<private>>
    tile.copy %C_l to %C : memref<64x64xf32, #gpu.address_space<private>> to memref<64x64xf32>
  }
  return
}

// -----

// Global (dynamic shape) -> fragment: out-of-bounds elements read as zero;
// the bounds come from memref.dim.
// CHECK-LABEL: func.func @load_zero_fill
// CHECK: memref.dim %{{.*}}, %c0
// CHECK: scf.if %{{.*}} -> (f16)
// CHECK: memref.load %{{.*}} : memref<?x?xf16>
// CHECK: } else {
// CHECK: %[[Z:.*]] = arith.constant 0.000000e+00 : f16
// CHECK: scf.yield %[[Z]] : f16
// CHECK: arith.extf %{{.*}} : f16 to f32
// CHECK: return
func.func @load_zero_fill(%A: memref<?x?xf16>, %C: memref<64x64xf32>, %i: index) {
  %c1 = arith.constant 1 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %C_l = tile.alloc_fragment : memref<64x64xf32, #gpu.address_space<private>>
    tile.copy %A[%i, %i] to %C_l : memref<?x?xf16> to memref<64x64xf32, #gpu.address_space<private>>
    tile.copy %C_l to %C : memref<64x64xf32, #gpu.address_space<private>> to memref<64x64xf32>
  }
  return
}

// -----

// Fragment <-> shared: the shared column goes through the XOR swizzle
// (64-byte rows of f16: pattern (row / 2) % 4 on the 16-byte chunk); a
// whole in-bounds tile needs no masks.
// CHECK-LABEL: func.func @shared_swizzled
// CHECK-NOT: scf.if
// CHECK: arith.xori
// CHECK: memref.store %{{.*}} : memref<64x32xf16, #gpu.address_space<workgroup>>
// CHECK: arith.xori
// CHECK: memref.load %{{.*}} : memref<64x32xf16, #gpu.address_space<workgroup>>
// CHECK: return
func.func @shared_swizzled(%C: memref<64x32xf16>) {
  %c1 = arith.constant 1 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %S = tile.alloc_shared : memref<64x32xf16, #gpu.address_space<workgroup>>
    %F = tile.alloc_fragment : memref<64x32xf16, #gpu.address_space<private>>
    %G = tile.alloc_fragment : memref<64x32xf16, #gpu.address_space<private>>
    tile.clear %F : memref<64x32xf16, #gpu.address_space<private>>
    tile.copy %F to %S : memref<64x32xf16, #gpu.address_space<private>> to memref<64x32xf16, #gpu.address_space<workgroup>>
    tile.copy %S to %G : memref<64x32xf16, #gpu.address_space<workgroup>> to memref<64x32xf16, #gpu.address_space<private>>
    tile.copy %G to %C : memref<64x32xf16, #gpu.address_space<private>> to memref<64x32xf16>
  }
  return
}

// -----

// Fragment -> fragment of the same shape: register by register, converted.
// CHECK-LABEL: func.func @fragment_to_fragment
// CHECK: %[[F32:.*]] = memref.alloca() : memref<32xf32>
// CHECK: %[[F16:.*]] = memref.alloca() : memref<32xf16>
// CHECK: memref.load %[[F32]]
// CHECK: arith.truncf
// CHECK: memref.store %{{.*}}, %[[F16]]
// CHECK: return
func.func @fragment_to_fragment(%C: memref<64x64xf16>) {
  %c1 = arith.constant 1 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %A = tile.alloc_fragment : memref<64x64xf32, #gpu.address_space<private>>
    %B = tile.alloc_fragment : memref<64x64xf16, #gpu.address_space<private>>
    tile.clear %A : memref<64x64xf32, #gpu.address_space<private>>
    tile.copy %A to %B : memref<64x64xf32, #gpu.address_space<private>> to memref<64x64xf16, #gpu.address_space<private>>
    tile.copy %B to %C : memref<64x64xf16, #gpu.address_space<private>> to memref<64x64xf16>
  }
  return
}
