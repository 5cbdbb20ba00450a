// RUN: tile-opt %s --split-input-file --tile-lower-to-nvgpu=chip=sm_90 -cse | FileCheck %s

// Synchronous copies: global -> shared with a masked edge, shared -> global
// with a masked store. Whole chunks take the plain 16-byte vector access.

// A partial chunk loads its first COUNT lanes, those inside the tensor:
// lane < COUNT.
// CHECK-LABEL: gpu.func @roundtrip_kernel
// CHECK: %[[WHOLE:.*]] = arith.cmpi eq, %[[COUNT:.*]], %c8 : index
// CHECK: scf.if %[[WHOLE]] -> (vector<8xf16>)
// CHECK: vector.load %{{.*}} {alignment = 16 : i64} : memref<200x200xf16>, vector<8xf16>
// CHECK: } else {
// CHECK: %[[LANES:.*]] = arith.constant dense<[0, 1, 2, 3, 4, 5, 6, 7]> : vector<8xi32>
// CHECK: %[[N:.*]] = arith.index_cast %[[COUNT]] : index to i32
// CHECK: %[[SPLAT:.*]] = vector.broadcast %[[N]] : i32 to vector<8xi32>
// CHECK: %[[MASK:.*]] = arith.cmpi slt, %[[LANES]], %[[SPLAT]] : vector<8xi32>
// CHECK: vector.maskedload %{{.*}}, %[[MASK]], %{{.*}} {alignment = 16 : i64} : memref<200x200xf16>, vector<8xi1>, vector<8xf16> into vector<8xf16>
// CHECK: vector.store %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] {alignment = 16 : i64} : memref<64x64xf16, #gpu.address_space<workgroup>>, vector<8xf16>
// CHECK: gpu.barrier
// CHECK: vector.load %{{.*}} {alignment = 16 : i64} : memref<64x64xf16, #gpu.address_space<workgroup>>, vector<8xf16>
// CHECK: scf.if
// CHECK: vector.store {{.*}} : memref<200x200xf16>, vector<8xf16>
// CHECK: } else {
// CHECK: vector.maskedstore {{.*}} : memref<200x200xf16>, vector<8xi1>, vector<8xf16>
func.func @roundtrip(%A: memref<200x200xf16>, %C: memref<200x200xf16>) {
  %c64 = arith.constant 64 : index
  %c4 = arith.constant 4 : index
  tile.kernel grid(%c4, %c4) threads(128) as (%bx, %by) {
    %s = tile.alloc_shared : memref<64x64xf16, #gpu.address_space<workgroup>>
    %row = arith.muli %by, %c64 : index
    %col = arith.muli %bx, %c64 : index
    tile.copy %A[%row, %col] to %s : memref<200x200xf16> to memref<64x64xf16, #gpu.address_space<workgroup>>
    tile.barrier
    tile.copy %s to %C[%row, %col] : memref<64x64xf16, #gpu.address_space<workgroup>> to memref<200x200xf16>
  }
  return
}

// -----

// A copy whose chunk count is not a multiple of the threads: 24x8 f32 is 48
// 16-byte chunks over 32 threads, so the second round is guarded.
// Converting f32 to f16 on the way.

// CHECK-LABEL: gpu.func @ragged_kernel
// CHECK: vector.load {{.*}} : memref<24x8xf32>, vector<4xf32>
// CHECK: arith.truncf %{{.*}} : vector<4xf32> to vector<4xf16>
// CHECK: vector.store
// CHECK: %[[ID:.*]] = arith.addi %{{.*}}, %c32 : index
// CHECK: %[[IN:.*]] = arith.cmpi ult, %[[ID]], %c48 : index
// CHECK: scf.if %[[IN]] {
// CHECK: vector.load {{.*}} : memref<24x8xf32>, vector<4xf32>
func.func @ragged(%A: memref<24x8xf32>) {
  %c1 = arith.constant 1 : index
  tile.kernel grid(%c1) threads(32) as (%bx) {
    %s = tile.alloc_shared : memref<24x8xf16, #gpu.address_space<workgroup>>
    tile.copy %A to %s : memref<24x8xf32> to memref<24x8xf16, #gpu.address_space<workgroup>>
  }
  return
}

// -----

// tile.clear of a shared tile: one zero 16-byte store per chunk.

// CHECK-LABEL: gpu.func @clear_kernel
// CHECK: %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : vector<4xf32>
// CHECK-COUNT-2: vector.store %[[ZERO]], %{{.*}} : memref<16x16xf32, #gpu.address_space<workgroup>>, vector<4xf32>
// CHECK-NOT: vector.store
func.func @clear() {
  %c1 = arith.constant 1 : index
  tile.kernel grid(%c1) threads(32) as (%bx) {
    %s = tile.alloc_shared : memref<16x16xf32, #gpu.address_space<workgroup>>
    tile.clear %s : memref<16x16xf32, #gpu.address_space<workgroup>>
  }
  return
}

// -----

// Adjacent synchronous copies from global into shared memory (the seed's
// plain loop: A and B tiles, 4 chunks per thread each) issue all eight loads
// before the first store, so that their latencies overlap. A copy that reads
// shared memory ends the run: its loads stay after the stores before it.

// CHECK-LABEL: gpu.func @batched_kernel
// CHECK-COUNT-8: vector.load {{.*}} : memref<4096x4096xf16>, vector<8xf16>
// CHECK-NOT: vector.load
// CHECK-COUNT-8: vector.store {{.*}} : memref<{{32x128|128x32}}xf16, #gpu.address_space<workgroup>>, vector<8xf16>
// CHECK-NOT: vector.store
// CHECK: vector.load {{.*}} : memref<128x32xf16, #gpu.address_space<workgroup>>, vector<8xf16>
// CHECK: vector.store {{.*}} : memref<4096x4096xf16>, vector<8xf16>
func.func @batched(%A: memref<4096x4096xf16>, %B: memref<4096x4096xf16>, %C: memref<4096x4096xf16>) {
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  tile.kernel grid(%c32, %c32) threads(128) as (%bx, %by) {
    %a = tile.alloc_shared : memref<128x32xf16, #gpu.address_space<workgroup>>
    %b = tile.alloc_shared : memref<32x128xf16, #gpu.address_space<workgroup>>
    %row = arith.muli %by, %c32 : index
    %col = arith.muli %bx, %c32 : index
    tile.copy %A[%row, %c0] to %a : memref<4096x4096xf16> to memref<128x32xf16, #gpu.address_space<workgroup>>
    tile.copy %B[%c0, %col] to %b : memref<4096x4096xf16> to memref<32x128xf16, #gpu.address_space<workgroup>>
    tile.copy %a to %C[%row, %col] : memref<128x32xf16, #gpu.address_space<workgroup>> to memref<4096x4096xf16>
  }
  return
}

// -----

// Rows of 4095 f32, converted to f16, are only 4-byte aligned: one-element
// chunks, 32 per thread, more than are unrolled. The loop takes 16 chunks
// per trip (step 16 * 128) and issues their 16 loads before their 16 stores.

// CHECK-LABEL: gpu.func @grouped_kernel
// CHECK: scf.for %{{.*}} = %c0 to %c4096 step %c2048 {
// CHECK-COUNT-16: vector.maskedload {{.*}} : memref<4095x4095xf32>, vector<1xi1>, vector<1xf32> into vector<1xf32>
// CHECK-NOT: vector.store
// CHECK-COUNT-16: vector.store {{.*}} : memref<64x64xf16, #gpu.address_space<workgroup>>, vector<1xf16>
// CHECK-NOT: vector.load
// CHECK: }
func.func @grouped(%A: memref<4095x4095xf32>) {
  %c64 = arith.constant 64 : index
  tile.kernel grid(%c64, %c64) threads(128) as (%bx, %by) {
    %s = tile.alloc_shared : memref<64x64xf16, #gpu.address_space<workgroup>>
    %row = arith.muli %by, %c64 : index
    %col = arith.muli %bx, %c64 : index
    tile.copy %A[%row, %col] to %s : memref<4095x4095xf32> to memref<64x64xf16, #gpu.address_space<workgroup>>
  }
  return
}

// -----

// Rows of 4095 f16 of static shape are realigned: each 8-element chunk
// (4 per thread, unrolled) loads the five 4-byte-aligned words from the one
// holding its first element, all chunks' loads before any join. The fifth
// word ends one or two elements past the chunk, so a chunk is realigned only
// when those lie inside the tensor (readable); otherwise its words are read
// at index 0 and it reads its elements one by one. Each output word joins
// two halves when the index is odd. Whole chunks take the realigned value as
// it is; a readable chunk cut by the end of a row (the grid's last column of
// tiles) is realigned too, its lanes past the row zeroed (the words past the
// row are the next row's), not read one by one. A chunk with no element
// inside is not readable: its row may be negative, where the words' index
// would wrap.

// CHECK-LABEL: gpu.func @realigned_kernel
// CHECK: %[[FLAT:.*]] = memref.collapse_shape %{{.*}} {{\[}}[0, 1]] : memref<4096x4095xf16> into memref<16773120xf16>
// CHECK: %[[LEFT:.*]] = arith.subi %c4095, %{{.*}} : index
// CHECK: %[[MIN:.*]] = arith.minui %[[LEFT]], %c8 : index
// CHECK: %[[COUNT:.*]] = arith.select %{{.*}}, %[[MIN]], %c0 : index
// CHECK: %[[NEXT:.*]] = arith.addi %[[LINEAR:.*]], %c9 : index
// CHECK: %[[TAIL:.*]] = arith.cmpi ult, %[[NEXT]], %c16773120 : index
// CHECK: %[[NONEMPTY:.*]] = arith.cmpi ne, %[[COUNT]], %c0 : index
// CHECK: %[[READABLE:.*]] = arith.andi %[[TAIL]], %[[NONEMPTY]] : i1
// CHECK: %[[FULL:.*]] = arith.cmpi eq, %[[COUNT]], %c8 : index
// CHECK: %[[WHOLE:.*]] = arith.andi %[[READABLE]], %[[FULL]] : i1
// CHECK: %[[SAFE:.*]] = arith.select %[[READABLE]], %[[LINEAR]], %c0 : index
// CHECK: %[[ODD:.*]] = arith.andi %[[SAFE]], %c1 : index
// CHECK: %[[BASE:.*]] = arith.subi %[[SAFE]], %[[ODD]] : index
// CHECK: vector.load %[[FLAT]][%[[BASE]]] {alignment = 4 : i64} : memref<16773120xf16>, vector<2xf16>
// CHECK-COUNT-3: vector.load %[[FLAT]][%{{.*}}] {alignment = 4 : i64} : memref<16773120xf16>, vector<2xf16>
// CHECK: %[[FIFTH:.*]] = arith.addi %[[BASE]], %c8 : index
// CHECK: vector.load %[[FLAT]][%[[FIFTH]]] {alignment = 4 : i64} : memref<16773120xf16>, vector<2xf16>
// CHECK-COUNT-15: vector.load %[[FLAT]][%{{.*}}] {alignment = 4 : i64} : memref<16773120xf16>, vector<2xf16>
// CHECK-NOT: vector.load
// CHECK: %[[HI:.*]] = arith.shrui %{{.*}}, %c16_i32 : i32
// CHECK: %[[LO:.*]] = arith.shli %{{.*}}, %c16_i32 : i32
// CHECK: %[[JOINED:.*]] = arith.ori %[[HI]], %[[LO]] : i32
// CHECK: %[[W0:.*]] = arith.select %{{.*}}, %[[JOINED]], %{{.*}} : i32
// CHECK: %[[WORDS:.*]] = vector.bitcast %{{.*}} : vector<4xi32> to vector<8xf16>
// CHECK-NEXT: scf.if %[[WHOLE]] -> (vector<8xf16>)
// CHECK-NEXT: scf.yield %[[WORDS]] : vector<8xf16>
// CHECK-NEXT: } else {
// CHECK-NEXT: scf.if %[[READABLE]] -> (vector<8xf16>)
// Word 0 keeps lane 0 (its low half) when count > 0, both lanes when count > 1.
// CHECK: %[[COUNT32:.*]] = arith.index_cast %[[COUNT]] : index to i32
// CHECK: %[[LOW0:.*]] = arith.cmpi ugt, %[[COUNT32]], %c0_i32 : i32
// CHECK: %[[HALF0:.*]] = arith.select %[[LOW0]], %c65535_i32, %c0_i32 : i32
// CHECK: %[[BOTH0:.*]] = arith.cmpi ugt, %[[COUNT32]], %c1_i32 : i32
// CHECK: %[[MASK0:.*]] = arith.select %[[BOTH0]], %c-1_i32, %[[HALF0]] : i32
// CHECK: %[[M0:.*]] = arith.andi %[[W0]], %[[MASK0]] : i32
// CHECK-COUNT-3: arith.andi %{{.*}} : i32
// CHECK: %[[MWORDS:.*]] = vector.from_elements %[[M0]], %{{.*}}, %{{.*}}, %{{.*}} : vector<4xi32>
// CHECK: %[[MASKED:.*]] = vector.bitcast %[[MWORDS]] : vector<4xi32> to vector<8xf16>
// CHECK-NEXT: scf.yield %[[MASKED]] : vector<8xf16>
// CHECK-NEXT: } else {
// CHECK: vector.maskedload %{{.*}} {alignment = 2 : i64} : memref<4096x4095xf16>, vector<8xi1>, vector<8xf16> into vector<8xf16>
// CHECK: vector.store %{{.*}} {alignment = 16 : i64} : memref<64x64xf16, #gpu.address_space<workgroup>>, vector<8xf16>
// CHECK-COUNT-3: vector.store %{{.*}} {alignment = 16 : i64} : memref<64x64xf16, #gpu.address_space<workgroup>>, vector<8xf16>
// CHECK: gpu.return
func.func @realigned(%A: memref<4096x4095xf16>) {
  %c64 = arith.constant 64 : index
  tile.kernel grid(%c64, %c64) threads(128) as (%bx, %by) {
    %s = tile.alloc_shared : memref<64x64xf16, #gpu.address_space<workgroup>>
    %row = arith.muli %by, %c64 : index
    %col = arith.muli %bx, %c64 : index
    tile.copy %A[%row, %col] to %s : memref<4096x4095xf16> to memref<64x64xf16, #gpu.address_space<workgroup>>
  }
  return
}

// -----

// A tile that may start before column 0 (here 3 columns early, as a K loop
// with a lead) is not realigned: a realigned chunk counts the elements inside
// the tensor from its start, so one that began before the row and ended in it
// would be read as zeros. It is copied element by element, each element
// checked (unsigned, so negative columns are outside). The same tile at a
// column that cannot be negative is realigned.

// CHECK-LABEL: gpu.func @lead_kernel
// CHECK-NOT: memref.collapse_shape
// CHECK: scf.for
// CHECK: %[[IN:.*]] = arith.cmpi ult, %{{.*}}, %c4095 : index
// CHECK: vector.load %{{.*}} : memref<4096x4095xf16>, vector<1xf16>
// CHECK-NOT: memref.collapse_shape
// CHECK: gpu.return
// CHECK-LABEL: gpu.func @no_lead_kernel
// CHECK: memref.collapse_shape %{{.*}} {{\[}}[0, 1]] : memref<4096x4095xf16> into memref<16773120xf16>
// CHECK: gpu.return
func.func @lead(%A: memref<4096x4095xf16>) {
  %c3 = arith.constant 3 : index
  %c64 = arith.constant 64 : index
  tile.kernel grid(%c64, %c64) threads(128) as (%bx, %by) {
    %s = tile.alloc_shared : memref<64x64xf16, #gpu.address_space<workgroup>>
    %row = arith.muli %by, %c64 : index
    %col = arith.muli %bx, %c64 : index
    %early = arith.subi %col, %c3 : index
    tile.copy %A[%row, %early] to %s : memref<4096x4095xf16> to memref<64x64xf16, #gpu.address_space<workgroup>>
  }
  return
}
func.func @no_lead(%A: memref<4096x4095xf16>) {
  %c3 = arith.constant 3 : index
  %c64 = arith.constant 64 : index
  tile.kernel grid(%c64, %c64) threads(128) as (%bx, %by) {
    %s = tile.alloc_shared : memref<64x64xf16, #gpu.address_space<workgroup>>
    %row = arith.muli %by, %c64 : index
    %col = arith.muli %bx, %c64 : index
    %later = arith.addi %col, %c3 : index
    tile.copy %A[%row, %later] to %s : memref<4096x4095xf16> to memref<64x64xf16, #gpu.address_space<workgroup>>
  }
  return
}

// -----

// Tiles with fewer than 8 chunks per row (128 x 32: 4) are realigned only
// where their element-wise copy would be a loop (here 32 elements per
// thread) and the step's realigned chunks stay within 4 per thread: alone
// here, with 4 per thread.

// CHECK-LABEL: gpu.func @narrow_kernel
// CHECK: memref.collapse_shape %{{.*}} {{\[\[}}0, 1]] : memref<4095x4095xf16> into memref<16769025xf16>
// CHECK-COUNT-20: vector.load {{.*}} {alignment = 4 : i64} : memref<16769025xf16>, vector<2xf16>
// CHECK-NOT: vector.load {{.*}} : memref<16769025xf16>
// CHECK: gpu.return
func.func @narrow(%A: memref<4095x4095xf16>) {
  %c32 = arith.constant 32 : index
  tile.kernel grid(%c32, %c32) threads(128) as (%bx, %by) {
    %s = tile.alloc_shared : memref<128x32xf16, #gpu.address_space<workgroup>>
    %row = arith.muli %by, %c32 : index
    %col = arith.muli %bx, %c32 : index
    tile.copy %A[%row, %col] to %s : memref<4095x4095xf16> to memref<128x32xf16, #gpu.address_space<workgroup>>
  }
  return
}

// -----

// With 256 threads the 128 x 32 tile's element-wise copy is straight-line
// code (16 loads per thread, issued before the stores): it is not realigned.

// CHECK-LABEL: gpu.func @narrow_straight_line_kernel
// CHECK-NOT: memref.collapse_shape
// CHECK-NOT: scf.for
// CHECK-COUNT-16: vector.load %arg0{{.*}} : memref<4095x4095xf16>, vector<1xf16>
// CHECK-NOT: memref.collapse_shape
// CHECK: gpu.return
func.func @narrow_straight_line(%A: memref<4095x4095xf16>) {
  %c32 = arith.constant 32 : index
  tile.kernel grid(%c32, %c32) threads(256) as (%bx, %by) {
    %s = tile.alloc_shared : memref<128x32xf16, #gpu.address_space<workgroup>>
    %row = arith.muli %by, %c32 : index
    %col = arith.muli %bx, %c32 : index
    tile.copy %A[%row, %col] to %s : memref<4095x4095xf16> to memref<128x32xf16, #gpu.address_space<workgroup>>
  }
  return
}

// -----

// Beside B's realigned 32 x 128 tile (4 chunks per thread), A's 128 x 32 tile
// would make 8 per thread: it stays element-wise (a loop of 16 loads per
// trip, all before the trip's stores), also where a subview between the two
// copies cuts them into two runs, as in a pipelined step.

// CHECK-LABEL: gpu.func @narrow_beside_wide_kernel
// CHECK-NOT: memref.collapse_shape %arg0
// CHECK: scf.for
// CHECK-COUNT-16: vector.load %arg0{{.*}} : memref<4095x4095xf16>, vector<1xf16>
// CHECK-NOT: vector.store
// CHECK: vector.store {{.*}} vector<1xf16>
// CHECK-NOT: memref.collapse_shape %arg0
// CHECK: memref.collapse_shape %arg1
// CHECK-NOT: memref.collapse_shape %arg0
// CHECK: gpu.return
func.func @narrow_beside_wide(%A: memref<4095x4095xf16>, %B: memref<4095x4095xf16>) {
  %c0 = arith.constant 0 : index
  %c32 = arith.constant 32 : index
  tile.kernel grid(%c32, %c32) threads(128) as (%bx, %by) {
    %a = tile.alloc_shared : memref<2x128x32xf16, #gpu.address_space<workgroup>>
    %b = tile.alloc_shared : memref<2x32x128xf16, #gpu.address_space<workgroup>>
    %row = arith.muli %by, %c32 : index
    %col = arith.muli %bx, %c32 : index
    %as = memref.subview %a[%c0, 0, 0] [1, 128, 32] [1, 1, 1] : memref<2x128x32xf16, #gpu.address_space<workgroup>> to memref<128x32xf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
    tile.copy %A[%row, %c0] to %as : memref<4095x4095xf16> to memref<128x32xf16, strided<[32, 1], offset: ?>, #gpu.address_space<workgroup>>
    %bs = memref.subview %b[%c0, 0, 0] [1, 32, 128] [1, 1, 1] : memref<2x32x128xf16, #gpu.address_space<workgroup>> to memref<32x128xf16, strided<[128, 1], offset: ?>, #gpu.address_space<workgroup>>
    tile.copy %B[%c0, %col] to %bs : memref<4095x4095xf16> to memref<32x128xf16, strided<[128, 1], offset: ?>, #gpu.address_space<workgroup>>
  }
  return
}

// -----

// f16 into a bf16 tile: the two types have the same width, so the values go
// through f32 (extf, then truncf with round to nearest even), as the CPU
// lowering converts them; a direct truncf between them does not verify.
// CHECK-LABEL: gpu.func @f16_to_bf16_kernel
// CHECK: %[[V:.*]] = vector.load %{{.*}} : memref<64x64xf16>, vector<8xf16>
// CHECK: %[[W:.*]] = arith.extf %[[V]] : vector<8xf16> to vector<8xf32>
// CHECK: %[[N:.*]] = arith.truncf %[[W]] : vector<8xf32> to vector<8xbf16>
// CHECK: vector.store %[[N]], %{{.*}} : memref<64x64xbf16, #gpu.address_space<workgroup>>, vector<8xbf16>
func.func @f16_to_bf16(%A: memref<64x64xf16>, %C: memref<64x64xbf16>) {
  %c1 = arith.constant 1 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %S = tile.alloc_shared : memref<64x64xbf16, #gpu.address_space<workgroup>>
    tile.copy %A to %S : memref<64x64xf16> to memref<64x64xbf16, #gpu.address_space<workgroup>>
    tile.barrier
    tile.copy %S to %C : memref<64x64xbf16, #gpu.address_space<workgroup>> to memref<64x64xbf16>
  }
  return
}

// -----

// A constant column past 2^30: 2^30 + 1 is odd, so the chunk is not 16-byte
// aligned and is copied element by element. (IndexFacts capped a constant's
// divisor at 2^30 with min(), which took 2^30 + 1 for a multiple of 2^30 and
// made this one misaligned 16-byte load.)
// CHECK-LABEL: gpu.func @big_offset_kernel
// CHECK-NOT: memref<1x1073741840xf16>, vector<8xf16>
// CHECK: vector.load %{{.*}} : memref<1x1073741840xf16>, vector<1xf16>
// CHECK-NOT: memref<1x1073741840xf16>, vector<8xf16>
// CHECK: gpu.return
func.func @big_offset(%A: memref<1x1073741840xf16>, %O: memref<1x8xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %col = arith.constant 1073741825 : index
  tile.kernel grid(%c1) threads(32) as (%bx) {
    %s = tile.alloc_shared : memref<1x8xf16, #gpu.address_space<workgroup>>
    tile.copy %A[%c0, %col] to %s : memref<1x1073741840xf16> to memref<1x8xf16, #gpu.address_space<workgroup>>
    tile.barrier
    tile.copy %s to %O : memref<1x8xf16, #gpu.address_space<workgroup>> to memref<1x8xf16>
  }
  return
}

// -----

// Tensors smaller than the tile, without offsets: the extent is the 32x32
// tile, so the load of a chunk outside the 20x24 tensor reads zeros and its
// store writes nothing.

// CHECK-LABEL: gpu.func @smaller_tensor_kernel
// CHECK: %[[COL:.*]] = arith.cmpi ult, %{{.*}}, %c24 : index
// CHECK: %[[ROW:.*]] = arith.cmpi ult, %{{.*}}, %c20 : index
// CHECK: %[[BOTH:.*]] = arith.andi %[[COL]], %[[ROW]] : i1
// CHECK: %[[COUNT:.*]] = arith.select %[[BOTH]], %{{.*}}, %c0 : index
// CHECK: %[[WHOLE:.*]] = arith.cmpi eq, %[[COUNT]], %c8 : index
// CHECK: scf.if %[[WHOLE]] -> (vector<8xf16>)
// CHECK: vector.maskedload %arg0
// CHECK: gpu.barrier
// CHECK: scf.if %[[WHOLE]] {
// CHECK: vector.store %{{.*}}, %arg1
// CHECK: } else {
// CHECK: vector.maskedstore %arg1
func.func @smaller_tensor(%A: memref<20x24xf16>, %C: memref<20x24xf16>) {
  %c1 = arith.constant 1 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %s = tile.alloc_shared : memref<32x32xf16, #gpu.address_space<workgroup>>
    tile.copy %A to %s : memref<20x24xf16> to memref<32x32xf16, #gpu.address_space<workgroup>>
    tile.barrier
    tile.copy %s to %C : memref<32x32xf16, #gpu.address_space<workgroup>> to memref<20x24xf16>
  }
  return
}

// -----

// A tensor that memref.view carves out of a byte buffer 2 bytes past its
// start has an identity layout, but its rows are only 2-byte aligned: the
// view's byte shift is not in its type. The copy takes one element per load,
// neither 16-byte vectors nor the realigned words of a 2-byte-aligned
// kernel argument.

// CHECK-LABEL: gpu.func @shifted_view_kernel
// CHECK-NOT: memref.collapse_shape
// CHECK: vector.load %{{.*}} : memref<16x64xf16>, vector<1xf16>
// CHECK-NOT: memref.collapse_shape
// CHECK: gpu.return
func.func @shifted_view(%buf: memref<4096xi8>) {
  %c1 = arith.constant 1 : index
  tile.kernel grid(%c1) threads(32) as (%bx) {
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %A = memref.view %buf[%c2][] : memref<4096xi8> to memref<16x64xf16>
    %s = tile.alloc_shared : memref<16x64xf16, #gpu.address_space<workgroup>>
    tile.copy %A[%c0, %c0] to %s : memref<16x64xf16> to memref<16x64xf16, #gpu.address_space<workgroup>>
  }
  return
}

// -----

// The same view carried into a loop as an iter_arg: a block argument, but
// not a kernel argument, so its base has no known alignment either.

// CHECK-LABEL: gpu.func @shifted_view_iter_arg_kernel
// CHECK: scf.for
// CHECK-NOT: memref.collapse_shape
// CHECK: vector.load %{{.*}} : memref<16x64xf16>, vector<1xf16>
// CHECK-NOT: vector<8xf16>
// CHECK: gpu.return
func.func @shifted_view_iter_arg(%buf: memref<4096xi8>) {
  %c1 = arith.constant 1 : index
  tile.kernel grid(%c1) threads(32) as (%bx) {
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %A = memref.view %buf[%c2][] : memref<4096xi8> to memref<16x64xf16>
    %s = tile.alloc_shared : memref<16x64xf16, #gpu.address_space<workgroup>>
    %r = scf.for %i = %c0 to %c1 step %c1 iter_args(%a = %A) -> (memref<16x64xf16>) {
      tile.copy %a[%c0, %c0] to %s : memref<16x64xf16> to memref<16x64xf16, #gpu.address_space<workgroup>>
      scf.yield %a : memref<16x64xf16>
    }
  }
  return
}
