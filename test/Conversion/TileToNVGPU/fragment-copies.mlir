// Copies to and from fragments become per-thread loads and stores of the
// thread's own elements: masked at the other side's bounds, converted
// between float types, swizzled on shared tiles.
// RUN: tile-opt %s --test-tile-lower-fragments -split-input-file | FileCheck %s
// The kernels that need no masks, checked from their label to their return:
// RUN: tile-opt %s --test-tile-lower-fragments -split-input-file | FileCheck %s --check-prefix=NOMASK

// Fragment -> global f16 at an offset into a 100x100 tensor: f32 rounds to
// f16; each (row, col) is checked against 100; a pair at an even linear
// index with both elements in bounds is one 4-byte-aligned vector store.
// Both: with a negative column offset (%j = -1, say), col + 1 can be in
// bounds where col is not.
// CHECK-LABEL: func.func @store_masked
// CHECK: arith.truncf %{{.*}} : f32 to f16
// CHECK: %[[C100:.*]] = arith.constant 100 : index
// CHECK-NEXT: arith.cmpi ult, %{{.*}}, %[[C100]] : index
// CHECK: %[[IN0:.*]] = arith.andi %{{.*}}, %{{.*}} : i1
// CHECK: %[[IN1:.*]] = arith.andi %{{.*}}, %{{.*}} : i1
// CHECK: %[[EVEN:.*]] = arith.cmpi eq, %{{.*}}, %{{.*}} : index
// CHECK-NEXT: %[[BOTH1:.*]] = arith.andi %[[IN1]], %[[EVEN]] : i1
// CHECK-NEXT: %[[PAIR:.*]] = arith.andi %[[IN0]], %[[BOTH1]] : i1
// CHECK-NEXT: scf.if %[[PAIR]] {
// CHECK-NEXT: vector.from_elements
// CHECK-NEXT: vector.store %{{.*}}, %{{.*}} {alignment = 4 : i64} : memref<100x100xf16>, vector<2xf16>
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

// Fragment -> global f16 that provably lies inside C (256x256, 128x128 tiles
// at multiples of 128): lanes 2k and 2k+1 swap one packed pair of two
// neighbouring mma tiles (the odd lane sends tile j's, the even lane tile
// j+1's), so each lane holds four consecutive columns and writes them as one
// 8-byte store: 2 tiles per shuffle, 64 x 64 per warp / (2 x 8 x 8) = 32
// shuffles and 32 stores, no bounds checks.
// CHECK-LABEL: func.func @store_exchanged
// NOMASK-LABEL: func.func @store_exchanged
// NOMASK-NOT: arith.cmpi ult
// NOMASK: return
// CHECK: %[[LANE:.*]] = arith.remui %{{.*}}, %c32
// CHECK: %[[BIT:.*]] = arith.andi %[[LANE]], %{{.*}} : index
// CHECK: %[[ODD:.*]] = arith.cmpi ne, %[[BIT]], %{{.*}} : index
// CHECK: %[[W0:.*]] = vector.extract %{{.*}}[0] : i32 from vector<1xi32>
// CHECK: %[[W1:.*]] = vector.extract %{{.*}}[0] : i32 from vector<1xi32>
// CHECK: %[[SEND:.*]] = arith.select %[[ODD]], %[[W0]], %[[W1]] : i32
// CHECK: %[[RECV:.*]], %{{.*}} = gpu.shuffle xor %[[SEND]], %{{.*}}, %{{.*}} : i32
// CHECK: %[[FIRST:.*]] = arith.select %[[ODD]], %[[RECV]], %[[W0]] : i32
// CHECK: %[[SECOND:.*]] = arith.select %[[ODD]], %[[W1]], %[[RECV]] : i32
// CHECK: %[[COL:.*]] = arith.select %[[ODD]], %c6, %c0
// CHECK: %[[WORDS:.*]] = vector.from_elements %[[FIRST]], %[[SECOND]] : vector<2xi32>
// CHECK: %[[CHUNK:.*]] = vector.bitcast %[[WORDS]] : vector<2xi32> to vector<4xf16>
// CHECK: vector.store %[[CHUNK]], %{{.*}} {alignment = 8 : i64} : memref<256x256xf16>, vector<4xf16>
// CHECK-COUNT-31: vector.store %{{.*}} {alignment = 8 : i64} : memref<256x256xf16>, vector<4xf16>
// CHECK-NOT: memref<256x256xf16>, vector
// CHECK-NOT: arith.cmpi ult
// CHECK: return
func.func @store_exchanged(%C: memref<256x256xf16>) {
  %c2 = arith.constant 2 : index
  %c128 = arith.constant 128 : index
  tile.kernel grid(%c2, %c2) threads(128) as (%bx, %by) {
    %C_l = tile.alloc_fragment : memref<128x128xf32, #gpu.address_space<private>>
    tile.clear %C_l : memref<128x128xf32, #gpu.address_space<private>>
    %r = arith.muli %by, %c128 : index
    %c = arith.muli %bx, %c128 : index
    tile.copy %C_l to %C[%r, %c] : memref<128x128xf32, #gpu.address_space<private>> to memref<256x256xf16>
  }
  return
}

// -----

// The same copy at a column offset that may be odd (%j) cannot promise
// 8-byte alignment: it keeps the element pairs, checked at run time.
// CHECK-LABEL: func.func @store_unaligned
// CHECK-NOT: gpu.shuffle
// CHECK: vector.store %{{.*}}, %{{.*}} {alignment = 4 : i64} : memref<256x256xf16>, vector<2xf16>
// CHECK-NOT: gpu.shuffle
// CHECK: return
func.func @store_unaligned(%C: memref<256x256xf16>, %j: index) {
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %C_l = tile.alloc_fragment : memref<128x128xf32, #gpu.address_space<private>>
    tile.clear %C_l : memref<128x128xf32, #gpu.address_space<private>>
    tile.copy %C_l to %C[%c0, %j] : memref<128x128xf32, #gpu.address_space<private>> to memref<256x256xf16>
  }
  return
}

// -----

// A C that memref.view carves out of a byte buffer 2 bytes past its start
// has an identity layout, but its rows are only 2-byte aligned (the view's
// byte shift is not in its type): neither the 8-byte exchanged stores nor the
// 4-byte pairs may be promised, so every element is stored on its own.
// CHECK-LABEL: func.func @store_shifted_view
// CHECK-NOT: gpu.shuffle
// CHECK-NOT: vector.store {{.*}} : memref<128x128xf16>
// CHECK: memref.store %{{.*}} : memref<128x128xf16>
// CHECK-NOT: gpu.shuffle
// CHECK-NOT: vector.store {{.*}} : memref<128x128xf16>
// CHECK: return
func.func @store_shifted_view(%buf: memref<32770xi8>) {
  %c1 = arith.constant 1 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %c2 = arith.constant 2 : index
    %C = memref.view %buf[%c2][] : memref<32770xi8> to memref<128x128xf16>
    %C_l = tile.alloc_fragment : memref<128x128xf32, #gpu.address_space<private>>
    tile.clear %C_l : memref<128x128xf32, #gpu.address_space<private>>
    tile.copy %C_l to %C : memref<128x128xf32, #gpu.address_space<private>> to memref<128x128xf16>
  }
  return
}

// -----

// An edge tile: 128x128 tiles of a 1000x1000 C may leave it, but 1000 and
// the tile offsets are multiples of 4, so each lane's 4-column chunk is
// wholly inside or wholly outside. The exchange stays, and each 8-byte store
// runs under its first element's row and column checks.
// CHECK-LABEL: func.func @store_exchanged_edge
// CHECK: gpu.shuffle xor
// CHECK: %[[ROWS:.*]] = arith.constant 1000 : index
// CHECK-NEXT: %[[ROWOK:.*]] = arith.cmpi ult, %{{.*}}, %[[ROWS]] : index
// CHECK: %[[COLS:.*]] = arith.constant 1000 : index
// CHECK-NEXT: %[[COLOK:.*]] = arith.cmpi ult, %{{.*}}, %[[COLS]] : index
// CHECK: %[[OK:.*]] = arith.andi %[[ROWOK]], %[[COLOK]] : i1
// CHECK: scf.if %[[OK]] {
// CHECK-NEXT: vector.store %{{.*}} {alignment = 8 : i64} : memref<1000x1000xf16>, vector<4xf16>
// CHECK-COUNT-31: vector.store %{{.*}} {alignment = 8 : i64} : memref<1000x1000xf16>, vector<4xf16>
// CHECK-NOT: memref<1000x1000xf16>, vector
// CHECK: return
func.func @store_exchanged_edge(%C: memref<1000x1000xf16>) {
  %c8 = arith.constant 8 : index
  %c128 = arith.constant 128 : index
  tile.kernel grid(%c8, %c8) threads(128) as (%bx, %by) {
    %C_l = tile.alloc_fragment : memref<128x128xf32, #gpu.address_space<private>>
    tile.clear %C_l : memref<128x128xf32, #gpu.address_space<private>>
    %r = arith.muli %by, %c128 : index
    %c = arith.muli %bx, %c128 : index
    tile.copy %C_l to %C[%r, %c] : memref<128x128xf32, #gpu.address_space<private>> to memref<1000x1000xf16>
  }
  return
}

// -----

// Rows of 1002 elements: a chunk could straddle the last column, and rows
// after the first are only 4-byte aligned, so the edge keeps element pairs.
// So does a row length known only at run time and not promised a multiple
// of 4 (store_exchanged_dynamic below has the promise).
// CHECK-LABEL: func.func @store_edge_pairs
// CHECK-NOT: gpu.shuffle
// CHECK: vector.store %{{.*}}, %{{.*}} {alignment = 4 : i64} : memref<1000x1002xf16>, vector<2xf16>
// CHECK-NOT: gpu.shuffle
// CHECK: vector.store %{{.*}}, %{{.*}} {alignment = 4 : i64} : memref<?x?xf16>, vector<2xf16>
// CHECK-NOT: gpu.shuffle
// CHECK: return
func.func @store_edge_pairs(%C: memref<1000x1002xf16>, %D: memref<?x?xf16>) {
  %c8 = arith.constant 8 : index
  %c128 = arith.constant 128 : index
  tile.kernel grid(%c8, %c8) threads(128) as (%bx, %by) {
    %C_l = tile.alloc_fragment : memref<128x128xf32, #gpu.address_space<private>>
    tile.clear %C_l : memref<128x128xf32, #gpu.address_space<private>>
    %r = arith.muli %by, %c128 : index
    %c = arith.muli %bx, %c128 : index
    tile.copy %C_l to %C[%r, %c] : memref<128x128xf32, #gpu.address_space<private>> to memref<1000x1002xf16>
    tile.copy %C_l to %D[%r, %c] : memref<128x128xf32, #gpu.address_space<private>> to memref<?x?xf16>
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
// whole in-bounds tile needs no masks. Stores go by register pair, and rows
// 8 apart share the swizzled column: one XOR per n8 tile of the thread (two
// here), not one per element.
// CHECK-LABEL: func.func @shared_swizzled
// NOMASK-LABEL: func.func @shared_swizzled
// NOMASK-NOT: scf.if
// NOMASK: return
// CHECK-NOT: scf.if
// CHECK: arith.xori
// CHECK: %[[COL0:.*]] = arith.addi
// CHECK-NOT: arith.xori
// CHECK: vector.store %{{.*}}, %[[S:.*]][%{{.*}}, %[[COL0]]] {alignment = 4 : i64} : memref<64x32xf16, #gpu.address_space<workgroup>>, vector<2xf16>
// CHECK-NOT: arith.xori
// CHECK: vector.store %{{.*}}, %[[S]][%{{.*}}, %[[COL0]]]
// CHECK: arith.xori
// CHECK: %[[COL1:.*]] = arith.addi
// CHECK-NOT: arith.xori
// CHECK-COUNT-2: vector.store %{{.*}}, %[[S]][%{{.*}}, %[[COL1]]]
// CHECK-NOT: arith.xori
// CHECK-COUNT-2: vector.store %{{.*}}, %[[S]][%{{.*}}, %[[COL0]]]
// CHECK-NOT: arith.xori
// CHECK-COUNT-2: vector.store %{{.*}}, %[[S]][%{{.*}}, %[[COL1]]]
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

// -----

// Fragment -> a global tensor smaller than the fragment, without offsets:
// rows are checked against 20 and columns against 24, so the parts of the
// 32x32 fragment outside the 20x24 tensor are not stored.
// CHECK-LABEL: func.func @store_smaller_tensor
// CHECK: %[[C20:.*]] = arith.constant 20 : index
// CHECK-NEXT: arith.cmpi ult, %{{.*}}, %[[C20]] : index
// CHECK-NEXT: %[[C24:.*]] = arith.constant 24 : index
// CHECK-NEXT: arith.cmpi ult, %{{.*}}, %[[C24]] : index
// CHECK: scf.if
// CHECK: vector.store %{{.*}} : memref<20x24xf32>, vector<2xf32>
// CHECK: } else {
// CHECK: scf.if
// CHECK: memref.store %{{.*}} : memref<20x24xf32>
func.func @store_smaller_tensor(%C: memref<20x24xf32>) {
  %c1 = arith.constant 1 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %C_l = tile.alloc_fragment : memref<32x32xf32, #gpu.address_space<private>>
    tile.clear %C_l : memref<32x32xf32, #gpu.address_space<private>>
    tile.copy %C_l to %C : memref<32x32xf32, #gpu.address_space<private>> to memref<20x24xf32>
  }
  return
}

// -----

// A 32x64 shared tile into a 64x64 fragment: the extent is 32x64, so a
// thread's registers in rows 32..63 keep what the fragment held (here, what
// the copy from G loaded), as the op says and the CPU lowering does; only
// rows below 32 load, under a check of the row.
// CHECK-LABEL: func.func @load_smaller_tile
// CHECK: memref.load %{{.*}} : memref<64x64xf32>
// CHECK: %[[C32:.*]] = arith.constant 32 : index
// CHECK-NEXT: %[[IN:.*]] = arith.cmpi ult, %{{.*}}, %[[C32]] : index
// CHECK-NEXT: scf.if %[[IN]] {
// CHECK: memref.load %{{.*}} : memref<32x64xf32, #gpu.address_space<workgroup>>
// CHECK: memref.store %{{.*}}, %alloca
// CHECK-NEXT: }
// CHECK-NOT: arith.constant 0.000000e+00 : f32
// CHECK: return
func.func @load_smaller_tile(%G: memref<64x64xf32>) {
  %c1 = arith.constant 1 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %S = tile.alloc_shared : memref<32x64xf32, #gpu.address_space<workgroup>>
    %C = tile.alloc_fragment : memref<64x64xf32, #gpu.address_space<private>>
    tile.copy %G to %C : memref<64x64xf32> to memref<64x64xf32, #gpu.address_space<private>>
    tile.copy %S to %C : memref<32x64xf32, #gpu.address_space<workgroup>> to memref<64x64xf32, #gpu.address_space<private>>
  }
  return
}

// -----

// A row length known only at run time but promised a multiple of 8
// (tile.divisibility, which the launcher checks): as with 1000 columns, each
// lane's 4-column chunk is 8-byte aligned and wholly inside or wholly
// outside, so the exchange applies, each store under its first element's
// checks against the sizes. A promise of 2 is not enough: pairs.
// CHECK-LABEL: func.func @store_exchanged_dynamic
// CHECK: gpu.shuffle xor
// CHECK: %[[ROWS:.*]] = memref.dim %{{.*}}, %c0{{.*}} : memref<?x?xf16>
// CHECK-NEXT: %[[ROWOK:.*]] = arith.cmpi ult, %{{.*}}, %[[ROWS]] : index
// CHECK: %[[COLS:.*]] = memref.dim %{{.*}}, %c1{{.*}} : memref<?x?xf16>
// CHECK-NEXT: %[[COLOK:.*]] = arith.cmpi ult, %{{.*}}, %[[COLS]] : index
// CHECK: %[[OK:.*]] = arith.andi %[[ROWOK]], %[[COLOK]] : i1
// CHECK: scf.if %[[OK]] {
// CHECK-NEXT: vector.store %{{.*}} {alignment = 8 : i64} : memref<?x?xf16>, vector<4xf16>
// CHECK-COUNT-31: vector.store %{{.*}} {alignment = 8 : i64} : memref<?x?xf16>, vector<4xf16>
// CHECK-NOT: memref<?x?xf16>, vector
// CHECK: return
func.func @store_exchanged_dynamic(%C: memref<?x?xf16> {tile.divisibility = 8 : i64}) {
  %c8 = arith.constant 8 : index
  %c128 = arith.constant 128 : index
  tile.kernel grid(%c8, %c8) threads(128) as (%bx, %by) {
    %C_l = tile.alloc_fragment : memref<128x128xf32, #gpu.address_space<private>>
    tile.clear %C_l : memref<128x128xf32, #gpu.address_space<private>>
    %r = arith.muli %by, %c128 : index
    %c = arith.muli %bx, %c128 : index
    tile.copy %C_l to %C[%r, %c] : memref<128x128xf32, #gpu.address_space<private>> to memref<?x?xf16>
  }
  return
}

// CHECK-LABEL: func.func @store_pairs_divisible_2
// CHECK-NOT: gpu.shuffle
// CHECK: vector.store %{{.*}}, %{{.*}} {alignment = 4 : i64} : memref<?x?xf16>, vector<2xf16>
// CHECK-NOT: gpu.shuffle
// CHECK: return
func.func @store_pairs_divisible_2(%C: memref<?x?xf16> {tile.divisibility = 2 : i64}) {
  %c8 = arith.constant 8 : index
  %c128 = arith.constant 128 : index
  tile.kernel grid(%c8, %c8) threads(128) as (%bx, %by) {
    %C_l = tile.alloc_fragment : memref<128x128xf32, #gpu.address_space<private>>
    tile.clear %C_l : memref<128x128xf32, #gpu.address_space<private>>
    %r = arith.muli %by, %c128 : index
    %c = arith.muli %bx, %c128 : index
    tile.copy %C_l to %C[%r, %c] : memref<128x128xf32, #gpu.address_space<private>> to memref<?x?xf16>
  }
  return
}
