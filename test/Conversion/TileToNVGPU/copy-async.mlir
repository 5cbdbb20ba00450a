// RUN: tile-opt %s --split-input-file --tile-lower-to-nvgpu=chip=sm_80 -cse | FileCheck %s

// The seed's A tile: 128x32 f16 at a column offset k*32, from a tensor of
// 900 rows cut by a grid of 8 blocks (rows up to 1023). Rows are 64 B = four
// 16-byte chunks, 512 chunks over 128 threads: four cp.async of 8 elements
// per thread, bypassing L1, with srcElements for the zero-fill, written at
// the swizzled column. Only the row can leave the tensor (columns stay below
// 3*32+32): it is clamped to the last row, so an out-of-bounds chunk reads
// nothing from an address inside the tensor, and the column is used as is.

// CHECK-LABEL: gpu.func @seed_a_kernel
// CHECK-SAME: kernel attributes {known_block_size = array<i32: 128, 1, 1>}
// CHECK: %[[TID:.*]] = gpu.thread_id x
// CHECK: scf.for %[[K:.*]] =
// CHECK: %[[ROW:.*]] = arith.divui %[[TID]], %c4
// CHECK: %[[GROW:.*]] = arith.addi %{{.*}}, %[[ROW]] : index
// CHECK: %[[GCOL:.*]] = arith.addi %{{.*}}, %{{.*}} : index
// CHECK: %[[INSIDE:.*]] = arith.cmpi ult, %[[GROW]], %c900 : index
// CHECK: %[[CLAMPED:.*]] = arith.minui %[[GROW]], %c899 : index
// CHECK: %[[N:.*]] = arith.select %[[INSIDE]], %c8, %c0 : index
// CHECK-NOT: arith.select
// CHECK: arith.xori
// CHECK: nvgpu.device_async_copy %{{.*}}[%[[CLAMPED]], %[[GCOL]]], %{{.*}}[%[[ROW]], %{{.*}}], 8, %[[N]] {bypassL1} : memref<900x4096xf16> to memref<128x32xf16, #gpu.address_space<workgroup>>
// CHECK: arith.addi %[[TID]], %c128
// CHECK: nvgpu.device_async_copy {{.*}}, 8, %{{.*}} {bypassL1}
// CHECK: arith.addi %[[TID]], %c256
// CHECK: nvgpu.device_async_copy {{.*}}, 8, %{{.*}} {bypassL1}
// CHECK: arith.addi %[[TID]], %c384
// CHECK: nvgpu.device_async_copy {{.*}}, 8, %{{.*}} {bypassL1}
// CHECK-NOT: nvgpu.device_async_copy
// CHECK: nvvm.cp.async.commit.group
// CHECK: nvvm.cp.async.wait.group 0
// CHECK: gpu.barrier
func.func @seed_a(%A: memref<900x4096xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %c128 = arith.constant 128 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  tile.kernel grid(%c8) threads(128) as (%bx) {
    %s = tile.alloc_shared : memref<128x32xf16, #gpu.address_space<workgroup>>
    %row = arith.muli %bx, %c128 : index
    scf.for %k = %c0 to %c4 step %c1 {
      %ko = arith.muli %k, %c32 : index
      tile.copy_async %A[%row, %ko] to %s : memref<900x4096xf16> to memref<128x32xf16, #gpu.address_space<workgroup>>
      tile.commit_group
      tile.wait_group 0
      tile.barrier
    }
  }
  return
}

// -----

// The same copy from the seed's 4096x4096 tensor with a 32-block grid and 128
// k-steps: every chunk provably lies inside (rows <= 31*128+127, columns <=
// 127*32+31), so there are no bounds checks and no srcElements. A thread's
// four chunks are rows r, r + 32, r + 64, r + 96 of one column: the row and
// the swizzled column are computed once (the swizzle repeats every 8 rows)
// and the chunks add their row delta last, on both sides, so that each
// address is the first one's plus a constant.

// CHECK-LABEL: gpu.func @seed_exact_kernel
// CHECK-NOT: arith.cmpi
// CHECK: %[[ROW:.*]] = arith.divui %{{.*}}, %c4 : index
// CHECK: %[[GROW:.*]] = arith.addi %{{.*}}, %[[ROW]] : index
// CHECK: %[[GCOL:.*]] = arith.addi %{{.*}}, %{{.*}} : index
// CHECK: arith.xori
// CHECK: %[[SCOL:.*]] = arith.addi %{{.*}}, %{{.*}} : index
// CHECK: nvgpu.device_async_copy %{{.*}}[%[[GROW]], %[[GCOL]]], %{{.*}}[%[[ROW]], %[[SCOL]]], 8 {bypassL1} : memref<4096x4096xf16>
// CHECK-NOT: arith.xori
// CHECK: %[[G1:.*]] = arith.addi %[[GROW]], %c32 : index
// CHECK: %[[S1:.*]] = arith.addi %[[ROW]], %c32 : index
// CHECK: nvgpu.device_async_copy %{{.*}}[%[[G1]], %[[GCOL]]], %{{.*}}[%[[S1]], %[[SCOL]]], 8 {bypassL1}
// CHECK-NOT: arith.xori
// CHECK: %[[G3:.*]] = arith.addi %[[GROW]], %c96 : index
// CHECK: %[[S3:.*]] = arith.addi %[[ROW]], %c96 : index
// CHECK: nvgpu.device_async_copy %{{.*}}[%[[G3]], %[[GCOL]]], %{{.*}}[%[[S3]], %[[SCOL]]], 8 {bypassL1}
// CHECK-NOT: arith.cmpi
func.func @seed_exact(%A: memref<4096x4096xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %c128 = arith.constant 128 : index
  %c4096 = arith.constant 4096 : index
  %gy = arith.ceildivui %c4096, %c128 : index
  %kt = arith.ceildivui %c4096, %c32 : index
  tile.kernel grid(%c1, %gy) threads(128) as (%bx, %by) {
    %s = tile.alloc_shared : memref<128x32xf16, #gpu.address_space<workgroup>>
    %row = arith.muli %by, %c128 : index
    scf.for %k = %c0 to %kt step %c1 {
      %ko = arith.muli %k, %c32 : index
      tile.copy_async %A[%row, %ko] to %s : memref<4096x4096xf16> to memref<128x32xf16, #gpu.address_space<workgroup>>
      tile.commit_group
    }
  }
  return
}

// -----

// A B tile (32x128 f16, 16 chunks per row) into one version of a 4-deep
// multi-buffer. With 128 threads a thread's chunks are 8 rows apart, a whole
// swizzle period: one swizzled column for all four, through the subview. The
// tile is stored as two 128-byte panels of 32 rows x 64 columns, so the
// physical row (panel * 16 + row / 2 of the [32][128] version) moves by 4.
// With 32 threads they are 2 rows apart and chunks swizzle their own rows.

// CHECK-LABEL: gpu.func @rows_one_period_kernel
// CHECK: arith.divui %{{.*}}, %c16 : index
// CHECK: arith.xori
// CHECK: %[[PANEL:.*]] = arith.divui %{{.*}}, %c64 : index
// CHECK: arith.muli %[[PANEL]], %c16 : index
// CHECK: nvgpu.device_async_copy %{{.*}}, %{{.*}}[%[[V:.*]], %[[ROW:.*]], %[[COL:.*]]], 8
// CHECK-NOT: arith.xori
// CHECK: %[[R1:.*]] = arith.addi %[[ROW]], %c4 : index
// CHECK: nvgpu.device_async_copy %{{.*}}, %{{.*}}[%[[V]], %[[R1]], %[[COL]]], 8
// CHECK-NOT: arith.xori
// CHECK: %[[R3:.*]] = arith.addi %[[ROW]], %c12 : index
// CHECK: nvgpu.device_async_copy %{{.*}}, %{{.*}}[%[[V]], %[[R3]], %[[COL]]], 8
// CHECK-NOT: nvgpu.device_async_copy
// CHECK: nvvm.cp.async.commit.group

// CHECK-LABEL: gpu.func @rows_within_period_kernel
// CHECK: arith.xori
// CHECK: nvgpu.device_async_copy
// CHECK: arith.addi %{{.*}}, %c2 : index
// CHECK: arith.xori
// CHECK: nvgpu.device_async_copy
// CHECK: arith.addi %{{.*}}, %c4 : index
// CHECK: arith.xori
// CHECK: nvgpu.device_async_copy
func.func @rows_one_period(%B: memref<4096x4096xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c32 = arith.constant 32 : index
  %c128 = arith.constant 128 : index
  tile.kernel grid(%c1) threads(128) as (%bx) {
    %s = tile.alloc_shared : memref<4x32x128xf16, #gpu.address_space<workgroup>>
    scf.for %k = %c0 to %c128 step %c1 {
      %ko = arith.muli %k, %c32 : index
      %v = arith.remui %k, %c4 : index
      %sv = memref.subview %s[%v, 0, 0] [1, 32, 128] [1, 1, 1] : memref<4x32x128xf16, #gpu.address_space<workgroup>> to memref<32x128xf16, strided<[128, 1], offset: ?>, #gpu.address_space<workgroup>>
      tile.copy_async %B[%ko, %c0] to %sv : memref<4096x4096xf16> to memref<32x128xf16, strided<[128, 1], offset: ?>, #gpu.address_space<workgroup>>
      tile.commit_group
    }
  }
  return
}
func.func @rows_within_period(%B: memref<4096x4096xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c32 = arith.constant 32 : index
  %c128 = arith.constant 128 : index
  tile.kernel grid(%c1) threads(32) as (%bx) {
    %s = tile.alloc_shared : memref<4x32x128xf16, #gpu.address_space<workgroup>>
    scf.for %k = %c0 to %c128 step %c1 {
      %ko = arith.muli %k, %c32 : index
      %v = arith.remui %k, %c4 : index
      %sv = memref.subview %s[%v, 0, 0] [1, 32, 128] [1, 1, 1] : memref<4x32x128xf16, #gpu.address_space<workgroup>> to memref<32x128xf16, strided<[128, 1], offset: ?>, #gpu.address_space<workgroup>>
      tile.copy_async %B[%ko, %c0] to %sv : memref<4096x4096xf16> to memref<32x128xf16, strided<[128, 1], offset: ?>, #gpu.address_space<workgroup>>
      tile.commit_group
    }
  }
  return
}

// -----

// A row stride of 100 f16 (200 B) is 8-byte but not 16-byte aligned: 8-byte
// chunks (4 elements), which cp.async cannot bypass L1 for.

// CHECK-LABEL: gpu.func @odd_stride_kernel
// CHECK: nvgpu.device_async_copy {{.*}}, 4, %{{.*}} : memref<100x100xf16>
// CHECK-NOT: bypassL1
func.func @odd_stride(%A: memref<100x100xf16>) {
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %c4 = arith.constant 4 : index
  tile.kernel grid(%c4, %c4) threads(32) as (%bx, %by) {
    %s = tile.alloc_shared : memref<32x32xf16, #gpu.address_space<workgroup>>
    %row = arith.muli %by, %c32 : index
    %col = arith.muli %bx, %c32 : index
    tile.copy_async %A[%row, %col] to %s : memref<100x100xf16> to memref<32x32xf16, #gpu.address_space<workgroup>>
    tile.commit_group
  }
  return
}

// -----

// Nothing is known about the column offset: one element per chunk, 2 bytes,
// below cp.async's 4-byte minimum, so the copy is done synchronously with
// masked loads (out-of-bounds elements read as zero).

// CHECK-LABEL: gpu.func @unknown_offset_kernel
// CHECK-NOT: nvgpu.device_async_copy
// CHECK: vector.maskedload %{{.*}} : memref<64x64xf16>, vector<1xi1>, vector<1xf16> into vector<1xf16>
// CHECK: vector.store %{{.*}} : memref<16x16xf16, #gpu.address_space<workgroup>>, vector<1xf16>
// CHECK: nvvm.cp.async.commit.group
func.func @unknown_offset(%A: memref<64x64xf16>, %idx: memref<1xindex>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  tile.kernel grid(%c1) threads(32) as (%bx) {
    %s = tile.alloc_shared : memref<16x16xf16, #gpu.address_space<workgroup>>
    %col = memref.load %idx[%c0] : memref<1xindex>
    tile.copy_async %A[%c0, %col] to %s : memref<64x64xf16> to memref<16x16xf16, #gpu.address_space<workgroup>>
    tile.commit_group
  }
  return
}

// -----

// Tiles of 32x128 f16 at column offset bx*128 of tensors 1000 and 1004
// columns wide (a grid of 8 blocks reaches column 1023); rows k*32 stay
// inside (the second tensor is a 4096x1004 view of a 4096x1008 one). Only the column is checked, and it is the same for all of a
// thread's chunks, so they keep sharing one row and column (rows 8 apart,
// added last) and clamp the column once, to the last chunk start inside the
// row: 992 for 1000 columns, 1000 for 1004. A chunk starts at a multiple of
// 8, so with 1000 columns it is wholly inside or wholly outside (count 8 or
// 0); with 1004 the last one inside holds 4 elements.

// CHECK-LABEL: gpu.func @columns_checked_kernel
// CHECK: %[[CLAMPED:.*]] = arith.minui %[[COL:.*]], %c992 : index
// CHECK: %[[INSIDE:.*]] = arith.cmpi ult, %[[COL]], %c1000 : index
// CHECK: %[[N:.*]] = arith.select %[[INSIDE]], %c8, %c0 : index
// CHECK: nvgpu.device_async_copy %{{.*}}[%[[ROW:.*]], %[[CLAMPED]]], %{{.*}}, 8, %[[N]] {bypassL1} : memref<4096x1000xf16>
// CHECK-NOT: arith.minui
// CHECK: %[[R1:.*]] = arith.addi %[[ROW]], %c8 : index
// CHECK: nvgpu.device_async_copy %{{.*}}[%[[R1]], %[[CLAMPED]]], %{{.*}}, 8, %[[N]] {bypassL1}
// CHECK-NOT: arith.minui
// CHECK: %[[R3:.*]] = arith.addi %[[ROW]], %c24 : index
// CHECK: nvgpu.device_async_copy %{{.*}}[%[[R3]], %[[CLAMPED]]], %{{.*}}, 8, %[[N]] {bypassL1}

// CHECK-LABEL: gpu.func @columns_partial_kernel
// CHECK: %[[CLAMPED:.*]] = arith.minui %[[COL:.*]], %c1000 : index
// CHECK: %[[LEFT:.*]] = arith.subi %c1004, %[[COL]] : index
// CHECK: %[[PART:.*]] = arith.minui %[[LEFT]], %c8 : index
// CHECK: %[[INSIDE:.*]] = arith.cmpi ult, %[[COL]], %c1004 : index
// CHECK: %[[N:.*]] = arith.select %[[INSIDE]], %[[PART]], %c0 : index
// CHECK: nvgpu.device_async_copy %{{.*}}[%{{.*}}, %[[CLAMPED]]], %{{.*}}, 8, %[[N]] {bypassL1} : memref<4096x1004xf16, strided<[1008, 1]>>
func.func @columns_checked(%B: memref<4096x1000xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %c128 = arith.constant 128 : index
  tile.kernel grid(%c8) threads(128) as (%bx) {
    %s = tile.alloc_shared : memref<32x128xf16, #gpu.address_space<workgroup>>
    %col = arith.muli %bx, %c128 : index
    scf.for %k = %c0 to %c128 step %c1 {
      %ko = arith.muli %k, %c32 : index
      tile.copy_async %B[%ko, %col] to %s : memref<4096x1000xf16> to memref<32x128xf16, #gpu.address_space<workgroup>>
      tile.commit_group
    }
  }
  return
}
func.func @columns_partial(%T: memref<4096x1008xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %c128 = arith.constant 128 : index
  tile.kernel grid(%c8) threads(128) as (%bx) {
    %s = tile.alloc_shared : memref<32x128xf16, #gpu.address_space<workgroup>>
    %B = memref.subview %T[0, 0] [4096, 1004] [1, 1] : memref<4096x1008xf16> to memref<4096x1004xf16, strided<[1008, 1]>>
    %col = arith.muli %bx, %c128 : index
    scf.for %k = %c0 to %c128 step %c1 {
      %ko = arith.muli %k, %c32 : index
      tile.copy_async %B[%ko, %col] to %s : memref<4096x1004xf16, strided<[1008, 1]>> to memref<32x128xf16, #gpu.address_space<workgroup>>
      tile.commit_group
    }
  }
  return
}

// -----

// A source of dynamic sizes (static strides keep the 16-byte chunks): both
// dimensions are checked against memref.dim, the row clamped to dim0 - 1, the
// column to the last chunk start (dim1 - 1) / 8 * 8, and the count is the
// in-bounds part of the chunk, since nothing says 8 divides dim1.

// CHECK-LABEL: gpu.func @dynamic_kernel
// CHECK: %[[D0:.*]] = memref.dim %[[SRC:.*]], %c0
// CHECK: %[[ROWIN:.*]] = arith.cmpi ult, %[[ROW:.*]], %[[D0]] : index
// CHECK: %[[LASTROW:.*]] = arith.subi %[[D0]], %c1 : index
// CHECK: %[[CROW:.*]] = arith.minui %[[ROW]], %[[LASTROW]] : index
// CHECK: %[[D1:.*]] = memref.dim %[[SRC]], %c1
// CHECK: %[[LASTCOL:.*]] = arith.subi %[[D1]], %c1 : index
// CHECK: %[[Q:.*]] = arith.divui %[[LASTCOL]], %c8 : index
// CHECK: %[[START:.*]] = arith.muli %[[Q]], %c8 : index
// CHECK: %[[CCOL:.*]] = arith.minui %[[COL:.*]], %[[START]] : index
// CHECK: %[[LEFT:.*]] = arith.subi %[[D1]], %[[COL]] : index
// CHECK: %[[PART:.*]] = arith.minui %[[LEFT]], %c8 : index
// CHECK: %[[COLIN:.*]] = arith.cmpi ult, %[[COL]], %[[D1]] : index
// CHECK: %[[N1:.*]] = arith.select %[[COLIN]], %[[PART]], %c0 : index
// CHECK: %[[N:.*]] = arith.select %[[ROWIN]], %[[N1]], %c0 : index
// CHECK: nvgpu.device_async_copy %[[SRC]][%[[CROW]], %[[CCOL]]], %{{.*}}, 8, %[[N]] {bypassL1}
func.func @dynamic(%T: memref<1000x1000xf16>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %c128 = arith.constant 128 : index
  tile.kernel grid(%c8) threads(128) as (%bx) {
    %s = tile.alloc_shared : memref<32x128xf16, #gpu.address_space<workgroup>>
    %B = memref.cast %T : memref<1000x1000xf16> to memref<?x?xf16, strided<[1000, 1]>>
    %col = arith.muli %bx, %c128 : index
    scf.for %k = %c0 to %c32 step %c1 {
      %ko = arith.muli %k, %c32 : index
      tile.copy_async %B[%ko, %col] to %s : memref<?x?xf16, strided<[1000, 1]>> to memref<32x128xf16, #gpu.address_space<workgroup>>
      tile.commit_group
    }
  }
  return
}

// -----

// A tensor smaller than the tile, without offsets: the copy still moves the
// whole 32x32 tile (its extent is the tile's shape) and zero-fills what lies
// outside the 20x24 tensor. Columns 24..31 count no source elements; rows
// 20..31 count none and read at a clamped row.

// CHECK-LABEL: gpu.func @smaller_tensor_kernel
// CHECK: %[[COL:.*]] = arith.cmpi ult, %{{.*}}, %c24 : index
// CHECK: %[[N:.*]] = arith.select %[[COL]], %c8, %c0 : index
// CHECK: nvgpu.device_async_copy %arg0[%{{.*}}, %{{.*}}], %{{.*}}[%{{.*}}, %{{.*}}], 8, %[[N]]
// CHECK: %[[ROW:.*]] = arith.cmpi ult, %{{.*}}, %c20 : index
// CHECK: %[[CLAMPED:.*]] = arith.minui %{{.*}}, %c19 : index
// CHECK: %[[M:.*]] = arith.select %[[ROW]], %{{.*}}, %c0 : index
// CHECK: nvgpu.device_async_copy %arg0[%[[CLAMPED]], %{{.*}}], %{{.*}}[%{{.*}}, %{{.*}}], 8, %[[M]]
func.func @smaller_tensor(%A: memref<20x24xf16>) {
  %c1 = arith.constant 1 : index
  tile.kernel grid(%c1) threads(32) as (%bx) {
    %s = tile.alloc_shared : memref<32x32xf16, #gpu.address_space<workgroup>>
    tile.copy_async %A to %s : memref<20x24xf16> to memref<32x32xf16, #gpu.address_space<workgroup>>
    tile.commit_group
  }
  return
}
